"""Blind round 20 (b20_01, issue 38): self_attention and layer_norm ported from microsoft/unilm
BEiT (beit/modeling_finetune.py: the fused qkv weight and bias, `reshape(B, N, 3, num_heads,
-1).permute(2, 0, 3, 1, 4)`, `q = q * self.scale`, `norm_layer = partial(nn.LayerNorm, ...)`).

Mistakes:
1. self_attention's scale is `all_head_dim ** -0.5` (the full width, the one BEiT's
   attn_head_dim override passes) instead of `head_dim ** -0.5`: wrong only with heads > 1.
2. layer_norm's default eps is 1e-5, nn.LayerNorm's own default (BEiT overrides it with
   partial(nn.LayerNorm, eps=1e-6)): shows only where a token's variance is small.

Grader: at blind time and now, both named: the scores divided by sqrt(d), the model width,
instead of sqrt(d_h) (generated on no-causal-mask, attention_scale_d on multi-head-attention),
and "eps is 1e-05; the lecture's is 1e-06"; vit-checkpoint observes the broken functions. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d'}


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    if C % heads != 0:
        raise ValueError("dim must be divisible by num_heads")
    head_dim = C // heads
    all_head_dim = head_dim * heads
    scale = all_head_dim ** -0.5
    qkv_weight = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    qkv_bias = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = x @ qkv_weight + qkv_bias
    qkv = qkv.reshape(N, 3, heads, -1).transpose(1, 2, 0, 3)  # (3, heads, N, head_dim)
    q, k, v = qkv[0], qkv[1], qkv[2]
    q = q * scale
    attn = q @ k.transpose(0, 2, 1)
    if causal:
        mask = np.triu(np.ones((N, N), dtype=bool), k=1)
        attn = np.where(mask[None], -np.inf, attn)
    attn = softmax(attn, axis=-1)
    x = (attn @ v).transpose(1, 0, 2).reshape(N, -1)
    return x @ p["Wo"] + p["bo"]


def layer_norm(x, gamma, beta, eps=1e-5):
    u = x.mean(-1, keepdims=True)
    s = ((x - u) ** 2).mean(-1, keepdims=True)
    x = (x - u) / np.sqrt(s + eps)
    return gamma * x + beta
