"""timm's Attention ported with the batch axis dropped but torch's `attn.softmax(dim=-1)` written
as axis=1 on the (heads, T, T) scores: each key's column is normalised over the queries."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_softmax_wrong_axis',
          'no-causal-mask': 'op:axis:self_attention/attention:softmax.axis=-2'}


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    if C % heads:
        raise ValueError("dim should be divisible by num_heads")
    head_dim = C // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(N, heads, head_dim).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(N, heads, head_dim).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(N, heads, head_dim).transpose(1, 0, 2)
    attn = (q * head_dim ** -0.5) @ k.transpose(0, 2, 1)
    if causal:
        attn = np.where(np.tril(np.ones((N, N), dtype=bool)), attn, -np.inf)
    attn = softmax(attn, axis=1)
    x = (attn @ v).transpose(1, 0, 2).reshape(N, C)
    return x @ p["Wo"] + p["bo"]
