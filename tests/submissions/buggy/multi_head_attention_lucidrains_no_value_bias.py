"""lucidrains' vit-pytorch Attention ported to numpy: its to_qkv has bias=False, so the port
forgets the value bias bv (q and k keep theirs)."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': "op:term:self_attention/linear.3:drop-b"}


def self_attention(x, p, heads, causal=False):
    n, dim = x.shape
    if dim % heads:
        raise ValueError("heads must divide dim")
    dim_head = dim // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"]

    def rearrange(t):  # 'n (h d) -> h n d'
        return t.reshape(n, heads, dim_head).transpose(1, 0, 2)

    q, k, v = map(rearrange, (q, k, v))
    dots = q @ k.transpose(0, 2, 1) * dim_head ** -0.5
    if causal:
        dots = np.where(np.tril(np.ones((n, n), dtype=bool)), dots, -np.inf)
    attn = softmax(dots, axis=-1)
    out = (attn @ v).transpose(1, 0, 2).reshape(n, dim)  # 'h n d -> n (h d)'
    return out @ p["Wo"] + p["bo"]
