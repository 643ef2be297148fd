"""Blind round 2 (issue 38), a port with its own mistakes: patchify reshapes the image straight to
(N, P*P*C) without moving the patch-grid axes together (rows of a patch get mixed across
patches); self_attention always applies the causal (lower-triangular) mask, ignoring the causal
flag.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_bare_reshape', 'multi-head-attention': 'attention_causal', 'no-causal-mask': 'gpt_causal_mask', 'why-positions': 'attention_not_equivariant'}


def patchify(image, P):
    """b (h p1) (w p2) c -> b (h w) (p1 p2 c), ported from an einops Rearrange."""
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    H, W, C = image.shape
    num_patches(H, W, P)
    h, w = H // P, W // P
    return image.reshape(h * w, P * P * C)


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    hd = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, hd).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, hd).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, hd).transpose(1, 0, 2)
    att = np.einsum("hqd,hkd->hqk", q, k) * hd ** -0.5
    mask = np.tril(np.ones((T, T)))
    att = np.where(mask == 0, -1e9, att)
    att = softmax(att, axis=-1)
    out = np.einsum("hqk,hkd->hqd", att, v)
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
