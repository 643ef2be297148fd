"""Blind round 62 (b62_12, issue 38): layer_norm and self_attention ported from microsoft/Cream
`TinyViT/models/tiny_vit.py` (Attention.forward's per-head qkv layout,
`view(B, N, heads, -1).split([key_dim, key_dim, d])`; torch nn.LayerNorm's default eps).

Mistakes:
18. self_attention (lines 94-95 of the file as delivered): TinyViT's per-head split applied to a
    concatenated [Wq | Wk | Wv] output, `qkv.reshape(N, heads, -1)` then `np.split` into q, k,
    v: with heads > 1 q, k and v take the wrong columns. Wrong only with heads > 1.
19. layer_norm (line 74): the default `eps=1e-5` (torch's) instead of the API's 1e-6; also used by
    encoder_block and vit_forward. Wrong for rows of small variance (values ~1e-3 apart: 0.66
    off), ~1e-5 relative otherwise; right when eps is passed.

Grader: at blind time (90d6c97e) and now, 93/110, both named. Mistake 18 on multi-head-attention's
head-count and random checks and no-causal-mask's two, in the words of the fused-qkv hint ("In
`self_attention`, q, k, v come from one fused product ..., split per token as (heads, 3, d_h)
where its columns are (3, heads, d_h) ... Reshape to (T, 3, heads, d_h) first.": the code's
reshape(N, heads, -1) and split is that layout). Mistake 19 on layer-norm's eps and random checks
("In `layer_norm`, eps is 1e-05; the student API's is 1e-06."); vit-checkpoint observes
self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05',
          'multi-head-attention': 'op:fused:self_attention:qkv-fused-heads-major',
          'no-causal-mask': 'op:fused:self_attention:qkv-fused-heads-major'}


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    B_N, dim = x.shape
    N = B_N
    if dim % heads != 0:
        raise ValueError("dim must be divisible by num_heads")
    num_heads = heads
    key_dim = dim // num_heads
    d = key_dim
    dh = d * num_heads
    scale = key_dim ** -0.5

    qkv_w = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    qkv_b = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = x @ qkv_w + qkv_b
    qkv = qkv.reshape(N, num_heads, -1)
    q, k, v = np.split(qkv, [key_dim, 2 * key_dim], axis=2)
    q = q.transpose(1, 0, 2)
    k = k.transpose(1, 0, 2)
    v = v.transpose(1, 0, 2)

    attn = (q @ k.transpose(0, 2, 1)) * scale
    if causal:
        attn = np.where(np.tril(np.ones((N, N), dtype=bool)), attn, -np.inf)
    attn = softmax(attn, axis=-1)
    x = (attn @ v).transpose(1, 0, 2).reshape(N, dh)
    return x @ p["Wo"] + p["bo"]
