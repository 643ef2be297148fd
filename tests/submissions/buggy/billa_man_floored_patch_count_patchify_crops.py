"""Blind round 76 (b76_14, issue 38): num_patches and patchify ported from
Billa-Man/model-implementations-from-scratch `vit.py`.

Mistakes:
1. num_patches (line 18 of the file as delivered): `(H//P)*(W//P)`, floored with no ValueError
   (the source's `n_patches`); num_tokens inherits it. Wrong on sizes P does not tile (7x4 with
   P=2 gives 6).
2. patchify (line 48): the image cropped to its tiled part instead of ValueError (5x4x3, P=2
   gives 4 patches). Tiling inputs are right.
The delivered file's top-level helper `_image` is nested in patchify here.

Grader: at blind time (fe8b70f1) and now, 106/110. Mistake 1 named on patch-count ("Your count is
the floored one, (H // P) * (W // P) ... raise ValueError"), mistake 2 on patchify ("You cropped
the pixels that do not fit ... raise ValueError"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count',
          'patchify': 'patchify_floor_crop'}


def num_patches(H, W, P):
    return (H // P) * (W // P)


def patchify(image, P):
    def _image(image):
        x = np.asarray(image, dtype=float)
        if x.ndim == 2:
            x = x[:, :, None]
        if x.ndim != 3:
            raise ValueError("expected an (H, W) or (H, W, C) image")
        return x

    x = _image(image)
    H, W, C = x.shape
    gh, gw = H // P, W // P
    x = x[:gh * P, :gw * P]
    x = x.reshape(gh, P, gw, P, C).transpose(0, 2, 1, 3, 4)
    return x.reshape(gh * gw, P * P * C)
