"""Lab 4 submission (the lecture's 'overlapping CNN windows' confusion).

Mistakes (2):
- num_patches counts every P x P sliding window, (H - P + 1) * (W - P + 1), and never raises
  ValueError when P does not tile.
- conv_equivalent answers kernel P with stride 1 (overlapping windows) instead of stride P.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'overlapping_windows_count', 'kernel-stride': 'conv_equivalent_stride_one'}


def num_patches(H, W, P):
    """Number of P x P windows in an H x W image."""
    return (H - P + 1) * (W - P + 1)


def conv_equivalent(P):
    return (P, 1)
