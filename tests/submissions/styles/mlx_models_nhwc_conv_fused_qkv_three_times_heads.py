"""Blind round 77 (b77_11, issue 38): a CORRECT port in an unusual style (must get full marks):
ported from gau-nernst/mlx-models `mlx_models/vit.py`, channels-last throughout: the patch
embedding a valid NHWC convolution on `sliding_window_view` windows with an einsum
`ijcab,abcd->ijd`, and attention on one fused qkv projection split into 3 * heads heads,
`reshape(L, 3 * heads, head_dim).swapaxes(0, 1)`.

tests/test_catalogue.py requires full marks.

No mistakes (the key's checks as for b77_02).

Grader: at blind time (15b4065f) and now, 110/110.
"""
import math

import numpy as np


def num_patches(H, W, P):
    if P <= 0 or H % P or W % P:
        raise ValueError(f"{P} does not tile {H}x{W}")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    num_prefix_tokens = 1 if cls_token else 0
    return num_patches(H, W, P) + num_prefix_tokens


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens ** 2


def _nhwc(image):
    x = np.asarray(image, dtype=float)
    if x.ndim == 2:
        x = x[..., None]
    if x.ndim != 3:
        raise ValueError(f"expected (H, W) or (H, W, C), got {x.shape}")
    return x


def patchify(image, P):
    x = _nhwc(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    x = x.reshape(H // P, P, W // P, P, C).swapaxes(1, 2)  # (h, w, p, p, c)
    return x.reshape(-1, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    # conv2d, NHWC input and (kH, kW, C_in, C_out) weight, padding 0
    x = _nhwc(image)
    k = K.shape[0]
    if k > x.shape[0] or k > x.shape[1]:
        raise ValueError(f"kernel {k} does not fit in {x.shape[:2]}")
    win = np.lib.stride_tricks.sliding_window_view(x, (k, k), axis=(0, 1))[::stride, ::stride]
    # win: (H', W', C, kH, kW)
    return np.einsum("ijcab,abcd->ijd", win, K) + b


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_token = params["cls"].reshape(1, -1)
    x = np.concatenate([cls_token, x], axis=0)
    return x + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    x = x - x.max(axis=axis, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) * (1.0 / np.sqrt(var + eps)) * gamma + beta


def self_attention(x, p, heads, causal=False):
    L, D = x.shape
    if D % heads:
        raise ValueError(f"dim {D} not divisible by num_heads {heads}")
    head_dim = D // heads
    scale = head_dim ** -0.5

    W_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    b_qkv = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ W_qkv + b_qkv).reshape(L, 3 * heads, head_dim).swapaxes(0, 1)
    q, k, v = np.split(qkv, 3, axis=0)

    logits = scale * q @ k.swapaxes(-2, -1)
    if causal:
        logits = logits + np.triu(np.full((L, L), -np.inf), k=1)
    attn = softmax(logits, axis=-1)
    x = attn @ v

    x = x.swapaxes(0, 1).reshape(L, D)
    return x @ p["Wo"] + p["bo"]


def gelu(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def mlp(x, p):
    return gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
    return x


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = x[0]  # global_pool == "token"
    return x @ params["W_head"] + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
