"""Blind round 40 (b40_02, issue 38): num_patches ported from sokoloowski/cone-detector
hyperparameters.py (a Keras ViT config: num_patches = (image_size // patch_size) ** 2).

Mistakes (both in num_patches):
1. (H // P) ** 2: the width ignored, right for square images only.
2. Floor division and no tiling test: no ValueError when P does not divide H or W.

Grader: at blind time (b589706) and now, named: "`W // P` reads `H` where `W` belongs: `H // P`,
a copy of its sibling term" on the non-square and random checks, and "2 mistakes at once: (1)
... there is no tiling test ... (2) ... `W // P` reads `H`" on the visible and hidden
non-tiling checks. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:none+op:sibling:num_patches:W-as-H'}


def num_patches(H, W, P):
    """Number of non-overlapping P x P patches that tile an H x W image: (H/P)(W/P)."""
    image_size = H
    patch_size = P
    num_patches = (image_size // patch_size) ** 2
    return num_patches
