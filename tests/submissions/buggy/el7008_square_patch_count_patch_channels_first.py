"""Blind round 67 (b67_01, issue 38): num_patches and patchify ported from
sebatinoco/EL7008 `model/gen_patches.py`.

Mistakes:
1. num_patches (line 18 of the file as delivered): `n_patches = H // P` along one edge (the
   source asserts H == W), `return n_patches ** 2`. Wrong on non-square images.
2. patchify (lines 61 and 65): the torch (C, H, W) habit, `image.transpose(2, 0, 1)` then
   `img[:, rows, cols].flatten()`: each patch flattened (c, p1, p2). Wrong with C > 1 only.

Grader: at blind time (d3fd340b) and now, 97/110, both named. Mistake 1 on patch-count ("In
`num_patches`, `W // P` reads `H` where `W` belongs"); mistake 2 on patchify ("You flattened each
patch channel first, (c, p1, p2)"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'patchify': 'patchify_channel_first'}


def num_patches(H, W, P):
    """Number of non-overlapping P x P patches (section 4 step 1)."""
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    n_patches = H // P  # cantidad de patches en una arista
    return n_patches ** 2


def patchify(image, P):
    """(H, W, C) -> (N, P*P*C), patches in raster order, like gen_patches in EL7008."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)  # raises ValueError when the patches do not tile
    img = image.transpose(2, 0, 1)  # the torch code works on (C, H, W)
    patches = []  # patches de una imagen
    for row in range(H // P):
        for col in range(W // P):
            patches.append(img[:, P * row: P * (row + 1), P * col: P * (col + 1)].flatten())
    return np.stack(patches)
