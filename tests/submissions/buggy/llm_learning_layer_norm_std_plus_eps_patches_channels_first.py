"""Blind round 78 (b78_05, issue 38): layer_norm and patchify ported from zhjunqin/LLM-Learning
`tutorial/apis/normalization.md` (the torch docs' std form) and a channels-first patch cut.

Mistakes:
1. layer_norm (line 82 of the file as delivered): `(x - mean) / (x.std() + eps)`, eps outside
   the square root: almost invisible at eps=1e-6 on unit-variance rows, clear with a caller's
   eps (eps=1.0) and on low-variance rows.
2. patchify (lines 36-39): each patch flattened channels first, (c, p1, p2), instead of
   (p1, p2, c): right for one channel only; carried into linear_patch_embed, embed_image and
   vit_forward (conv_patch_embed is right on its own).

Grader: at blind time (ddfccf96) and now, 97/110. Mistake 1 named on layer-norm ("eps goes
inside the square root: (x - mean) / sqrt(var + eps), not / (std + eps)."), mistake 2 on
patchify ("You flattened each patch channel first, (c, p1, p2). ... inside a patch the order is
row, column, channel, (p1, p2, c)"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first', 'layer-norm': 'layer_norm_eps_outside'}


def patchify(image, P):
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[..., None]
    if x.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    H, W, C = x.shape
    if H % P or W % P:
        raise ValueError("image size must be divisible by patch size")
    # (H, W, C) -> (C, H, W), then cut each channel plane into patches
    x = x.transpose(2, 0, 1)
    x = x.reshape(C, H // P, P, W // P, P)
    x = x.transpose(1, 3, 0, 2, 4)          # (h, w, c, p1, p2)
    return x.reshape((H // P) * (W // P), C * P * P)


def layer_norm(x, gamma, beta, eps=1e-6):
    x_mean = x.mean(-1, keepdims=True)
    x_std = x.std(-1, keepdims=True)   # biased, ddof=0
    return (x - x_mean) / (x_std + eps) * gamma + beta
