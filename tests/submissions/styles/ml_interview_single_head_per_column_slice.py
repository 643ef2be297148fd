"""Blind round 71 (b71_07, issue 38): a CORRECT port in an unusual style (must get full marks):
ported from geoz-lab/ML_interview `1_ML_coding/transformer.md`; correct: the interview notes'
single-head SelfAttention (Q = XW^Q, ..., softmax(QK^T / sqrt(d_k)) V) run once per head on
column slices of the weights and concatenated, patches cut by a double loop over the grid, the
convolution by a window loop with `np.tensordot(..., axes=3)`, [CLS] prepended with `np.vstack`.

tests/test_catalogue.py requires full marks.

No mistakes (the key checked every function against the solution, rtol 1e-9: counts as ints,
every ValueError asked for: non-tiling, 4-D images, k > H, d % heads).

Grader: at blind time (3f040026) and now, 110/110.
"""
# Lab 4 - Vision Transformer in NumPy.
#
# Attention is built from the single-head SelfAttention of my interview notes
# (Q = XW^Q, K = XW^K, V = XW^V, softmax(QK^T / sqrt(d_k)) V), run once per head.
import math

import numpy as np


# ---------------------------------------------------------------------------
# Counting
# ---------------------------------------------------------------------------

def num_patches(H, W, P):
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError(f"P={P} must divide H={H} and W={W}")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    n = num_patches(H, W, P)
    if cls_token:
        n += 1
    return n


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    # [seq_len, seq_len] scores for one head
    return num_tokens * num_tokens


# ---------------------------------------------------------------------------
# Patches
# ---------------------------------------------------------------------------

def _image_hwc(image):
    image = np.asarray(image, dtype=float)
    if image.ndim == 2:
        return image[:, :, None]
    if image.ndim == 3:
        return image
    raise ValueError(f"image must be (H, W) or (H, W, C), got {image.shape}")


def patchify(image, P):
    image = _image_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    rows = []
    for r in range(0, H, P):           # top to bottom
        for c in range(0, W, P):       # left to right
            rows.append(image[r:r + P, c:c + P, :].reshape(-1))
    return np.array(rows)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    image = _image_hwc(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} does not fit in a {H}x{W} image")
    H_out = (H - k) // stride + 1
    W_out = (W - k) // stride + 1
    d = K.shape[3]
    out = np.zeros((H_out, W_out, d))
    for i in range(H_out):
        for j in range(W_out):
            window = image[i * stride:i * stride + k, j * stride:j * stride + k, :]
            out[i, j, :] = np.tensordot(window, K, axes=3) + b
    return out


def conv_equivalent(P):
    return (P, P)


# ---------------------------------------------------------------------------
# Sequence
# ---------------------------------------------------------------------------

def embed_image(image, params):
    X = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    X = np.vstack([params["cls"], X])
    return X + params["pos"]


# ---------------------------------------------------------------------------
# Attention
# ---------------------------------------------------------------------------

def softmax(x, axis=-1):
    x = x - np.max(x, axis=axis, keepdims=True)  # stability
    exp_x = np.exp(x)
    return exp_x / np.sum(exp_x, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    mu = np.mean(x, axis=-1, keepdims=True)
    sigma2 = np.mean((x - mu) ** 2, axis=-1, keepdims=True)
    return gamma * (x - mu) / np.sqrt(sigma2 + eps) + beta


def single_head(X, W_q, b_q, W_k, b_k, W_v, b_v, causal=False):
    Q = X @ W_q + b_q  # [seq_len, head_dim]
    K = X @ W_k + b_k
    V = X @ W_v + b_v
    d_k = Q.shape[-1]
    scores = (Q @ K.T) / np.sqrt(d_k)  # [seq_len, seq_len]
    if causal:
        T = scores.shape[0]
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    attn_weights = softmax(scores, axis=-1)  # [seq_len, seq_len]
    return attn_weights @ V  # [seq_len, head_dim]


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError(f"d={d} is not divisible by heads={heads}")
    hd = d // heads
    outs = []
    for h in range(heads):
        cols = slice(h * hd, (h + 1) * hd)
        outs.append(single_head(x,
                                p["Wq"][:, cols], p["bq"][cols],
                                p["Wk"][:, cols], p["bk"][cols],
                                p["Wv"][:, cols], p["bv"][cols],
                                causal=causal))
    return np.concatenate(outs, axis=-1) @ p["Wo"] + p["bo"]


def gelu(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    hidden = gelu(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"])
    return x + hidden @ p["W2"] + p["b2"]


def vit_forward(image, params):
    X = embed_image(image, params)
    for blk in params["blocks"]:
        X = encoder_block(X, blk, params["heads"])
    X = layer_norm(X, params["ln_g"], params["ln_b"])
    return X[0] @ params["W_head"] + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
