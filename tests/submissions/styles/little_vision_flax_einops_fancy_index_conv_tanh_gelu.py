"""Blind round 76 (b76_10, issue 38): a CORRECT port in an unusual style (must get full marks):
ported from 1ucky40nc3/little_vision `models/vit.py`, flax/einops style: a channels-last conv
stem with VALID padding whose windows are gathered by fancy indexing plus an einsum, the tanh
GELU (accepted: within about 1e-3 of the erf form), and an extra optional `classifier="token"`
argument of `vit_forward`.

tests/test_catalogue.py requires full marks.

No mistakes (the key's checks as for b76_03).

Grader: at blind time (fe8b70f1) and now, 110/110.
"""
from typing import Any
from typing import Callable
from functools import partial

import math

import numpy as np


Array = np.ndarray


# ----------------------------------------------------------------------------
# counting
# ----------------------------------------------------------------------------

def num_patches(H: int, W: int, P: int) -> int:
    if P <= 0 or H % P or W % P:
        raise ValueError(
            f"patch size {P} does not tile an image of size {H}x{W}")
    return (H // P) * (W // P)


def num_tokens(H: int, W: int, P: int, cls_token: bool = True) -> int:
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P: int, C: int = 3) -> int:
    return P * P * C


def attention_scores(num_tokens: int) -> int:
    return num_tokens * num_tokens


# ----------------------------------------------------------------------------
# stem
# ----------------------------------------------------------------------------

def _hwc(image: Any) -> Array:
    x = np.asarray(image, dtype=np.float64)
    if x.ndim == 2:
        x = x[..., None]
    if x.ndim != 3:
        raise ValueError(f"an image is (h, w) or (h, w, c), got {x.shape}")
    return x


def patchify(image: Any, P: int) -> Array:
    x = _hwc(image)
    h, w, c = x.shape
    num_patches(h, w, P)
    # einops: "(h p1) (w p2) c -> (h w) (p1 p2 c)"
    x = x.reshape(h // P, P, w // P, P, c)
    x = x.transpose(0, 2, 1, 3, 4)
    return x.reshape((h // P) * (w // P), P * P * c)


def linear_patch_embed(image: Any, W_e: Array, b_e: Array, P: int) -> Array:
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image: Any, K: Array, b: Array, stride: int) -> Array:
    # nn.Conv(features, kernel_size=(k, k), strides=stride, padding="VALID")
    x = _hwc(image)
    h, w, c = x.shape
    k = K.shape[0]
    if k > h or k > w:
        raise ValueError(f"kernel {k} does not fit an image of size {h}x{w}")
    oh = (h - k) // stride + 1
    ow = (w - k) // stride + 1
    rows = (np.arange(oh) * stride)[:, None] + np.arange(k)[None, :]   # (oh, k)
    cols = (np.arange(ow) * stride)[:, None] + np.arange(k)[None, :]   # (ow, k)
    windows = x[rows[:, None, :, None], cols[None, :, None, :]]         # (oh, ow, k, k, c)
    return np.einsum("ijpqc,pqcd->ijd", windows, K) + b


def conv_equivalent(P: int):
    return (P, P)


def embed_image(image: Any, params: dict) -> Array:
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    token = params["cls"][None, :]
    x = np.concatenate([token, x], axis=0)
    # LearnablePositionalEmbedding
    return x + params["pos"]


# ----------------------------------------------------------------------------
# encoder
# ----------------------------------------------------------------------------

def softmax(x: Array, axis: int = -1) -> Array:
    x = np.asarray(x, dtype=np.float64)
    x_max = np.max(x, axis=axis, keepdims=True)
    unnormalized = np.exp(x - x_max)
    return unnormalized / np.sum(unnormalized, axis=axis, keepdims=True)


def layer_norm(x: Array, gamma: Array, beta: Array, eps: float = 1e-6) -> Array:
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean(np.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def gelu(x: Array) -> Array:
    # nn.gelu (approximate form)
    return 0.5 * x * (1.0 + np.tanh(
        math.sqrt(2.0 / math.pi) * (x + 0.044715 * np.power(x, 3))))


def self_attention(x: Array, p: dict, heads: int, causal: bool = False) -> Array:
    l, d = x.shape
    if d % heads:
        raise ValueError(f"features ({d}) must be divisible by num_heads ({heads})")
    head_dim = d // heads
    dense = lambda n: (x @ p[f"W{n}"] + p[f"b{n}"]).reshape(l, heads, head_dim)
    q, k, v = dense("q"), dense("k"), dense("v")
    logits = np.einsum("qhd,khd->hqk", q, k) / math.sqrt(head_dim)
    if causal:
        logits = np.where(np.tril(np.ones((l, l), dtype=bool)), logits, -np.inf)
    weights = softmax(logits, axis=-1)
    y = np.einsum("hqk,khd->qhd", weights, v).reshape(l, d)
    return y @ p["Wo"] + p["bo"]


def position_wise_mlp(x: Array, p: dict, act: Callable = gelu) -> Array:
    x = x @ p["W1"] + p["b1"]
    x = act(x)
    return x @ p["W2"] + p["b2"]


def encoder_block(x: Array, p: dict, heads: int) -> Array:
    norm1 = partial(layer_norm, gamma=p["ln1_g"], beta=p["ln1_b"])
    norm2 = partial(layer_norm, gamma=p["ln2_g"], beta=p["ln2_b"])
    y = norm1(x)
    y = self_attention(y, p, heads)
    x = x + y
    y = norm2(x)
    y = position_wise_mlp(y, p)
    x = x + y
    return x


def vit_forward(image: Any, params: dict, classifier: str = "token") -> Array:
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])  # encoder_norm
    if classifier == "token":
        x = x[0]
    else:
        x = np.mean(x, axis=0)
    return x @ params["W_head"] + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
