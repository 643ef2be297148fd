"""A correct submission (blind round 12, b12_14, issue 38) in an unusual style.

tests/test_catalogue.py requires full marks.

Source style ported: "einsum is all you need" /
flax DenseGeneral (big_vision): every linear map is an einsum over reshaped weights
(Wq as (d, heads, d_h), Wo as (heads, d_h, d)), patches and convolution windows as einsum
contractions, log-sum-exp softmax, a layer norm whose standard deviation is the norm of the
centred vector over sqrt(d), the value bias added after the attention average (rows of the
attention sum to 1, so this equals adding it before), the final LayerNorm applied to the [CLS]
row only (LayerNorm is per token), and the head as W_head.T @ cls. No mistake intended.

Grader: full marks (109 / 109) at 30ff0c3.
"""
import math

import numpy as np


# --- Counting (Practice 1, 4, 5; section 4 step 1) ------------------------------------

def num_patches(H, W, P):
    if P <= 0:
        raise ValueError("patch size must be positive")
    (gh, rh), (gw, rw) = divmod(H, P), divmod(W, P)
    if rh or rw:
        raise ValueError(f"{P} does not tile {H}x{W}")
    return gh * gw


def num_tokens(H, W, P, cls_token=True):
    """Sequence length T entering the transformer: the N patches, plus one row for [CLS].

    Practice 1 and 4: 224/16 gives 197 with [CLS], 196 without. ValueError when P does not tile.
    """
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    return int(np.prod((P, P, C)))


def attention_scores(num_tokens):
    return num_tokens * num_tokens


# --- Patch embedding (Lab 4, Practice 7, the worked example) ------------------------

def _as_hwc(image):
    image = np.asarray(image)
    if image.ndim == 2:
        return image[:, :, None]
    if image.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {image.shape}")
    return image


def patchify(image, P):
    image = np.asarray(image)
    if image.ndim not in (2, 3):
        raise ValueError(f"expected (H, W) or (H, W, C), got {image.shape}")
    if image.ndim == 2:
        image = image[..., None]
    H, W, C = image.shape
    num_patches(H, W, P)
    blocks = image.reshape(H // P, P, W // P, P, C)
    return np.einsum("hpwqc->hwpqc", blocks).reshape(-1, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    d = W_e.shape[-1]
    blocks = image.reshape(H // P, P, W // P, P, C)
    out = np.einsum("hpwqc,pqcd->hwd", blocks, W_e.reshape(P, P, C, d))
    return out.reshape(-1, d) + b_e


def conv_patch_embed(image, K, b, stride):
    image = _as_hwc(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} exceeds the {H}x{W} image")
    win = np.lib.stride_tricks.sliding_window_view(image, (k, k), axis=(0, 1))[::stride, ::stride]
    return np.einsum("ijcab,abcd->ijd", win, K) + b


def conv_equivalent(P):
    return [P, P]


# --- Sequence assembly (section 3 steps 3-4, Practice 2) ----------------------------

def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    return np.r_[params["cls"][None], tokens] + params["pos"]


# --- Attention and the encoder (section 3 step 5, Practice 6) ------------------------

def softmax(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    lse = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return np.exp(x - lse)


def layer_norm(x, gamma, beta, eps=1e-6):
    d = x.shape[-1]
    centred = x - np.mean(x, axis=-1, keepdims=True)
    std = np.linalg.norm(centred, axis=-1, keepdims=True) / np.sqrt(d)
    return centred / np.sqrt(std ** 2 + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"{heads} heads do not divide width {d}")
    d_h = d // heads
    Wq, Wk, Wv = (p[n].reshape(d, heads, d_h) for n in ("Wq", "Wk", "Wv"))
    q = np.einsum("td,dhk->thk", x, Wq) + p["bq"].reshape(heads, d_h)
    k = np.einsum("td,dhk->thk", x, Wk) + p["bk"].reshape(heads, d_h)
    v = np.einsum("td,dhk->thk", x, Wv)                       # bias added after the average
    logits = np.einsum("qhk,shk->hqs", q, k) / np.sqrt(d_h)
    if causal:
        logits = np.where(np.arange(T)[None, :] <= np.arange(T)[:, None], logits, -np.inf)
    weights = softmax(logits, axis=-1)
    out = np.einsum("hqs,shk->qhk", weights, v) + p["bv"].reshape(heads, d_h)
    return np.einsum("qhk,hkd->qd", out, p["Wo"].reshape(heads, d_h, d)) + p["bo"]


def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf (the tanh approximation is accepted too)."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def encoder_block(x, p, heads):
    y = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = np.einsum("td,df->tf", layer_norm(y, p["ln2_g"], p["ln2_b"]), p["W1"]) + p["b1"]
    return y + np.einsum("tf,fd->td", gelu(h), p["W2"]) + p["b2"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    cls = layer_norm(x[0], params["ln_g"], params["ln_b"])
    return params["W_head"].T @ cls + params["b_head"]


# --- Concepts (Practice 2, 3, 6) ------------------------------------------------------

# Each value is one option key (a string). The options are on the question sheet.
ANSWERS = {
    "positions": None,    # Practice 2: "permutation", "speed", "cls" or "resolution"
    "medical": None,      # Practice 3: "pretrained" or "scratch"
    "causal_mask": None,  # Practice 6: "bidirectional", "speed" or "leak"
}
ANSWERS["positions"] = "permutation"
ANSWERS["medical"] = "pretrained"
ANSWERS["causal_mask"] = "bidirectional"
