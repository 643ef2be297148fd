"""Blind round 67 (b67_15, issue 38): num_patches and patch_dim
ported from ZTRoboHuman/Robotics
`ImageProcessing/ObjectDetection/knowledge_snips/patchEmbeding.md`: patch_dim right.

Mistakes:
21. num_patches (line 18 of the file as delivered): the note's H/P x W/P read literally,
    `return H / P * W / P`: a float (196.0). Wrong on any input.
22. num_patches (line 16): only `P <= 0` rejected: sizes that do not tile return a fraction
    instead of raising ValueError. Wrong on non-tiling sizes.

Grader: at blind time (d3fd340b) and now, 103/110, both named on patch-count's five checks
(mistake 21: "In `num_patches`, the count is a float (at your line that makes it one): a count is
an integer"; at blind time "HW/P**2 with `/` gives 196.0", a formula the code does not have,
mended since; mistake 22: "When P does not divide H or W, raise ValueError rather than returning
HW/P**2"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area'}
CORRECT = ('patch_dim',)


def num_patches(H, W, P):
    """The total number of patches would be H/P x W/P."""
    if P <= 0:
        raise ValueError("patch size must be positive")
    return H / P * W / P


def patch_dim(P, C=3):
    """A patch of size P x P x C is reshaped into a vector of size P^2 x C."""
    return P ** 2 * C
