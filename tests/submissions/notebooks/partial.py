"""A half-done submission: some answers right, some wrong, a demo line that fails.

tests/test_notebooks.py cuts it into notebook cells (one per top-level statement) and checks
that the notebook and this module get the same score on every check.
"""
import numpy as np

print("counting:", num_patches(224, 224, 16))  # a demo line before the definition: NameError


def num_patches(H, W, P):
    return (H - P + 1) * (W - P + 1)  # overlapping windows: the classic mistake


def num_tokens(H, W, P, cls_token=True):
    if H % P or W % P:
        raise ValueError("patches do not tile")
    return (H // P) * (W // P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    return P * P * C


def patchify(image, P):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    H, W, C = image.shape
    if H % P or W % P:
        raise ValueError("patches do not tile")
    return image.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4).reshape(-1, P * P * C)


def softmax(x, axis=-1):
    e = np.exp(x)  # no max subtracted: overflows near 1000
    return e / e.sum(axis=axis, keepdims=True)


ANSWERS = {"positions": "permutation", "medical": "scratch", "causal_mask": None}
