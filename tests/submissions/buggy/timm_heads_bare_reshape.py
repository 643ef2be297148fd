"""timm-style attention whose heads come from a bare reshape (no permute of the token axis)."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {
    'multi-head-attention': 'attention_heads_bare_reshape',
    'no-causal-mask': 'attention_heads_bare_reshape',
    'why-positions': 'attention_not_equivariant',
}


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    if C % heads:
        raise ValueError("dim should be divisible by num_heads")
    head_dim = C // heads
    scale = head_dim ** -0.5
    q = (x @ p["Wq"] + p["bq"]).reshape(heads, N, head_dim)
    k = (x @ p["Wk"] + p["bk"]).reshape(heads, N, head_dim)
    v = (x @ p["Wv"] + p["bv"]).reshape(heads, N, head_dim)
    attn = q @ k.swapaxes(-2, -1) * scale
    if causal:
        attn = attn + np.triu(np.full((N, N), -np.inf), k=1)
    attn = softmax(attn, axis=-1)
    return (attn @ v).reshape(N, C) @ p["Wo"] + p["bo"]
