"""Blind round 64 (b64_12, issue 38): num_patches ported from crvogt/functions_test
`single_cnn/SIGGRAPHAsia16_ViewSynthesis_Code_v2.0/Functions/GetNumPatches.m` (stride = patch
size).

Mistakes:
13. num_patches (lines 25-28): MATLAB's `floor` ported as `np.floor` of a true division, so the
    count is a numpy float (196.0). Shows on any input.
14. num_patches (lines 25-26): the sliding-window formula `floor((W-P)/P)+1` floors sizes that do
    not tile instead of raising ValueError. Shows only on sizes that do not tile.

Grader: at blind time (0cd43d22) 103/110; the float named with a false formula ("HW/P**2 with `/`
gives 196.0"), the floor count told only its checklist (its 2.0 is a float, the listed floor
count the int 2). Now both named: the float at the student's two lines that make it one, and the
floor count, with the float said too. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count'}
ALIASES = ('pixels_over_patch_area',)


def num_patches(H, W, P):
    """GetNumPatches: numPatchesX = floor((width-patchSize)/stride)+1, likewise Y; stride = P."""
    height, width, patchSize = H, W, P
    stride = patchSize
    numPatchesX = np.floor((width - patchSize) / stride) + 1
    numPatchesY = np.floor((height - patchSize) / stride) + 1
    numPatches = numPatchesY * numPatchesX
    return numPatches
