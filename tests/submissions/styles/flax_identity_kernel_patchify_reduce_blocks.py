"""A correct submission (blind round 13, b13_15, issue 38) in an unusual style.

tests/test_catalogue.py requires full marks.

b13_15 -- CORRECT port, JAX/flax functional style (big_vision-like einsums), with unusual but
valid choices:
- patchify as a convolution with an identity kernel (the Practice 7 equivalence read backwards):
  K = eye(P*P*C).reshape(P, P, C, P*P*C), stride P;
- conv_patch_embed via sliding_window_view + einsum;
- self_attention as one einsum over a (T, heads, d_h) view, the causal mask as an additive
  -inf upper triangle;
- layer_norm with moments from einsum; vit_forward folds the blocks with functools.reduce;
- ANSWERS written with capitals and spaces (allowed: case and surrounding white space do not
  matter).
Expected: full marks.
"""
import math

import numpy as np


# --- Counting (Practice 1, 4, 5; section 4 step 1) ------------------------------------

def num_patches(H, W, P):
    """Number of non-overlapping P x P patches that tile an H x W image: (H/P)(W/P).

    Section 4 step 1: 4x4 with P=2 gives 4; 224x224 with P=16 gives 196. Patches tile, they are
    not overlapping CNN windows: raise ValueError when P does not divide H or W. Returns an int.
    """
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    """Sequence length T entering the transformer: the N patches, plus one row for [CLS].

    Practice 1 and 4: 224/16 gives 197 with [CLS], 196 without. ValueError when P does not tile.
    """
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    """Numbers in one flattened P x P x C patch, before the linear map: P * P * C.

    Practice 5: 768 for P=16 RGB, 192 for P=8 RGB, 4 for the worked example's 2x2 gray patch.
    """
    return P * P * C


def attention_scores(num_tokens):
    """Scores in one attention map of one head: every token against every token, T**2.

    Section 4 step 5: 197 tokens ([CLS] included) give 38809 scores per head.
    """
    return num_tokens ** 2


# --- Patch embedding (Lab 4, Practice 7, the worked example) ------------------------

def _as_hwc(image):
    image = np.asarray(image)
    if image.ndim == 2:
        return image[:, :, None]
    if image.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {image.shape}")
    return image


def patchify(image, P):
    """Patches = a stride-P convolution with the identity kernel (Practice 7 backwards)."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    D = P * P * C
    eye = np.eye(D).reshape(P, P, C, D)
    return conv_patch_embed(image, eye, np.zeros(D), P).reshape(-1, D)


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): patchify(image, P) @ W_e + b_e, W_e (P*P*C, d), b_e (d,).

    Section 3 step 2, section 4 step 3: with W_e's first column all 0.25, the worked example's
    patch [1, 2, 3, 4] gets the first coordinate 2.5, its mean.
    """
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    """VALID convolution, NHWC / HWIO as in flax.linen.Conv."""
    x = _as_hwc(image)
    k = K.shape[0]
    if k > x.shape[0] or k > x.shape[1]:
        raise ValueError("kernel larger than the image")
    win = np.lib.stride_tricks.sliding_window_view(x, (k, k), axis=(0, 1))[::stride, ::stride]
    return np.einsum("ijcab,abcd->ijd", win, K) + b


def conv_equivalent(P):
    """(kernel_size, stride) of the convolution equal to the patch linear map (Practice 7)."""
    return (P, P)


# --- Sequence assembly (section 3 steps 3-4, Practice 2) ----------------------------

def embed_image(image, params):
    """The token sequence (N + 1, d) entering the transformer (section 3 steps 3-4).

    linear_patch_embed with params["P"], ["W_e"], ["b_e"]; the learned [CLS] params["cls"] (d,)
    prepended as row 0; then the positions params["pos"] (N + 1, d) added to every row.
    """
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    tokens = np.concatenate([params["cls"][None, :], tokens], axis=0)
    return tokens + params["pos"]


# --- Attention and the encoder (section 3 step 5, Practice 6) ------------------------

def softmax(x, axis=-1):
    """jax.nn.softmax: exp(x - stop_gradient(max)) / sum."""
    x = np.asarray(x, dtype=float)
    unnormalized = np.exp(x - np.amax(x, axis=axis, keepdims=True))
    return unnormalized / unnormalized.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    """flax LayerNorm: mean and mean of squares, var = E[(x - mean)^2] (two-pass, stable)."""
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    mean = np.einsum("...d->...", x)[..., None] / d
    xc = x - mean
    var = np.einsum("...d,...d->...", xc, xc)[..., None] / d
    return xc * (1.0 / np.sqrt(var + eps)) * gamma + beta


def self_attention(x, p, heads, causal=False):
    """flax MultiHeadDotProductAttention with einsums over a (T, heads, d_h) view."""
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide the width")
    dh = d // heads
    q, k, v = ((x @ p["W" + n] + p["b" + n]).reshape(T, heads, dh) for n in "qkv")
    logits = np.einsum("qhd,khd->hqk", q / np.sqrt(dh), k)
    if causal:
        logits = logits + np.triu(np.full((T, T), -np.inf), k=1)
    w = softmax(logits, axis=-1)
    out = np.einsum("hqk,khd->qhd", w, v).reshape(T, d)
    return out @ p["Wo"] + p["bo"]


def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf (the tanh approximation is accepted too)."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5):

    x = x + self_attention(layer_norm(x, ln1_g, ln1_b), p, heads)
    x = x + gelu(layer_norm(x, ln2_g, ln2_b) @ W1 + b1) @ W2 + b2
    """
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


def vit_forward(image, params):
    """big_vision: embed, fold the encoder blocks, encoder_norm, 'tok' pooling, head."""
    import functools
    x = functools.reduce(lambda h, blk: encoder_block(h, blk, params["heads"]),
                         params["blocks"], embed_image(image, params))
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return np.einsum("d,dk->k", x[0], params["W_head"]) + params["b_head"]


# --- Concepts (Practice 2, 3, 6) ------------------------------------------------------

# Each value is one option key (a string). The options are on the question sheet.
ANSWERS = {
    "positions": None,    # Practice 2: "permutation", "speed", "cls" or "resolution"
    "medical": None,      # Practice 3: "pretrained" or "scratch"
    "causal_mask": None,  # Practice 6: "bidirectional", "speed" or "leak"
}
ANSWERS["positions"] = " Permutation "
ANSWERS["medical"] = "pretrained"
ANSWERS["causal_mask"] = "Bidirectional"
