"""patchify that centres the image in zeros up to a multiple of P, the odd row or column put
before (`top = math.ceil(extra / 2)`), instead of refusing a size P does not tile. Written for
session 32 to show tiling.padded's places on another style than b66_14's.

Grader: patchify's non-tiling checks name it: the image zero-padded evenly on both sides, the odd
row or column at the top or left, told apart from the other places by the probe sizes.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:padded:patchify:image-padded-evenly-first-to-tile'}


def patchify(image, P):
    import math

    image = _as_hwc(image)
    H, W, C = image.shape
    extra_h, extra_w = (P - H % P) % P, (P - W % P) % P
    top, left = math.ceil(extra_h / 2), math.ceil(extra_w / 2)
    image = np.pad(image, ((top, extra_h - top), (left, extra_w - left), (0, 0)))
    n_h, n_w = image.shape[0] // P, image.shape[1] // P
    patches = image.reshape(n_h, P, n_w, P, C).swapaxes(1, 2)
    return patches.reshape(n_h * n_w, P * P * C)
