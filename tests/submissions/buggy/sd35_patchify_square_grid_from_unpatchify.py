"""Blind round 62 (b62_11, issue 38): patchify ported from Stability-AI/sd3.5 `mmditx.py` (the
inverse of MMDiTX.unpatchify, with its square grid `h = w = int(x.shape[1] ** 0.5)`).

Mistakes:
17. patchify (line 37 of the file as delivered): the grid taken from unpatchify's square
    assumption, `h = w = int((H * W // (p * p)) ** 0.5)`. Wrong only when H != W (ValueError for
    8 x 12 with P = 4; silently the wrong order for 4 x 16 with P = 2); linear_patch_embed,
    embed_image and vit_forward inherit it.

Grader: at blind time (90d6c97e) and now, 104/110. Mistake 17 only observed: patchify's RGB,
grayscale and random checks each get only_square_images ("Your `patchify` is right when H == W,
wrong for a 4 x 6 image: use H and W each where they belong"; 6 x 9 for the grayscale one, "a
non-square image" for the hidden one): true, but it names neither the line nor the cause, and the
traceback points at line 38 (`x.reshape(h, p, w, p, c)`), not at line 37. A hint would say that in
`patchify` the patch grid is taken as square, `h = w = int(sqrt(H * W // P**2))` (unpatchify's
assumption): use `h, w = H // P, W // P`. Being mended: not every mistake named, so in unnamed/;
EXPECT holds what must hold today: the points lost, no wrong cause.
Named since, in the same session (error_model/square_grid.py, "the patch grid is taken as
square (at your line `h = w = ...`)"): moved from unnamed/ to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:grid_square:patchify:grid-taken-as-square'}


def patchify(image, P):
    """The inverse of MMDiTX.unpatchify: (H, W, C) -> (T, p * p * c)."""
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    c = x.shape[2]
    p = P
    num_patches(x.shape[0], x.shape[1], p)
    h = w = int((x.shape[0] * x.shape[1] // (p * p)) ** 0.5)
    x = x.reshape(h, p, w, p, c)
    x = np.einsum("hpwqc->hwpqc", x)
    return x.reshape(h * w, p * p * c)
