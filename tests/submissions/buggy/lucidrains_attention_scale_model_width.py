"""Lab 4 submission, attention ported from lucidrains' vit-pytorch (einops-style rearranges).

Mistake (1): self_attention scales the scores by dim ** -0.5 (the model width d) instead of
dim_head ** -0.5 (d // heads). Identical with one head; wrong with several heads.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_scale_d'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d), ported from vit-pytorch's Attention."""
    n, dim = x.shape
    if dim % heads:
        raise ValueError(f"width {dim} is not divisible by {heads} heads")
    dim_head = dim // heads
    scale = dim ** -0.5

    # to_qkv(x).chunk(3, dim=-1)
    qkv = [x @ p[f"W{c}"] + p[f"b{c}"] for c in "qkv"]
    # rearrange(t, 'n (h d) -> h n d', h=heads)
    q, k, v = (t.reshape(n, heads, dim_head).transpose(1, 0, 2) for t in qkv)

    dots = np.einsum("hid,hjd->hij", q, k) * scale
    if causal:
        mask = np.triu(np.ones((n, n), dtype=bool), k=1)
        dots = np.where(mask, -np.finfo(dots.dtype).max, dots)
    attn = softmax(dots, axis=-1)
    out = np.einsum("hij,hjd->hid", attn, v)
    # rearrange(out, 'h n d -> n (h d)')
    out = out.transpose(1, 0, 2).reshape(n, heads * dim_head)
    return out @ p["Wo"] + p["bo"]
