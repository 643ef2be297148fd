"""num_tokens rounds up instead of raising ValueError (its own count, not num_patches)."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'tokens_ceiling'}


def num_tokens(H, W, P, cls_token=True):
    n = -(-H // P) * -(-W // P)
    return n + 1 if cls_token else n
