"""A correct submission (blind round 22, b22_15, issue 38) in an unusual style: a Kaggle
notebook's "ViT from scratch in numpy" (explicit loops over the patch grid, list
comprehensions, counts as plain ints) with MegEngine's functional naming (F.softmax,
F.layer_norm idioms): one head at a time, head outputs concatenated with np.hstack, a -inf
filled upper triangle for the causal mask, GELU's tanh approximation (which the course accepts).

tests/test_catalogue.py requires full marks.

Blind round 22 (b22_15, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (109/109) and now.
"""
import math

import numpy as np


def num_patches(H, W, P):
    if not P > 0 or H % P != 0 or W % P != 0:
        raise ValueError("patches must tile the image")
    rows = H // P
    cols = W // P
    return int(rows * cols)


def num_tokens(H, W, P, cls_token=True):
    n = num_patches(H, W, P)
    if cls_token:
        n += 1
    return n


def patch_dim(P, C=3):
    return int(P) * int(P) * int(C)


def attention_scores(num_tokens):
    return int(num_tokens) * int(num_tokens)


def patchify(image, P):
    img = np.array(image, copy=True)
    if img.ndim == 2:
        img = img[:, :, None]
    if img.ndim != 3:
        raise ValueError("not an image")
    H, W, C = img.shape
    num_patches(H, W, P)
    patches = []
    for r in range(0, H, P):
        for c in range(0, W, P):
            patches.append(img[r:r + P, c:c + P, :].flatten())
    return np.array(patches)


def linear_patch_embed(image, W_e, b_e, P):
    return np.dot(patchify(image, P), W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    img = np.array(image, copy=True)
    if img.ndim == 2:
        img = img[:, :, None]
    if img.ndim != 3:
        raise ValueError("not an image")
    H, W, C = img.shape
    k = K.shape[0]
    d = K.shape[3]
    if k > H or k > W:
        raise ValueError("kernel does not fit")
    out_h = (H - k) // stride + 1
    out_w = (W - k) // stride + 1
    out = np.zeros((out_h, out_w, d))
    for i in range(out_h):
        for j in range(out_w):
            window = img[i * stride:i * stride + k, j * stride:j * stride + k, :]
            for o in range(d):
                out[i, j, o] = np.sum(window * K[:, :, :, o]) + b[o]
    return out


def conv_equivalent(P):
    return (int(P), int(P))


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    seq = np.vstack([params["cls"], tokens])
    return seq + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x)
    x_max = np.max(x, axis=axis, keepdims=True)
    ex = np.exp(x - x_max)
    return ex / np.sum(ex, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x)
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return gamma * ((x - mean) / np.sqrt(var + eps)) + beta


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("d must be divisible by heads")
    dh = d // heads
    Q = np.dot(x, p["Wq"]) + p["bq"]
    K = np.dot(x, p["Wk"]) + p["bk"]
    V = np.dot(x, p["Wv"]) + p["bv"]
    outs = []
    for h in range(heads):
        cols = slice(h * dh, (h + 1) * dh)
        s = np.dot(Q[:, cols], K[:, cols].T) / np.sqrt(dh)
        if causal:
            s = s.copy()
            s[np.triu_indices(T, k=1)] = -np.inf
        a = softmax(s, axis=-1)
        outs.append(np.dot(a, V[:, cols]))
    return np.dot(np.hstack(outs), p["Wo"]) + p["bo"]


def gelu(x):
    x = np.asarray(x, dtype=float)
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def encoder_block(x, p, heads):
    a = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + a
    m = gelu(np.dot(layer_norm(x, p["ln2_g"], p["ln2_b"]), p["W1"]) + p["b1"])
    m = np.dot(m, p["W2"]) + p["b2"]
    return x + m


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    cls = x[0]
    return np.dot(cls, params["W_head"]) + params["b_head"]


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
