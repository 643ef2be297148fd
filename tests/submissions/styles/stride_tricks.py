"""A correct submission built on numpy's stride tricks (as_strided, sliding_window_view).

Patches are strided views of the image, the convolution a strided window view; the
attention loops over heads with np.split/np.hstack. Must get full marks.
"""
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided, sliding_window_view


def num_patches(H, W, P):
    if H % P or W % P:
        raise ValueError("P must divide H and W")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def _hwc(image):
    image = np.ascontiguousarray(image)
    if image.ndim == 2:
        return image.reshape(*image.shape, 1)
    if image.ndim != 3:
        raise ValueError("not an image")
    return image


def patchify(image, P):
    image = _hwc(image)
    H, W, C = image.shape
    rows, cols = H // P, W // P
    if rows * P != H or cols * P != W:
        raise ValueError("patches do not tile")
    sh, sw, sc = image.strides
    view = as_strided(image, shape=(rows, cols, P, P, C), strides=(P * sh, P * sw, sh, sw, sc))
    return view.reshape(rows * cols, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P).dot(W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    image = _hwc(image)
    k = K.shape[0]
    if k > image.shape[0] or k > image.shape[1]:
        raise ValueError("kernel too large")
    windows = sliding_window_view(image, (k, k, image.shape[2]))[::stride, ::stride, 0]  # (H', W', k, k, C)
    Hp, Wp = windows.shape[:2]
    return windows.reshape(Hp, Wp, -1) @ K.reshape(-1, K.shape[-1]) + b


def conv_equivalent(P):
    kernel_size = stride = P
    return kernel_size, stride


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    return np.concatenate([params["cls"].reshape(1, -1), tokens]) + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    shifted = x - np.amax(x, axis=axis, keepdims=True)
    log_norm = np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))
    return np.exp(shifted - log_norm)


def layer_norm(x, gamma, beta, eps=1e-6):
    mu = np.mean(x, axis=-1, keepdims=True)
    sigma2 = np.mean((x - mu) ** 2, axis=-1, keepdims=True)
    return gamma * (x - mu) / np.sqrt(sigma2 + eps) + beta


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide the width")
    q, k, v = (x @ p[W] + p[b] for W, b in (("Wq", "bq"), ("Wk", "bk"), ("Wv", "bv")))
    mask = np.tril(np.ones((T, T), dtype=bool)) if causal else np.ones((T, T), dtype=bool)
    outputs = []
    for qh, kh, vh in zip(np.split(q, heads, axis=1), np.split(k, heads, axis=1), np.split(v, heads, axis=1)):
        scores = np.where(mask, qh @ kh.T / np.sqrt(qh.shape[1]), -np.inf)
        outputs.append(softmax(scores) @ vh)
    return np.hstack(outputs) @ p["Wo"] + p["bo"]


def _erf(z):
    return np.frompyfunc(math.erf, 1, 1)(z).astype(float)


def encoder_block(x, p, heads):
    h = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    u = layer_norm(h, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]
    return h + (u * 0.5 * (1.0 + _erf(u / np.sqrt(2.0)))) @ p["W2"] + p["b2"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    return layer_norm(x, params["ln_g"], params["ln_b"])[0] @ params["W_head"] + params["b_head"]


ANSWERS = dict(positions="permutation", medical="pretrained", causal_mask="bidirectional")
