"""Blind round 36 (b36_11, issue 38): num_patches ported from the Ruby (torch.rb) SigLIP2 vision
encoder of the `fine` gem (Fine::Models::SigLIP2VisionEncoder and its PatchEmbedding:
`@num_patches = (image_size / patch_size) ** 2`, where Ruby's `/` on two Integers floors).

Mistakes:
1. num_patches returns a float: Python's `/` gives 196.0 for (224, 224, 16) (num_tokens 197.0).
2. num_patches raises no ValueError when P does not tile: (30, 40, 8) returns 18.75.

Grader: at blind time (9ebbf4a) and now, both named ("The number is right but it is a float ...
use `//`" and "HW/P**2 is only a patch count when P divides both sides ... raise ValueError").
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area'}


def num_patches(H, W, P):
    """@num_patches = (image_size / patch_size) ** 2, one factor per side of the image."""
    patches_per_col = H / P
    patches_per_row = W / P
    return patches_per_col * patches_per_row
