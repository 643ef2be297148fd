"""Blind round 75 (b75_09, issue 38): ported from jolideco/jolideco
`jolideco/utils/numpy.py` (`view_as_overlapping_patches`: view_as_windows + reshape, numpy-doc
docstrings), on numpy's `sliding_window_view` with the step the patch size (the stride in the
convolution); correct: patches as strided views, one helper for patchify and the convolution.

tests/test_catalogue.py requires full marks.

No mistakes (the key checked counts as ints, ValueErrors for non-tiling, a 4-D image, k > H/W
with k = H + 1, heads not dividing d; non-square, 1/2/3-channel and 2-D images; heads 1-4,
causal on and off; batched softmax/layer_norm; softmax near 1000; conv == linear with
K = W_e.reshape(P, P, C, d)).

Grader: at blind time (db1f63a6) and now, 110/110.
"""
import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


__all__ = [
    "num_patches", "num_tokens", "patch_dim", "attention_scores",
    "patchify", "linear_patch_embed", "conv_patch_embed", "conv_equivalent",
    "embed_image", "softmax", "layer_norm", "self_attention",
    "encoder_block", "vit_forward", "ANSWERS",
]


def num_patches(H, W, P):
    """Number of non-overlapping patches

    Parameters
    ----------
    H, W : int
        Image shape.
    P : int
        Patch size.

    Returns
    -------
    n_patches : int
    """
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError(f"Patch size {P} does not tile image of shape ({H}, {W})")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens ** 2


def _as_image(image):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, np.newaxis]
    if image.ndim != 3:
        raise ValueError(f"Expected an image of shape (H, W) or (H, W, C), got {image.shape}")
    return image


def view_as_patches(image, shape, stride=None):
    """View as patches

    Parameters
    ----------
    image : `~numpy.ndarray`
        Image tensor (H, W, C)
    shape : tuple of int
        Shape of the patches.
    stride : int
        Stride of the patches. By default it is the patch size.

    Returns
    -------
    patches : `~numpy.ndarray`
        Array of patches of shape
        (n_patches_y, n_patches_x, patch_shape_y, patch_shape_x, C)
    """
    if stride is None:
        stride = shape[0]

    windows = sliding_window_view(image, shape, axis=(0, 1))[::stride, ::stride]
    # (n_y, n_x, C, p_y, p_x) -> (n_y, n_x, p_y, p_x, C)
    return windows.transpose(0, 1, 3, 4, 2)


def patchify(image, P):
    image = _as_image(image)
    H, W, C = image.shape
    n_patches = num_patches(H, W, P)
    patches = view_as_patches(image, (P, P))
    ncols = P * P * C
    return patches.reshape(n_patches, ncols)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    image = _as_image(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"Kernel of size {k} does not fit image of shape ({H}, {W})")
    patches = view_as_patches(image, (k, k), stride=stride)
    return np.tensordot(patches, K, axes=3) + b


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    tokens = np.concatenate([params["cls"][np.newaxis, :], tokens], axis=0)
    return tokens + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    exp_x = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return exp_x / np.sum(exp_x, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    n_tokens, d = x.shape
    if d % heads != 0:
        raise ValueError(f"Width {d} is not divisible by {heads} heads")
    d_h = d // heads

    def split(y):
        return y.reshape(n_tokens, heads, d_h).transpose(1, 0, 2)

    q = split(x @ p["Wq"] + p["bq"])
    k = split(x @ p["Wk"] + p["bk"])
    v = split(x @ p["Wv"] + p["bv"])

    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_h)
    if causal:
        future = np.triu(np.ones((n_tokens, n_tokens), dtype=bool), k=1)
        scores = np.where(future, -np.inf, scores)
    weights = softmax(scores, axis=-1)
    out = (weights @ v).transpose(1, 0, 2).reshape(n_tokens, d)
    return out @ p["Wo"] + p["bo"]


def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf (the tanh approximation is accepted too)."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
