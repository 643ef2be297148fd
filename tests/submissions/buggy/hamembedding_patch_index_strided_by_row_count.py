"""Blind round 70 (b70_07, issue 38): patchify ported from peiyong-addwater/HamEmbedding
`tiny-handwritten-digits/contrastive_learning/with_pennylane_torch_v2/utils.py` (the
`cut8x8to4x4PatchesNoPos` loop, `patches[:, 2*i+j] = img[4*i:4*i+4, 4*j:4*j+4].flatten()`,
generalised).

Mistakes:
1. patchify (line 38 of the file as delivered): row index `n_rows * i + j`, the source's 2
   generalised to the count of patch rows instead of patch columns. Right for square grids; on
   others patches overwrite each other (8x12, P=4) or an IndexError is raised (12x8, P=4).

Grader: at blind time (3f040026) and now, 104/110, named on patchify ("filled row by row at the
flat index `i * (H // P) + j` ... where `i * (W // P) + j` belongs"). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:flat_index:patchify:rows-strided-by-row-count'}


def patchify(image, P):
    img = np.asarray(image, dtype=float)
    if img.ndim == 2:
        img = img[:, :, None]
    if img.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    H, W, C = img.shape
    n = num_patches(H, W, P)
    n_rows, n_cols = H // P, W // P
    patches = np.zeros((n, P * P * C))
    for i in range(n_rows):
        for j in range(n_cols):
            patches[n_rows * i + j, :] = img[P * i:P * i + P, P * j:P * j + P, :].flatten()
    return patches
