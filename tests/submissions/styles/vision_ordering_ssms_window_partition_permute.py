"""Blind round 83 (b83_05, issue 38): ported from vaijsc/vision_ordering_ssms
`mambavision/models/test.py` (the whole file as delivered); correct: patchify through a
channels-first `window_partition` whose `transpose(1, 3, 2, 4, 0)` (the source's
`permute(0, 2, 4, 3, 5, 1)`) puts each window's values back in (p1, p2, c) order, the
convolution as im2col rows times the flattened kernel, heads split by a nested `heads_first`.
It raises ValueError where the solution does, and its counts are Python ints.

tests/test_catalogue.py requires full marks.

Grader: at blind time (2774dae9) and now, 110/110.
"""
# ViT lab 4 -- numpy. Patch cutting follows my window_partition test: view(B, C, H//ws, ws, W//ws, ws).permute(0, 2, 4, 3, 5, 1) -> local windows (ws*ws, C).
import math
import numpy as np


def num_patches(H, W, P):
    if P < 1 or H % P != 0 or W % P != 0:
        raise ValueError(f"H={H}, W={W} not divisible by window size {P}")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    N = num_patches(H, W, P)
    return N + 1 if cls_token else N


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens ** 2


def window_partition(x, window_size):
    """
    Args:
        x: (C, H, W)
        window_size: window size
    Returns:
        local window features (num_windows, window_size*window_size*C)
    """
    C, H, W = x.shape
    x = x.reshape(C, H // window_size, window_size, W // window_size, window_size)
    windows = x.transpose(1, 3, 2, 4, 0).reshape(-1, window_size * window_size * C)
    return windows


def patchify(image, P):
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[None]
    elif x.ndim == 3:
        x = x.transpose(2, 0, 1)
    else:
        raise ValueError("image must be (H, W) or (H, W, C)")
    num_patches(x.shape[1], x.shape[2], P)
    return window_partition(x, P)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel bigger than image")
    Ho = (H - k) // stride + 1
    Wo = (W - k) // stride + 1
    cols = np.stack([x[i * stride:i * stride + k, j * stride:j * stride + k, :].reshape(-1)
                     for i in range(Ho) for j in range(Wo)])
    return (cols @ K.reshape(k * k * C, -1) + b).reshape(Ho, Wo, -1)


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    tok = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    tok = np.concatenate([params["cls"][None, :], tok], axis=0)
    return tok + params["pos"]


def softmax(x, axis=-1):
    z = x - np.max(x, axis=axis, keepdims=True)
    ez = np.exp(z)
    return ez / ez.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("d must be divisible by heads")
    dh = d // heads

    def heads_first(t):
        return t.reshape(T, heads, dh).transpose(1, 0, 2)

    q = heads_first(x @ p["Wq"] + p["bq"])
    k = heads_first(x @ p["Wk"] + p["bk"])
    v = heads_first(x @ p["Wv"] + p["bv"])
    s = q @ k.transpose(0, 2, 1) * dh ** -0.5
    if causal:
        s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    o = softmax(s, axis=-1) @ v
    return o.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]


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
