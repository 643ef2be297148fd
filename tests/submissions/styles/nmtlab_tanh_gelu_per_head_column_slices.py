# -*- coding: utf-8 -*-
"""Blind round 78 (b78_07, issue 38): a CORRECT port in an unusual style (must get full marks):
ported from zomux/nmtlab `nmtlab/functions/gelu.py`, with the source's tanh-approximate GELU
(accepted by the API) and attention written as a per-head loop over column slices; the delivered
file's coding line and `from __future__` imports are kept.

tests/test_catalogue.py requires full marks.

No mistakes (the key checked square and non-square images, conv with k=P/s=P, k=3/s=1 and
k=3/s=2, softmax on 1-D, 2-D and 3-D input and near +-1000, layer_norm on 3-D input and
low-variance rows, 1/2/4 heads with and without causal, the ValueErrors and int counts;
encoder_block and vit_forward match at 1e-3, the tanh GELU's distance).

Grader: at blind time (ddfccf96) and now, 110/110.
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import math

import numpy as np


def num_patches(H, W, P):
    """Non-overlapping P x P patches; they must tile the image."""
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError("patch size {} does not tile {}x{}".format(P, H, W))
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def _image3d(image):
    image = np.asarray(image)
    if image.ndim == 2:
        return image[:, :, None]
    if image.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    return image


def patchify(image, P):
    image = _image3d(image)
    H, W, C = image.shape
    n_h, n_w = H // P, W // P
    num_patches(H, W, P)
    grid = image.reshape(n_h, P, n_w, P, C)
    grid = np.transpose(grid, (0, 2, 1, 3, 4))
    return grid.reshape(n_h * n_w, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    return np.dot(patchify(image, P), W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    image = _image3d(image).astype(float)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel {} larger than {}x{}".format(k, H, W))
    out_h = (H - k) // stride + 1
    out_w = (W - k) // stride + 1
    kernel = K.reshape(k * k * C, -1)
    out = np.empty((out_h, out_w, kernel.shape[1]))
    for i in range(out_h):
        r = i * stride
        for j in range(out_w):
            c = j * stride
            out[i, j] = np.dot(image[r:r + k, c:c + k, :].reshape(-1), kernel) + b
    return out


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    seq = np.concatenate([params["cls"].reshape(1, -1), patches], axis=0)
    return seq + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    shifted = x - np.max(x, axis=axis, keepdims=True)
    ex = np.exp(shifted)
    return ex / np.sum(ex, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean(np.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("{} heads do not divide width {}".format(heads, d))
    d_h = d // heads
    q = np.dot(x, p["Wq"]) + p["bq"]
    k = np.dot(x, p["Wk"]) + p["bk"]
    v = np.dot(x, p["Wv"]) + p["bv"]
    out = np.empty((T, d))
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        scores = np.dot(q[:, cols], k[:, cols].T) / math.sqrt(d_h)
        if causal:
            scores = np.where(np.tri(T, dtype=bool), scores, -np.inf)
        out[:, cols] = np.dot(softmax(scores, axis=-1), v[:, cols])
    return np.dot(out, p["Wo"]) + p["bo"]


def gelu(x):
    """
    Hendrycks, D., & Gimpel, K. (2016) Bridging Nonlinearities and Stochastic Regularizers with Gaussian Error Linear Units.
    """
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * np.power(x, 3))))


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + np.dot(gelu(np.dot(h, p["W1"]) + p["b1"]), p["W2"]) + p["b2"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return np.dot(x[0], params["W_head"]) + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
