"""A correct submission (blind round 17, b17_15, issue 38) in an unusual style: a numpy-only "ViT
from scratch" blog post / MindSpore-like functional port: explicit patch loops, one loop per
attention head with the output projection applied to the head's row block of Wo (summed, not
concatenated), a boolean-mask causal softmax, a two-pass layer norm, and the tanh GELU
approximation (accepted by the lab).

tests/test_catalogue.py requires full marks.

Blind round 17 (b17_15, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (109/109) and now.
"""
import math

import numpy as np


def num_patches(H, W, P):
    if not (P > 0 and H % P == 0 and W % P == 0):
        raise ValueError("patches must tile the image")
    rows = H // P
    cols = W // P
    return rows * cols


def num_tokens(H, W, P, cls_token=True):
    total = num_patches(H, W, P)
    if cls_token:
        total = total + 1
    return total


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def patchify(image, P):
    img = np.array(image, dtype=float)
    if img.ndim == 2:
        img = img.reshape(img.shape[0], img.shape[1], 1)
    if img.ndim != 3:
        raise ValueError("not an image")
    H, W, C = img.shape
    n = num_patches(H, W, P)
    out = []
    for r in range(0, H, P):
        for c in range(0, W, P):
            out.append(img[r:r + P, c:c + P, :].flatten())
    return np.array(out).reshape(n, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    patches = patchify(image, P)
    return np.matmul(patches, W_e) + b_e[np.newaxis, :]


def conv_patch_embed(image, K, b, stride):
    img = np.array(image, dtype=float)
    if img.ndim == 2:
        img = img[:, :, np.newaxis]
    H, W, C = img.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel bigger than image")
    Ho = (H - k) // stride + 1
    Wo = (W - k) // stride + 1
    out = np.zeros((Ho, Wo, K.shape[-1]))
    # shift-and-add: one kernel tap at a time
    for a in range(k):
        for c in range(k):
            tap = img[a:a + stride * (Ho - 1) + 1:stride, c:c + stride * (Wo - 1) + 1:stride, :]
            out = out + np.tensordot(tap, K[a, c], axes=([2], [0]))
    return out + b


def conv_equivalent(P):
    return (int(P), int(P))


def embed_image(image, params):
    patch_tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    seq = np.empty((patch_tokens.shape[0] + 1, patch_tokens.shape[1]))
    seq[0] = params["cls"]
    seq[1:] = patch_tokens
    return seq + params["pos"]


def softmax(x, axis=-1):
    x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)
    x = x - x.max(axis=-1, keepdims=True)
    e = np.exp(x)
    e = e / e.sum(axis=-1, keepdims=True)
    return np.moveaxis(e, -1, axis)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    mean = x.sum(axis=-1, keepdims=True) / d
    centred = x - mean
    var = (centred * centred).sum(axis=-1, keepdims=True) / d
    return centred / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("heads must divide the width")
    dh = d // heads
    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]
    out = np.zeros((T, d)) + p["bo"]
    for h in range(heads):
        cols = slice(h * dh, (h + 1) * dh)
        s = Q[:, cols] @ K[:, cols].T / np.sqrt(dh)
        if causal:
            allowed = np.arange(T)[:, None] >= np.arange(T)[None, :]
            s = np.where(allowed, s, -np.inf)
        a = softmax(s, axis=1)
        out += (a @ V[:, cols]) @ p["Wo"][cols, :]
    return out


def gelu(x):
    x = np.asarray(x, dtype=float)
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def encoder_block(x, p, heads):
    a = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + a
    m = layer_norm(x, p["ln2_g"], p["ln2_b"])
    m = gelu(m @ p["W1"] + p["b1"])
    m = m @ p["W2"] + p["b2"]
    return x + m


def vit_forward(image, params):
    h = embed_image(image, params)
    for blk in params["blocks"]:
        h = encoder_block(h, blk, params["heads"])
    h = layer_norm(h, params["ln_g"], params["ln_b"])
    return h[0] @ params["W_head"] + params["b_head"]


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
