"""Blind round 7 (b7_15, issue 38): num_patches that tests tiling on the area, and patch_dim with
an MNIST-style default C=1.

Mistakes:
1. num_patches: counts by area, (H*W) // (P*P), and checks only (H*W) % (P*P): a non-square size
   whose area divides but whose sides do not (e.g. 6x24 with P=4, 8x2 with P=4) returns a count
   instead of raising ValueError. Shows only on such non-square sizes (for square sizes the area
   test is the same as the side test).
2. patch_dim: default C=1 (MNIST-style tutorials, channels=1) instead of C=3. Shows only when C
   is not passed.

Grader: num_patches gets only "Patches that do not tile the image must raise ValueError"
(hidden). patch_dim was first told a WRONG cause, channels_forgotten ("a P x P patch holds P*P*C
numbers", which the code returns); the failed check now weighs the cases the hidden check got
right (C given), which refute it, and names the default instead ("`C` defaults to 1 instead of
3").
Since session 14 the hidden check's observation of what num_patches refuses (refuses_by_area) is
unchanged: an observation, not a named mistake, so still in unnamed/.
Since session 16 (tiling): the area test and the count by area are named together (tiling.tiling's
`area` with tiling.count_by_area: `(H * W) % (P * P)` tested, `H * W // (P * P)` counted): every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:area+op:count_by_area:num_patches:count-by-area',
          'flatten-length': 'op:default_changed:patch_dim:C-default-1'}


def num_patches(H, W, P):
    if P <= 0:
        raise ValueError("P must be positive")
    area, patch_area = H * W, P * P
    if area % patch_area:
        raise ValueError(f"{H}x{W} image cannot be cut into {P}x{P} patches")
    return area // patch_area


def patch_dim(P, C=1):
    return P * P * C
