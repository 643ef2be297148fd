"""Blind round 7 (b7_09, issue 38): patchify on a sqrt(N) x sqrt(N) grid (as positional-embedding
resampling code assumes), and num_patches that checks only H.

Mistakes:
1. patchify: the grid side is int(sqrt(N)) (timm resample_abs_pos_embed / MAE's square sincos
   grid), image.reshape(side, P, side, P, C). Right for square images; a non-square image raises
   (N not a square) or is cut into the wrong tiles (N a square, e.g. 4x16 with P=2).
2. num_patches: only H is checked against P (`if H % P`), so a W that P does not tile returns
   (H//P)*(W//P) instead of raising ValueError. Shows only for non-square sizes where H tiles
   and W does not.

Grader: patchify named on the grayscale check ("`W // P` reads `H` where `W` belongs"; the code
has no H // P, both sides are int(sqrt(N)), but the cause is the same) and observed elsewhere
(only_square_images). num_patches gets only the checklist "Patches that do not tile the image
must raise ValueError" on a hidden case.
Since session 14 num_patches' height-only test is observed (refuses_height_only), not named: still
in unnamed/.
Since session 16 (tiling): num_patches' height-only test is named (tiling.tiling's
`height-only`), and patchify's sibling is named on the grayscale check as above: every mistake
named, so in buggy/.
Since round 62 (error_model/square_grid.py, blind round 62's b62_11): patchify named on every failed
check as what it is, the grid taken as square (the root rounded: `round(sqrt(n))` gives a 3 x 3 grid
for the 4 x 8 image's 8 patches, where a floored root's reshape raises another message), with the
student's line that takes the root.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:height-only',
          'patchify': 'op:grid_square:patchify:grid-taken-as-square-rounded'}


def num_patches(H, W, P):
    if P <= 0 or H % P:
        raise ValueError(f"patch size {P} does not tile height {H}")
    return (H // P) * (W // P)


def patchify(image, P):
    img = _as_hwc(image)
    H, W, C = img.shape
    n = num_patches(H, W, P)
    side = int(round(math.sqrt(n)))                  # grid is side x side
    tiles = img.reshape(side, P, side, P, C).swapaxes(1, 2)
    return tiles.reshape(n, P * P * C)
