"""Blind round 83 (b83_02, issue 38): ported from AmmarKheder/TopoFlow
`topoflow/utils/pos_embed.py` (the whole file as delivered); correct: written the way its
sin-cos position grids are built, a shared `_grid` helper with the tiling test, patchify as an
einsum `hpwqc->hwpqc`, the convolution's windows gathered by index grids from `np.meshgrid`
(w first) and contracted with einsum, attention heads by einsum. It raises ValueError where the
solution does, and its counts are Python ints.

tests/test_catalogue.py requires full marks.

Grader: at blind time (2774dae9) and now, 110/110.
"""
# ViT lab: patch grid helpers written the way I build sin-cos position grids (meshgrid over (h, w), w goes first, einsum for outer products).
import math

import numpy as np


def _grid(H, W, P):
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile {H}x{W}")
    return H // P, W // P


def num_patches(H, W, P):
    h, w = _grid(H, W, P)
    return h * w


def num_tokens(H, W, P, cls_token=True):
    n = num_patches(H, W, P)
    if cls_token:
        n = n + 1
    return n


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens ** 2


def _hwc(image):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[..., None]
    if image.ndim != 3:
        raise ValueError("expected a 2-D or 3-D image")
    return image


def patchify(image, P):
    image = _hwc(image)
    H, W, C = image.shape
    h, w = _grid(H, W, P)
    # [h, p, w, p, c] -> [h, w, p, p, c]
    x = np.einsum("hpwqc->hwpqc", image.reshape(h, P, w, P, C))
    return x.reshape(h * w, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    return np.einsum("nk,kd->nd", patchify(image, P), W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    image = _hwc(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel exceeds image")
    out_h = (H - k) // stride + 1
    out_w = (W - k) // stride + 1
    # index grids: here w goes first, like np.meshgrid(grid_w, grid_h)
    grid_w, grid_h = np.meshgrid(np.arange(out_w) * stride, np.arange(out_h) * stride)
    rows = grid_h[:, :, None, None] + np.arange(k)[None, None, :, None]
    cols = grid_w[:, :, None, None] + np.arange(k)[None, None, None, :]
    windows = image[rows, cols]                    # [out_h, out_w, k, k, C]
    return np.einsum("hwijc,ijcd->hwd", windows, K) + b


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = np.concatenate([params["cls"].reshape(1, -1), x], axis=0)
    return x + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    dh = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, dh)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, dh)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, dh)
    s = np.einsum("thd,shd->hts", q, k) / math.sqrt(dh)
    if causal:
        s = np.where(np.tri(T, dtype=bool)[None], s, -np.inf)
    a = softmax(s, axis=-1)
    o = np.einsum("hts,shd->thd", a, v).reshape(T, d)
    return o @ p["Wo"] + p["bo"]


def gelu(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
