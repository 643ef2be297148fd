"""Blind round 11 (b11_11, issue 38): counting ported from timm PatchEmbed and a "pairs" reading.

Sources: timm PatchEmbed (grid_size = (img_size[0] // patch_size[0], img_size[1] //
patch_size[1]); num_patches = grid_size[0] * grid_size[1]) with a hand-written tiling check;
the lecture's "every token against every token" read as "every other token".
Mistakes:
 1. num_patches raises only when NEITHER side tiles (`and` instead of `or`): e.g. 4x6 with
    P=4 returns 1 instead of raising (only sizes where exactly one side does not tile).
 2. attention_scores counts ordered pairs of DIFFERENT tokens, T*(T-1), instead of T**2
    (every input).

Grader: T*(T-1) is named; the `and` check is observed WRONGLY as "refuses sizes whose width P
does not tile, not those whose height alone it does not: test H % P too" (it refuses only when
neither side tiles, and it does test H % P); the hidden check gets the generic checklist.
Since session 14 the `and` is observed (refuses_both_sides_only: "refuses only sizes neither of
whose sides P tiles"): an observation, not a named mistake, so still in unnamed/.
Since session 16 (tiling): the `and` is named (tiling.tiling's `both-sides`): every mistake named,
so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:both-sides',
          'attention-cost': 'op:triangle:attention_scores:T-squared-minus-one'}


def num_patches(H, W, P):
    """timm PatchEmbed: grid_size = (H // P, W // P)."""
    if H % P != 0 and W % P != 0:
        raise ValueError(f"image size ({H}, {W}) is not divisible by patch size {P}")
    grid_size = (H // P, W // P)
    return grid_size[0] * grid_size[1]


def attention_scores(num_tokens):
    """Every token attends to every other token."""
    return num_tokens * (num_tokens - 1)
