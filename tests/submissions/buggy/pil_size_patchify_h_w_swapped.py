"""Blind round 9 (b9_15, issue 38): a submission by someone used to PIL (img.size is (width,
height)) and Hugging Face image processors.

Mistake:
1. patchify: the grid is reshaped as (W//P, P, H//P, P, C), height and width swapped.
   Identical on square images; on non-square images the reshape still succeeds but cuts
   the pixels into wrong patches.
   Sources: lightly-ai/lightly-train PR #189 ("TODO: Fix swapped h and w"); huggingface/
   diffusers issue #11309 (H/W reshape order only wrong when H != W); huggingface/
   transformers PR #35969 "Fixed VitDet for non-square images".

Grader: named: op:sizes ("the model solution's `image.reshape(H // P, P, W // P, P, C)` is given
its `H // P` and `W // P` the other way round").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sizes:patchify:H-and-W-sizes-swapped'}


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C)."""
    pixel_values = _as_hwc(image)
    height, width, num_channels = pixel_values.shape
    num_patches(height, width, P)
    grid = pixel_values.reshape(width // P, P, height // P, P, num_channels)
    return grid.transpose(0, 2, 1, 3, 4).reshape(-1, P * P * num_channels)
