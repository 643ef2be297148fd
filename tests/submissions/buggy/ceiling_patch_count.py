"""num_patches rounds up (math.ceil) instead of raising ValueError."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'ceiling_count'}


def num_patches(H, W, P):
    if P <= 0:
        raise ValueError("patch size must be positive")
    return math.ceil(H / P) * math.ceil(W / P)
