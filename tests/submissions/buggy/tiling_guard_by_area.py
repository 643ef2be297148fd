"""Blind round 13 (b13_10, issue 38): num_patches raises only when (H * W) % (P * P) != 0. Right for
every square image; a non-square size that does not tile but whose area does (8 x 2, P = 4)
returns a count instead of raising.

Grader: named, as an observation, on the hidden non-tiling check ("Your `num_patches` refuses
sizes whose area P * P does not divide, not all whose sides P does not tile (8 x 2 with P = 4
has area 16): test H % P and W % P, each side", refuses_by_area). That states the mistake
exactly, but as an observation (hint_kind observation, not mistake), so the buggy/ test, which
wants a mistake hint, fails on it: filed here with refuses_by_area expected.
Since session 16 (tiling): the area test is named (tiling.tiling's `area`): every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:area'}


def num_patches(H, W, P):
    """Number of P x P patches in an H x W image."""
    if P <= 0 or (H * W) % (P * P) != 0:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return (H // P) * (W // P)
