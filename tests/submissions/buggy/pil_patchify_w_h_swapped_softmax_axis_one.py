"""Blind round 3 (b3_06, issue 38), a port with two mistakes: patchify unpacks `w, h =
image.shape[:2]` (PIL's (width, height) order) and so reshapes the grid as (W//P, P, H//P, P, C):
right for square images, scrambled patches otherwise (named: two sizes of a reshape swapped);
softmax, cs231n style, maps axis=-1 to axis=1 ("rows of a score matrix"): right for 1-D and 2-D
input, wrong for 3-D and higher input with the default axis (it normalises along axis 1).
Both are named (softmax: the last axis taken as axis 1, as code for 2-D arrays does).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sizes:patchify:H-and-W-sizes-swapped',
          'stable-softmax': 'op:axis_2d:softmax:last-axis-as-1'}


def patchify(image, P):
    """Cut the image into P x P patches, raster order, each flattened as (p1, p2, c)."""
    image = _as_hwc(image)
    w, h = image.shape[:2]
    C = image.shape[2]
    num_patches(h, w, P)
    grid = image.reshape(h // P, P, w // P, P, C)
    return np.stack([grid[i, :, j].reshape(-1) for i in range(h // P) for j in range(w // P)])


def softmax(x, axis=-1):
    """cs231n-style softmax for score matrices (N, C)."""
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        e = np.exp(x - x.max())
        return e / e.sum()
    if axis == -1:
        axis = 1
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
