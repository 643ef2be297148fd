"""num_tokens adds [CLS] even when cls_token is false."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'cls_always'}


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + 1
