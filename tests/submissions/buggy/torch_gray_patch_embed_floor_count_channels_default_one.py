"""Blind round 50 (b50_10, issue 38): num_patches and patch_dim ported from a torch
PatchEmbedding with `input_shape=(1, 224, 224)` (`(width // patch) * (height // patch)`,
`Linear(patch_size ** 2, ...)`, the channel count from the source's gray default).

Mistakes:
1. num_patches floors with `//` and never raises: non-tiling sizes return a count (5x4 with P=2
   gives 4), so num_tokens returns too; P = 0 raises ZeroDivisionError instead of ValueError.
2. `patch_dim(P, C=1)`: the default is C = 1, so `patch_dim(16)` is 256 instead of 768. Calls
   with C given are right.

Grader: at blind time (593126bb) and now, M1 named on patch-count: "You returned (H // P) * (W //
P): floor division silently drops the pixels that do not fit. The lecture's patches tile the
image, so when P does not divide H or W raise ValueError instead of rounding." (hidden: "Floor
division silently drops the pixels that do not tile; raise ValueError instead."); M2 named on
flatten-length: "In `patch_dim`, `C` defaults to 1 instead of 3: right whenever `C` is given,
wrong where it is left out.". Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count',
          'flatten-length': 'op:default_changed:patch_dim:C-default-1'}


def num_patches(H, W, P):
    width, height = W, H
    return (width // P) * (height // P)


def patch_dim(P, C=1):
    return P ** 2 * C
