"""patchify flattens each patch column by column, (p2, p1, c)."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_patch_transposed'}


def patchify(image, P):
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)  # raises ValueError when the patches do not tile
    grid = image.reshape(H // P, P, W // P, P, C).transpose(0, 2, 3, 1, 4)
    return grid.reshape(-1, P * P * C)
