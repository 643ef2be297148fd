"""lucidrains' Attention ported without einops: the heads are split with a reshape and a
transpose, but `rearrange(out, 'b h n d -> b n (h d)')` becomes a bare reshape, so with several
heads the merged rows mix tokens (one head is right)."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',)


def self_attention(x, p, heads, causal=False):
    n, dim = x.shape
    if dim % heads:
        raise ValueError("heads must divide dim")
    dim_head = dim // heads
    scale = dim_head ** -0.5
    q, k, v = (x @ p[w] + p[b] for w, b in (("Wq", "bq"), ("Wk", "bk"), ("Wv", "bv")))
    q, k, v = (t.reshape(n, heads, dim_head).transpose(1, 0, 2) for t in (q, k, v))
    dots = q @ k.transpose(0, 2, 1) * scale
    if causal:
        dots = np.where(np.tril(np.ones((n, n), dtype=bool)), dots, -np.inf)
    attn = softmax(dots, axis=-1)
    out = attn @ v
    out = out.reshape(n, heads * dim_head)
    return out @ p["Wo"] + p["bo"]
