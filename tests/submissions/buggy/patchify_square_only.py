"""patchify written for square images: the patch grid is H // P both ways."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sibling:patchify:W-as-H'}


def patchify(image, P):
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    n = H // P                                      # patches per side
    grid = image.reshape(n, P, n, P, C).transpose(0, 2, 1, 3, 4)
    return grid.reshape(n * n, P * P * C)
