"""Blind round 83 (b83_14, issue 38): patchify and layer_norm ported from
SiddhantSKarki/Vision-Transformer `csrc/vit.c` (llm.c-style loops).

Mistakes:
1. patchify (lines 35-36 of the file as delivered): the outer loop runs over the patch columns
   (`px`) and the inner over the rows (`py`), so the patches come in column-major order
   instead of raster order; the order inside a patch is right. Wrong whenever the grid has
   more than one row and more than one column, square ones included (linear_patch_embed,
   embed_image and vit_forward inherit it).
2. layer_norm (line 92): default eps 1e-5 (llm.c's) instead of 1e-6: wrong on small-variance
   rows with the default; an explicit eps is right. Its tanh GELU is accepted.

Grader: at blind time (2774dae9) and now, 92/110. Mistake 1 named on patchify ("Your patches are
numbered down the columns first. The course numbers them in raster order"); mistake 2 named on
layer-norm ("eps is 1e-05; the student API's is 1e-06."); the small-example check of layer-norm
gets an observation only ("returns the expected values except in 1 of 4 rows (row 3)"), true of
this eps. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_grid_transposed', 'layer-norm': 'op:constant:layer_norm:eps=1e-05'}


def patchify(image, P):
    img = np.asarray(image, dtype=float)
    if img.ndim == 2:
        img = img[:, :, None]
    if img.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    H, W, C = img.shape
    N = num_patches(H, W, P)
    out = np.zeros((N, P * P * C))
    n = 0
    for px in range(W // P):
        for py in range(H // P):
            idx = 0
            for i in range(P):
                for j in range(P):
                    for c in range(C):
                        out[n, idx] = img[py * P + i, px * P + j, c]
                        idx += 1
            n += 1
    return out


def layer_norm(x, gamma, beta, eps=1e-5):
    x = np.asarray(x, dtype=float)
    C = x.shape[-1]
    m = x.sum(axis=-1, keepdims=True) / C               # calculate the mean
    v = ((x - m) ** 2).sum(axis=-1, keepdims=True) / C  # calculate the variance (without any bias correction)
    s = 1.0 / np.sqrt(v + eps)                          # calculate the rstd
    return (x - m) * s * gamma + beta
