"""patchify numbers the patches down the columns first."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_grid_transposed'}


def patchify(image, P):
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)  # raises ValueError when the patches do not tile
    grid = image.reshape(H // P, P, W // P, P, C).transpose(2, 0, 1, 3, 4)
    return grid.reshape(-1, P * P * C)
