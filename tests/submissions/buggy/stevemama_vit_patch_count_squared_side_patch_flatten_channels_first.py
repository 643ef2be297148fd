"""Blind round 72 (b72_03, issue 38): num_patches and patchify ported from
SteveMama/Vision-Transformer `main.py` (patch_embedding's loops over a channels-first image, the
source's `assert h == w`).

Mistakes:
1. num_patches (line 13 of the file as delivered): `n_patches = H // P; return n_patches ** 2`,
   the square count, as if the image were square (8 x 12 with P=4 gives 4, not 6); the tiling
   test is right. Wrong on non-square images only.
2. patchify (lines 36 and 49): the image is moved to (C, H, W) and each patch goes through
   `patch.flatten()`, so the order inside a patch is (c, p1, p2), not (p1, p2, c). Wrong with
   C > 1 only.

Grader: at blind time (2df48139) and now, 97/110. Mistake 1 named on patch-count ("In
`num_patches`, `W // P` reads `H` where `W` belongs: in effect `H // P`, a copy of its sibling
term (right only when H == W)"); mistake 2 named on patchify ("You flattened each patch channel
first, (c, p1, p2). That is the order of torch's Conv2d weights ... (p1, p2, c)"). vit-checkpoint
(an integration check) runs the broken patchify and says so ("fix it there first"). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'patchify': 'patchify_channel_first'}


def num_patches(H, W, P):
    if H % P != 0 or W % P != 0:
        raise ValueError("Input shape should be divisible by n_patches")
    n_patches = H // P  # patches per side
    return n_patches ** 2


def patchify(image, P):
    image = np.asarray(image, dtype=float)
    if image.ndim == 2:
        image = image[None, :, :]              # 1, h, w
    elif image.ndim == 3:
        image = image.transpose(2, 0, 1)       # h, w, c -> c, h, w
    else:
        raise ValueError("image has to be (H, W) or (H, W, C)")
    c, h, w = image.shape
    if h % P != 0 or w % P != 0:
        raise ValueError("Input shape should be divisible by patch size")
    n_rows, n_cols = h // P, w // P

    patches = np.zeros((n_rows * n_cols, h * w * c // (n_rows * n_cols)))
    for i in range(n_rows):
        for j in range(n_cols):
            patch = image[:, i * P: (i + 1) * P, j * P: (j + 1) * P]
            # image 2D patch 0 -------> 4
            patches[i * n_cols + j] = patch.flatten()
    return patches
