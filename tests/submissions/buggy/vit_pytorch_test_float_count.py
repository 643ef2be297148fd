"""Blind round 81 (b81_14, issue 38): num_patches ported from
diegobonilla98/Vision-Transformers-Pytorch-Implementation `test.py`.

Mistakes:
1. num_patches (line 12 of the file as delivered): `(H / P) * (W / P)`, true division, a float
   (196.0); num_tokens returns 197.0. The values are right, the type wrong; the ValueError on
   sizes that do not tile is kept.

Grader: at blind time (b5c841e9) and now, 105/110. Mistake 1 named on patch-count ("the number is right but it is a
float (at your line `N = (H / P) * (W / P)`) ... `//`"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area'}


def num_patches(H, W, P):
    if H % P != 0 or W % P != 0:
        raise ValueError("P must divide H and W")
    N = (H / P) * (W / P)
    return N
