"""patchify is a bare reshape."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_bare_reshape'}


def patchify(image, P):
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)  # raises ValueError when the patches do not tile
    return image.reshape(-1, P * P * C)
