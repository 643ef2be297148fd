"""Blind round 83 (b83_10, issue 38): num_patches and patchify ported from
hachoj/ImportantProjects `VISION/DiNO/config.py`.

Mistakes:
1. num_patches (line 8 of the file as delivered): `(H // P) * (W // P)` with no tiling test:
   a size P does not tile is floored silently instead of raising ValueError (num_tokens
   inherits it).
2. patchify (lines 30-31): the pixels that do not fit are cropped (`img[:gh * P, :gw * P]`)
   instead of raising ValueError. Both are right on tiling inputs.

Grader: at blind time (2774dae9) and now, 106/110. Mistake 1 named on patch-count ("Your count
is the floored one ... raise ValueError instead of rounding."); mistake 2 named on patchify
("You cropped the pixels that do not fit ... raise ValueError"). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count', 'patchify': 'patchify_floor_crop'}


def num_patches(H, W, P):
    return (H // P) * (W // P)


def patchify(image, P):
    img = np.asarray(image)
    if img.ndim == 2:
        img = img[:, :, np.newaxis]
    if img.ndim != 3:
        raise ValueError("bad image")
    H, W, C = img.shape
    gh, gw = H // P, W // P
    img = img[:gh * P, :gw * P]
    img = img.reshape(gh, P, gw, P, C)
    img = img.transpose(0, 2, 1, 3, 4)
    return img.reshape(gh * gw, P * P * C)
