"""Blind round 13 (b13_01, issue 38): a StackOverflow "avoid overflow" softmax and a cs231n-style
two-loop patchify.

Mistakes:
1. softmax: clips x to [-50, 50] before np.exp instead of subtracting the max along `axis`
   (inputs near 1000 all become 50: uniform weights).
2. patchify: loops `range(0, H - P, P)` / `range(0, W - P, P)`: the last row and column of
   patches are never cut.

Grader: softmax only observed ("Your `softmax` returns the same value, 0.3333, in every
position, where the expected values vary", misconception `constant`); patchify only the
checklist on the worked example and the grayscale check, no hint at all on the RGB raster-order
and hidden random checks. Both named since (error_model: the shift written as a clip, the grid
one short).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:clip:softmax:x-clipped=50',
          'patchify': 'op:grid_short:patchify:grid-rows-cols-one-short'}


def softmax(x, axis=-1):
    """exp(x) normalised along axis; clip the logits so np.exp never overflows."""
    x = np.asarray(x, dtype=float)
    e = np.exp(np.clip(x, -50.0, 50.0))   # exp(50) ~ 5e21: far from float64 overflow
    return e / np.sum(e, axis=axis, keepdims=True)


def patchify(image, P):
    """Cut the image into P x P patches, raster order, each flattened (p1, p2, c)."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)  # raises ValueError when the patches do not tile
    cols = []
    for i in range(0, H - P, P):
        for j in range(0, W - P, P):
            cols.append(image[i:i + P, j:j + P, :].reshape(-1))
    return np.array(cols).reshape(-1, P * P * C)
