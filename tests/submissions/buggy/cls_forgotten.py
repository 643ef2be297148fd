"""num_tokens forgets [CLS]."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'cls_forgotten'}


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P)
