"""Blind round 2 (issue 38), a port with its own mistakes: num_patches counts overlapping stride-1
windows, (H-P+1)(W-P+1), and raises nothing when P does not divide; patch_dim forgets the
channels and returns P*P.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'overlapping_windows_count', 'flatten-length': 'channels_forgotten'}


def num_patches(H, W, P):
    return (H - P + 1) * (W - P + 1)


def patch_dim(P, C=3):
    return P * P
