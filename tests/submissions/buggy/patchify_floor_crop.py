"""patchify crops the pixels that do not tile instead of raising ValueError."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_floor_crop'}


def patchify(image, P):
    image = _as_hwc(image)
    H, W, C = image.shape
    H, W = H // P * P, W // P * P
    image = image[:H, :W]
    grid = image.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4)
    return grid.reshape(-1, P * P * C)
