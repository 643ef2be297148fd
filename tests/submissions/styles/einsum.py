"""A correct submission written with np.einsum and reshapes, vectorised everywhere.

Counts are numpy integers and conv_equivalent returns a list: both are accepted.
"""
import numpy as np
from math import erf, sqrt


def num_patches(H, W, P):
    rows, rest_h = divmod(H, P)
    cols, rest_w = divmod(W, P)
    if rest_h or rest_w:
        raise ValueError(f"{P} does not tile {H}x{W}")
    return np.int64(rows * cols)


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + int(bool(cls_token))


def patch_dim(P, C=3):
    return np.prod([P, P, C])


def attention_scores(num_tokens):
    return np.int64(num_tokens) ** 2


def patchify(image, P):
    image = np.asarray(image)
    if image.ndim not in (2, 3):
        raise ValueError("expected (H, W) or (H, W, C)")
    if image.ndim == 2:
        image = image[..., None]
    H, W, C = image.shape
    if H % P or W % P:
        raise ValueError("patches do not tile")
    grid = image.reshape(H // P, P, W // P, P, C)
    return np.einsum("aibjc->abijc", grid).reshape(-1, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    return np.einsum("nk,kd->nd", patchify(image, P), W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    image = np.asarray(image)
    image = image[..., None] if image.ndim == 2 else image
    k = K.shape[0]
    H, W, _ = image.shape
    if k > min(H, W):
        raise ValueError("kernel does not fit")
    rows = np.arange(0, H - k + 1, stride)
    cols = np.arange(0, W - k + 1, stride)
    ii = rows[:, None, None, None] + np.arange(k)[None, None, :, None]
    jj = cols[None, :, None, None] + np.arange(k)[None, None, None, :]
    windows = image[ii, jj]                     # (H', W', k, k, C)
    return np.einsum("xyijc,ijcd->xyd", windows, K) + b


def conv_equivalent(P):
    return [P, P]


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    return np.vstack([params["cls"], tokens]) + params["pos"]


def softmax(x, axis=-1):
    z = x - x.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    centred = x - np.einsum("...d->...", x)[..., None] / x.shape[-1]
    var = np.einsum("...d,...d->...", centred, centred)[..., None] / x.shape[-1]
    return centred / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("d % heads != 0")
    d_h = d // heads
    q, k, v = [(x @ p["W" + n] + p["b" + n]).reshape(T, heads, d_h) for n in "qkv"]
    scores = np.einsum("thd,shd->hts", q, k) / np.sqrt(d_h)
    if causal:
        scores = scores + np.triu(np.full((T, T), -np.inf), k=1)
    out = np.einsum("hts,shd->thd", softmax(scores), v).reshape(T, d)
    return out @ p["Wo"] + p["bo"]


_erf = np.vectorize(erf)


def gelu(x):
    return 0.5 * x * (1 + _erf(x / sqrt(2)))


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + np.einsum("tm,md->td", gelu(np.einsum("td,dm->tm", h, p["W1"]) + p["b1"]), p["W2"]) + p["b2"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    return np.einsum("d,dk->k", layer_norm(x, params["ln_g"], params["ln_b"])[0], params["W_head"]) + params["b_head"]


ANSWERS = {"positions": " Permutation", "medical": "PRETRAINED", "causal_mask": "bidirectional "}
