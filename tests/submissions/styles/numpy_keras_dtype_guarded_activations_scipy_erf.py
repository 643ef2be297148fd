"""Blind round 73 (b73_07, issue 38): a CORRECT port in an unusual style (must get full marks): ported
from XavierSpycy/NumPy-Keras `numpy_keras/activations/functional.py`; correct: activations
written like NumPy-Keras' functional module, an elementwise op wrapped by a dtype-guard decorator
(`_same_dtype_as_input`), the exact GELU by `scipy.special.erf`, a double loop over the output
positions in conv_patch_embed and a loop over the heads in self_attention.

tests/test_catalogue.py requires full marks.

No mistakes (the key checked non-square RGB and 2-D images, k != stride, heads 1/2/4, causal on
and off, batched layer_norm and softmax, softmax axis=0, inputs near 1000, the `eps=` keyword,
the ValueErrors and int return types).

Grader: at blind time (6245b55a) and now, 110/110.
"""
# Lab 4 -- Vision Transformer, numpy only.
#
# Activations written like my NumPy-Keras functional module (elementwise op +
# dtype guard), the rest as plain functions.
import math

import numpy as np
from scipy.special import erf as _erf


def _same_dtype_as_input(fn):
    """Cast an elementwise float result back to the input's float dtype."""
    def wrapper(x, *args, **kwargs):
        x = np.asarray(x)
        out = fn(x, *args, **kwargs)
        arr = np.asarray(out)
        if np.issubdtype(x.dtype, np.floating) and arr.dtype != x.dtype:
            return np.asarray(out, dtype=x.dtype)
        return out
    return wrapper


# --- Counting -----------------------------------------------------------------

def num_patches(H, W, P):
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError(f"{P}x{P} patches do not tile a {H}x{W} image")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens ** 2


# --- Patch embedding ------------------------------------------------------------

def _image_hwc(image):
    image = np.asarray(image)
    if image.ndim == 2:
        return image[:, :, np.newaxis]
    if image.ndim == 3:
        return image
    raise ValueError(f"image must be (H, W) or (H, W, C), got {image.shape}")


def patchify(image, P):
    image = _image_hwc(image)
    H, W, C = image.shape
    n = num_patches(H, W, P)
    grid = image.reshape(H // P, P, W // P, P, C)
    grid = grid.transpose(0, 2, 1, 3, 4)
    return grid.reshape(n, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    image = _image_hwc(image).astype(float)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} does not fit a {H}x{W} image")
    out_h = (H - k) // stride + 1
    out_w = (W - k) // stride + 1
    cols = np.empty((out_h, out_w, k * k * C))
    for i in range(out_h):
        for j in range(out_w):
            r, c = i * stride, j * stride
            cols[i, j] = image[r:r + k, c:c + k, :].reshape(-1)
    return cols @ K.reshape(k * k * C, -1) + b


def conv_equivalent(P):
    return (P, P)


# --- Sequence assembly -----------------------------------------------------------

def embed_image(image, params):
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    seq = np.concatenate([np.reshape(params["cls"], (1, -1)), patches], axis=0)
    return seq + params["pos"]


# --- Activations -------------------------------------------------------------------

@_same_dtype_as_input
def softmax(x, axis=-1):
    x = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return x / np.sum(x, axis=axis, keepdims=True)


@_same_dtype_as_input
def gelu(x):
    return 0.5 * x * (1 + _erf(x / np.sqrt(2)))


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


# --- Attention and the encoder ---------------------------------------------------------

def self_attention(x, p, heads, causal=False):
    x = np.asarray(x, dtype=float)
    T, d = x.shape
    if d % heads != 0:
        raise ValueError(f"{heads} heads do not divide width {d}")
    d_h = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    heads_out = []
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        scores = q[:, cols] @ k[:, cols].T / math.sqrt(d_h)
        if causal:
            scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
        heads_out.append(softmax(scores, axis=-1) @ v[:, cols])
    return np.concatenate(heads_out, axis=-1) @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    hidden = gelu(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"])
    return x + hidden @ p["W2"] + p["b2"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
