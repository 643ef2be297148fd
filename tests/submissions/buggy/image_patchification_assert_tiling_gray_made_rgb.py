"""Blind round 66 (b66_01, issue 38): num_patches and patchify ported from
farsab/Image-Patchification `image_patchify.py`.

Mistakes:
1. num_patches (line 19 of the file as delivered; the same assert in patchify, line 72): the
   tiling check is `assert H % P == 0 and W % P == 0`, so a size that does not tile raises
   AssertionError instead of ValueError. Wrong on non-tiling sizes only.
2. patchify (line 66): a 2-D (grayscale) image is made RGB first, as the source's
   `image.convert("RGB")` does (`np.stack([img] * 3)`): rows 3*P*P wide instead of P*P. Wrong on
   2-D images only.

Grader: at blind time (f4776223) and now, 103/110, both named. Mistake 1 on patch-count's and
patchify's non-tiling checks ("Your code refused the input with `assert` (AssertionError), where
ValueError is asked for"); mistake 2 on patchify's worked example and grayscale checks ("In
`patchify`, a 2-D (H, W) `image` is made three equal channels ... `image[..., None]`"). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'refused_with_assert',
          'patchify': 'op:gray_to_rgb:patchify:image-2d-as-rgb'}


def num_patches(H, W, P):
    """Number of non-overlapping P x P patches that tile an H x W image: (H/P)(W/P)."""
    # same check as image_patchify.py
    assert H % P == 0 and W % P == 0, "Image dimensions must be divisible by patch size."
    return (H // P) * (W // P)


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C).

    Port of image_patchify.patchify: the image is first made RGB (like image.convert("RGB")),
    then cut with reshape(h//ph, ph, w//pw, pw, c).transpose(0, 2, 1, 3, 4).
    """
    img = np.asarray(image)
    if img.ndim == 2:                      # grayscale -> RGB, as PIL's convert("RGB") does
        img = np.stack([img, img, img], axis=-1)
    if img.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {img.shape}")
    h, w, c = img.shape
    ph, pw = P, P

    assert h % ph == 0 and w % pw == 0, "Image dimensions must be divisible by patch size."

    patches = img.reshape(h // ph, ph, w // pw, pw, c)
    patches = patches.transpose(0, 2, 1, 3, 4)
    patches = patches.reshape(-1, ph, pw, c)      # (num_patches, patch_height, patch_width, 3)
    return patches.reshape(patches.shape[0], -1)  # flatten each patch (p1, p2, c)
