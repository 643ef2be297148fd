"""Blind round 4 (b4_11, issue 38), a port of code written for square images, with two mistakes
that show only on non-square images: num_patches returns (H // P) ** 2 (and never reads W, so
it does not raise when only W fails to tile); patchify reshapes the grid as
image.reshape(W // P, P, H // P, P, C), H and W the other way round.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'patchify': 'op:sizes:patchify:H-and-W-sizes-swapped'}


def num_patches(H, W, P):
    """Number of patches of a square image, (image_size // patch_size) ** 2."""
    if H % P != 0 or P <= 0:
        raise ValueError("Image dimensions must be divisible by the patch size.")
    return (H // P) ** 2


def patchify(image, P):
    """Cut the image into P x P patches, flattened (p1, p2, c), raster order."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    if W % P:
        raise ValueError("Image dimensions must be divisible by the patch size.")
    patches = image.reshape(W // P, P, H // P, P, C)
    patches = patches.swapaxes(1, 2)
    return patches.reshape(-1, P * P * C)
