"""Blind round 78 (b78_02, issue 38): num_patches ported from science-of-imagination/NengoProject
`dev/split_lena.py` (the patches' shape as numpy's as_strided windows).

Mistakes:
1. num_patches (lines 9-13 of the file as delivered): after the tiling test it counts the
   overlapping stride-1 windows, `(H - P + 1) * (W - P + 1)` (224 / 16 gives 209 * 209 = 43681,
   not 196); num_tokens inherits it. A P that does not tile is still refused.

Grader: at blind time (ddfccf96) and now, 105/110. Mistake 1 named on patch-count ("You counted
overlapping stride-1 windows, as a CNN slides its kernel. ViT patches do not overlap: they tile
the image, so there are (H/P)(W/P) of them."); token-count is graded with the grader's
`num_patches` standing in. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'overlapping_windows_count'}


def num_patches(H, W, P):
    if H % P or W % P:
        raise ValueError("patches do not tile the image")
    X, Y = H, W
    x, y = P, P
    shape = ((X - x + 1), (Y - y + 1), x, y)  # number of patches, patch_shape
    return shape[0] * shape[1]
