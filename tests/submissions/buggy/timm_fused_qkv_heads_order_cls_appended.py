"""Blind round 3 (b3_01, issue 38), a port with two mistakes: self_attention as timm's Attention
(Wq, Wk, Wv concatenated into one fused qkv projection) reshapes the (T, 3d) output as
(T, heads, 3, d_h) instead of timm's (T, 3, heads, d_h), so with several heads q, k and v read
the wrong columns (right with heads=1: named as the fused split read heads first); embed_image
(DeiT-like) appends [CLS] as the last row instead of prepending it as row 0, then adds the
positions.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_cls_appended',
          'no-causal-mask': 'op:fused:self_attention:qkv-fused-heads-major',
          'multi-head-attention': 'op:fused:self_attention:qkv-fused-heads-major'}


def self_attention(x, p, heads, causal=False):
    """timm-style Attention: fused qkv linear, reshape/permute into heads, scaled dot product."""
    N, C = x.shape
    if C % heads:
        raise ValueError("dim should be divisible by num_heads")
    head_dim = C // heads
    scale = head_dim ** -0.5
    w_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)   # (C, 3C)
    b_qkv = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ w_qkv + b_qkv).reshape(N, heads, 3, head_dim).transpose(2, 1, 0, 3)  # (3, heads, N, hd)
    q, k, v = qkv[0], qkv[1], qkv[2]
    attn = (q * scale) @ k.swapaxes(-2, -1)
    if causal:
        attn = np.where(np.tril(np.ones((N, N), dtype=bool)), attn, -np.inf)
    attn = softmax(attn, axis=-1)
    out = (attn @ v).transpose(1, 0, 2).reshape(N, C)
    return out @ p["Wo"] + p["bo"]


def embed_image(image, params):
    """Patch tokens, the class token, then the position embedding."""
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_token = params["cls"].reshape(1, -1)
    x = np.concatenate([x, cls_token], axis=0)
    return x + params["pos"]
