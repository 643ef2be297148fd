"""Blind round 75 (b75_10, issue 38): ported from invi-bhagyesh/simple-things
`ML/02_attention.py` ("Multi-Head Attention - Pure NumPy / Use einsum with suffix notation");
correct: every product written as an einsum, patchify as `ypxqc->yxpqc`, the convolution a
fancy-index window gather.

tests/test_catalogue.py requires full marks.

No mistakes (the key's checks as for b75_09).

Grader: at blind time (db1f63a6) and now, 110/110.
"""
import math
from typing import Dict

import numpy as np


def num_patches(H: int, W: int, P: int) -> int:
    if P <= 0 or H % P or W % P:
        raise ValueError(f"P={P} does not tile a {H}x{W} image")
    return (H // P) * (W // P)


def num_tokens(H: int, W: int, P: int, cls_token: bool = True) -> int:
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P: int, C: int = 3) -> int:
    return P * P * C


def attention_scores(num_tokens: int) -> int:
    return num_tokens ** 2


def _hwc(image: np.ndarray) -> np.ndarray:
    image = np.asarray(image)
    if image.ndim == 2:
        return image[..., None]
    if image.ndim != 3:
        raise ValueError(f"expected (H, W) or (H, W, C), got {image.shape}")
    return image


def patchify(image: np.ndarray, P: int) -> np.ndarray:
    image = _hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    grid = image.reshape(H // P, P, W // P, P, C)
    patches = np.einsum("ypxqc->yxpqc", grid)
    return patches.reshape(-1, P * P * C)


def linear_patch_embed(image: np.ndarray, W_e: np.ndarray, b_e: np.ndarray, P: int) -> np.ndarray:
    return np.einsum("nf,fd->nd", patchify(image, P), W_e) + b_e


def conv_patch_embed(image: np.ndarray, K: np.ndarray, b: np.ndarray, stride: int) -> np.ndarray:
    image = _hwc(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} does not fit a {H}x{W} image")
    Ho = (H - k) // stride + 1
    Wo = (W - k) // stride + 1
    # gather windows: rows[i, p] = i*stride + p, cols[j, q] = j*stride + q
    rows = (np.arange(Ho) * stride)[:, None] + np.arange(k)[None, :]
    cols = (np.arange(Wo) * stride)[:, None] + np.arange(k)[None, :]
    win = image[rows[:, None, :, None], cols[None, :, None, :]]   # (Ho, Wo, k, k, C)
    return np.einsum("yxpqc,pqcd->yxd", win, K) + b


def conv_equivalent(P: int) -> tuple:
    return (P, P)


def embed_image(image: np.ndarray, params: Dict) -> np.ndarray:
    tok = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    seq = np.concatenate([params["cls"][None, :], tok], axis=0)
    return seq + params["pos"]


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    z = np.exp(x - x.max(axis=axis, keepdims=True))
    return z / z.sum(axis=axis, keepdims=True)


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * gamma + beta


def self_attention(x: np.ndarray, p: Dict, heads: int, causal: bool = False) -> np.ndarray:
    T, d = x.shape
    if d % heads:
        raise ValueError(f"d={d} is not divisible by heads={heads}")
    dk = d // heads

    q = (np.einsum("td,de->te", x, p["Wq"]) + p["bq"]).reshape(T, heads, dk)
    k = (np.einsum("td,de->te", x, p["Wk"]) + p["bk"]).reshape(T, heads, dk)
    v = (np.einsum("td,de->te", x, p["Wv"]) + p["bv"]).reshape(T, heads, dk)

    scores = np.einsum("thk,shk->hts", q, k) / math.sqrt(dk)
    if causal:
        allowed = np.tril(np.ones((T, T), dtype=bool))
        scores = np.where(allowed[None], scores, -np.inf)
    attn = softmax(scores, axis=-1)
    ctx = np.einsum("hts,shk->thk", attn, v).reshape(T, d)
    return np.einsum("td,de->te", ctx, p["Wo"]) + p["bo"]


def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf (the tanh approximation is accepted too)."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def encoder_block(x: np.ndarray, p: Dict, heads: int) -> np.ndarray:
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    h = gelu(np.einsum("td,df->tf", h, p["W1"]) + p["b1"])
    return x + np.einsum("tf,fd->td", h, p["W2"]) + p["b2"]


def vit_forward(image: np.ndarray, params: Dict) -> np.ndarray:
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return np.einsum("d,dc->c", x[0], params["W_head"]) + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
