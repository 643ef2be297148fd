"""Blind round 33 (b33_06, issue 38): self_attention and encoder_block ported from
SHI-Labs/Compact-Transformers (src/utils/transformers.py: Attention, TransformerEncoderLayer;
"Escaping the Big Data Paradigm with Compact Transformers").

Mistakes:
1. self_attention: the fused `self.qkv = Linear(dim, dim * 3, bias=False)` ported as
   x @ [Wq|Wk|Wv] with no bq, bk, bv. (bk alone would change nothing: a key bias adds q_i . bk to
   every score of row i, which the softmax cancels.)
2. encoder_block: CCT's `src = self.norm1(src)` after the attention residual: the residual
   stream itself is replaced by LN2(x), so the block returns LN2(x) + MLP(LN2(x)) instead of
   x + MLP(LN2(x)).

Grader: at blind time (c4f83ef) and now, named: "One slip, made at 2 places: ... (in its step
`linear(x, p['Wq'], p['bq'])`), the bias `b` is left out ... (`linear(x, p['Wv'], p['bv'])`)"
on no-causal-mask and multi-head-attention (bk not mentioned, rightly), and "the residual of
`x + mlp(layer_norm(x, ...), ...)` adds back `layer_norm(x, p['ln2_g'], p['ln2_b'], eps)`, the
step's output, instead of `x` itself" on encoder-block, graded with the grader's self_attention
standing in; vit-checkpoint observes both. Every mistake named, so in buggy/.
Since round 36 (issue 38) the attention's biases are named as one slip: "q, k and v are
projected without their biases" (op:qkv_bias_free), where a pair named bq's and bv's.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:qkv_bias_free:self_attention:qkv-without-bias',
          'multi-head-attention': 'op:qkv_bias_free:self_attention:qkv-without-bias',
          'encoder-block': 'op:residual:encoder_block:residual-from-layer_norm.2'}


def self_attention(x, p, heads, causal=False):
    """Attention.forward (timm-style fused qkv) for one sequence, B = 1."""
    N, C = x.shape
    num_heads = heads
    if C % num_heads:
        raise ValueError(f"dim {C} should be divisible by num_heads {num_heads}")
    head_dim = C // num_heads
    scale = head_dim ** -0.5

    qkv_weight = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)   # self.qkv = Linear(dim, dim * 3, bias=False)
    qkv = (x @ qkv_weight).reshape(N, 3, num_heads, C // num_heads).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]

    attn = (q @ k.transpose(0, 2, 1)) * scale
    if causal:
        mask_value = -np.finfo(attn.dtype).max
        attn = np.where(np.tril(np.ones((N, N), dtype=bool)), attn, mask_value)
    attn = softmax(attn, axis=-1)

    x = (attn @ v).transpose(1, 0, 2).reshape(N, C)
    x = x @ p["Wo"] + p["bo"]                                           # self.proj = Linear(dim, dim)
    return x


def encoder_block(x, p, heads):
    """TransformerEncoderLayer.forward (dropout and drop path are identities at inference)."""
    src = x
    src = src + self_attention(layer_norm(src, p["ln1_g"], p["ln1_b"]), p, heads)   # pre_norm
    src = layer_norm(src, p["ln2_g"], p["ln2_b"])                                   # norm1
    src2 = gelu(src @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]                        # linear2(act(linear1(src)))
    src = src + src2
    return src
