"""patchify flattens each patch channel first, (c, p1, p2)."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first'}


def patchify(image, P):
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)  # raises ValueError when the patches do not tile
    grid = image.reshape(H // P, P, W // P, P, C).transpose(0, 2, 4, 1, 3)
    return grid.reshape(-1, P * P * C)
