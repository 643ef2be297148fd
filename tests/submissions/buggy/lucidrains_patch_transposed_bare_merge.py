"""Blind round 4 (b4_02, issue 38), lucidrains' vit-pytorch with the einops rearranges written as
numpy, with two mistakes: patchify's port of '(h p1) (w p2) c -> (h w) (p1 p2 c)' transposes to
(h, w, p2, p1, c), so inside each patch the flatten order is column, row, channel (every P > 1);
self_attention merges the heads with a bare reshape of the (heads, T, d_h) output to (T, d)
('h n d -> n (h d)' without its transpose), which mixes tokens with several heads only.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_patch_transposed',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',)  # the permutation property's verdict on the merge


def patchify(image, P):
    """rearrange(img, '(h p1) (w p2) c -> (h w) (p1 p2 c)', p1=P, p2=P)."""
    img = np.asarray(image)
    if img.ndim == 2:
        img = img[..., None]
    if img.ndim != 3:
        raise ValueError(f"expected (H, W) or (H, W, C), got {img.shape}")
    H, W, C = img.shape
    if H % P or W % P:
        raise ValueError("Image dimensions must be divisible by the patch size.")
    h, w = H // P, W // P
    t = img.reshape(h, P, w, P, C)          # h p1 w p2 c
    t = t.transpose(0, 2, 3, 1, 4)          # h w p1 p2 c
    return t.reshape(h * w, P * P * C)


def self_attention(x, p, heads, causal=False):
    """Attention as in vit_pytorch.Attention, for one (n, dim) sequence."""
    n, dim = x.shape
    if dim % heads != 0:
        raise ValueError("dim must be divisible by heads")
    dim_head = dim // heads
    scale = dim_head ** -0.5

    def to_heads(t):                          # 'n (h d) -> h n d'
        return t.reshape(n, heads, dim_head).transpose(1, 0, 2)

    q = to_heads(x @ p["Wq"] + p["bq"])
    k = to_heads(x @ p["Wk"] + p["bk"])
    v = to_heads(x @ p["Wv"] + p["bv"])
    dots = np.matmul(q, k.transpose(0, 2, 1)) * scale
    if causal:
        dots = dots + np.triu(np.full((n, n), -np.inf), 1)
    attn = softmax(dots, axis=-1)
    out = np.matmul(attn, v)                  # h n d
    out = out.reshape(n, dim)                 # 'h n d -> n (h d)'
    return out @ p["Wo"] + p["bo"]
