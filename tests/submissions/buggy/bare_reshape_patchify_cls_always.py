"""Lab 4 submission.

Mistakes (2):
- patchify cuts the image with a plain image.reshape(N, P*P*C): consecutive pixels of the
  raster order, i.e. strips of rows, not P x P squares (no transpose of the grid axes).
- num_tokens always adds the [CLS] row, even with cls_token=False.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'cls_always', 'patchify': 'patchify_bare_reshape'}


def num_tokens(H, W, P, cls_token=True):
    """N patches + 1 for [CLS]."""
    n = num_patches(H, W, P)
    return n + 1


def patchify(image, P):
    """Flatten the image into N rows of P*P*C numbers."""
    image = _as_hwc(image)
    H, W, C = image.shape
    n = num_patches(H, W, P)
    return image.reshape(n, P * P * C)
