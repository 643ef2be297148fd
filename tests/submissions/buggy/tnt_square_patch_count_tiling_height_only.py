"""Blind round 22 (b22_13, issue 38): num_patches ported from huawei-noah Efficient-AI-Backbones
(tnt.py's PixelEmbed: `num_patches = (img_size // patch_size) ** 2` for a square image, the
tiling tested on img_size alone).

Mistakes:
1. num_patches returns (H // P) ** 2: right for square images only.
2. num_patches tests tiling on H only: a width that P does not tile returns a count instead of
   raising ValueError.

Grader: at blind time and now (the same commit), the square count named (`W // P` reads `H`
where `W` belongs); the tiling only observed, though exactly ("refuses sizes whose height P does
not tile, not those whose width alone it does not: test W % P too", refuses_height_only, an
observation). token-count does not lose points. Not every mistake named, so in unnamed/.
Since session 16 (tiling): the hidden refusal check names both together (tiling.tiling's `height-
only` paired with the sibling named on the function's other checks: `op:tiling:num_patches:height-
only+op:sibling:num_patches:W-as-H`): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H'}


def num_patches(H, W, P):
    img_size, patch_size = H, P
    if patch_size <= 0 or img_size % patch_size != 0:
        raise ValueError(f"img_size {img_size} should be divisible by patch_size {patch_size}")
    return (img_size // patch_size) ** 2
