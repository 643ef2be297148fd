"""Blind round 73 (b73_13, issue 38): a CORRECT port in an unusual style (must get full marks): ported
from Raghavsharma10/Transformer_scratch `core/layer_norm.py` (and `core/self_attention.py`);
correct: Python loops over rows and pixels (patchify's five nested loops, the convolution's
window loops, layer_norm row by row), [CLS] and the tokens joined as a list, and attention
computed one head at a time by its own scaled_dot_product_attention.

tests/test_catalogue.py requires full marks.

No mistakes (the key checked non-square RGB and 2-D images, k != stride, heads 1/2/4, causal on
and off, batched inputs, softmax axis=0, inputs near 1000, the ValueErrors, int counts and a
224 x 224 patchify against the solution).

Grader: at blind time (6245b55a) and now, 110/110.
"""
# Vision Transformer (Lab 4)
#
# Input:
# - image: (H, W, C) array, channels last
#
# Logic:
# - patches = patchify(image, P)            (N, P*P*C)
# - tokens  = patches @ W_e + b_e           (N, d)
# - [CLS] prepended, positions added        (N+1, d)
# - pre-LN encoder blocks, final LayerNorm, [CLS] row -> head

import math

import numpy as np


def num_patches(H, W, P):
    if H % P != 0 or W % P != 0:
        raise ValueError("P must divide H and W")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    n = num_patches(H, W, P)
    if cls_token:
        n = n + 1
    return n


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def patchify(image, P):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError("image must be 2-D or 3-D")
    H, W, C = image.shape
    N = num_patches(H, W, P)
    out = np.zeros((N, P * P * C), dtype=image.dtype)
    n = 0
    for gi in range(H // P):
        for gj in range(W // P):
            row = []
            for r in range(P):
                for c in range(P):
                    for ch in range(C):
                        row.append(image[gi * P + r, gj * P + c, ch])
            out[n] = row
            n += 1
    return out


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    image = np.asarray(image, dtype=float)
    if image.ndim == 2:
        image = image[:, :, None]
    H, W, C = image.shape
    k = K.shape[0]
    d = K.shape[3]
    if k > H or k > W:
        raise ValueError("kernel larger than image")
    H_out = (H - k) // stride + 1
    W_out = (W - k) // stride + 1
    out = np.zeros((H_out, W_out, d))
    for i in range(H_out):
        for j in range(W_out):
            acc = np.array(b, dtype=float)
            for r in range(k):
                for c in range(k):
                    acc = acc + image[i * stride + r, j * stride + c, :] @ K[r, c]
            out[i, j] = acc
    return out


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    X = [params["cls"]] + [t for t in tokens]
    X = np.array(X, dtype=float)
    return X + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    m = np.max(x, axis=axis, keepdims=True)
    exps = np.exp(x - m)
    return exps / np.sum(exps, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    flat = x.reshape(-1, d)
    out = np.empty_like(flat)
    for i, row in enumerate(flat):
        mean = sum(row) / d
        var = sum((xi - mean) ** 2 for xi in row) / d
        std = (var + eps) ** 0.5
        out[i] = gamma * ((row - mean) / std) + beta
    return out.reshape(x.shape)


def scaled_dot_product_attention(Q, K, V, causal=False):
    T, d_k = Q.shape
    scores = Q @ K.T / math.sqrt(d_k)
    if causal:
        for i in range(T):
            for j in range(i + 1, T):
                scores[i, j] = -np.inf
    return softmax(scores, axis=-1) @ V


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("d must be divisible by heads")
    d_h = d // heads
    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]
    out = np.zeros((T, d))
    for h in range(heads):
        lo, hi = h * d_h, (h + 1) * d_h
        out[:, lo:hi] = scaled_dot_product_attention(Q[:, lo:hi], K[:, lo:hi], V[:, lo:hi], causal)
    return out @ p["Wo"] + p["bo"]


def gelu(x):
    x = np.asarray(x, dtype=float)
    flat = x.reshape(-1)
    out = np.array([0.5 * v * (1.0 + math.erf(v / math.sqrt(2.0))) for v in flat])
    return out.reshape(x.shape)


def feed_forward(x, p):
    return gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + feed_forward(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
    return x


def vit_forward(image, params):
    X = embed_image(image, params)
    for block in params["blocks"]:
        X = encoder_block(X, block, params["heads"])
    X = layer_norm(X, params["ln_g"], params["ln_b"])
    return X[0] @ params["W_head"] + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
