"""timm's Attention ported to numpy, with the scale written as head_dim ** -1: the scores are
divided by d_h, not by sqrt(d_h)."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:constant:self_attention/attention:scale=d_h'}


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    if C % heads:
        raise ValueError("dim should be divisible by num_heads")
    head_dim = C // heads
    scale = head_dim ** -1
    qkv = np.stack([x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]])
    qkv = qkv.reshape(3, N, heads, head_dim).transpose(0, 2, 1, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]
    attn = (q * scale) @ k.transpose(0, 2, 1)
    if causal:
        attn = np.where(np.tril(np.ones((N, N), dtype=bool)), attn, -np.inf)
    attn = softmax(attn, axis=-1)
    x = (attn @ v).transpose(1, 0, 2).reshape(N, C)
    return x @ p["Wo"] + p["bo"]
