"""A correct submission (blind round 10, b10_14, issue 38) in an unusual style: tile loops, q and k
each scaled by d_h**-0.25, Wo applied per head slice, a logsumexp softmax, timm's no_embed_class
positions, numpy-integer counts and a list for conv_equivalent, answers in other case.

tests/test_catalogue.py requires full marks.

Blind round 10, file 14: a CORRECT port in an unusual style (must get full marks).

Sources ported:
- Patch loops of ViT-from-scratch blogs with np.atleast_3d for gray images; patch_dim measured
  from patchify itself.
- timm vision_transformer.py _pos_embed with no_embed_class=True: positions added to the patches
  and to the class token separately, then concatenated (same result as the lecture's order).
- openai/guided-diffusion QKVAttention: q and k each scaled by d_h**-0.25 (product 1/sqrt(d_h)); per-head
  loop with the output projection applied per head slice of Wo and summed (Megatron-style row split).
- jax.nn.softmax via logsumexp, exp(x - lse).
- ANSWERS with other case and surrounding spaces (the API says these do not matter); counts
  returned as numpy integers / int + bool; conv_equivalent as a list.
No mistakes.
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
    """Patches plus the [CLS] flag (a bool counts as 0 or 1)."""
    return num_patches(H, W, P) + bool(cls_token)


def patch_dim(P, C=3):
    """Measure it: the length of one flattened patch of a blank P x P x C image."""
    return np.prod((P, P, C))


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
    """Tiles in raster order, each flattened as (row, column, channel)."""
    image = np.asarray(image)
    if image.ndim not in (2, 3):
        raise ValueError("expected an (H, W) or (H, W, C) image")
    image = np.atleast_3d(image)
    H, W, C = image.shape
    n = num_patches(H, W, P)
    rows = []
    for i in range(H // P):
        for j in range(W // P):
            rows.append(np.ravel(image[i * P:(i + 1) * P, j * P:(j + 1) * P, :]))
    out = np.concatenate(rows).reshape(n, P * P * C)
    return out


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): patchify(image, P) @ W_e + b_e, W_e (P*P*C, d), b_e (d,).

    Section 3 step 2, section 4 step 3: with W_e's first column all 0.25, the worked example's
    patch [1, 2, 3, 4] gets the first coordinate 2.5, its mean.
    """
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d).

    out[i, j] = sum(image[i*stride:i*stride+k, j*stride:j*stride+k, :] * K) + b, with
    H' = (H - k)//stride + 1 and W' likewise. Practice 7: with K = W_e.reshape(P, P, C, d) and
    stride P it equals linear_patch_embed. ValueError when k exceeds H or W.
    """
    image = _as_hwc(image)
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    windows = np.lib.stride_tricks.sliding_window_view(image, (k, k), axis=(0, 1))  # (H-k+1, W-k+1, C, k, k)
    windows = windows[::stride, ::stride].transpose(0, 1, 3, 4, 2)                 # (H', W', k, k, C)
    return np.tensordot(windows, K, axes=([2, 3, 4], [0, 1, 2])) + b


def conv_equivalent(P):
    """[kernel_size, stride]."""
    return [P, P]


# --- Sequence assembly (section 3 steps 3-4, Practice 2) ----------------------------

def embed_image(image, params):
    """timm's no_embed_class path: positions to patches and to [CLS] separately, then concatenate."""
    pos = params["pos"]
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"]) + pos[1:]
    cls = params["cls"] + pos[0]
    return np.vstack([cls[None, :], patches])


# --- Attention and the encoder (section 3 step 5, Practice 6) ------------------------

def softmax(x, axis=-1):
    """exp(x - logsumexp(x)), logsumexp computed stably."""
    m = np.max(x, axis=axis, keepdims=True)
    lse = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return np.exp(x - lse)


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis: (..., d), (d,), (d,) -> (..., d).

    The biased variance (ddof=0), eps inside the square root; each token is normalised on its own.
    """
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    """Per-head loop; q and k each scaled by d_h**-0.25; Wo applied per head slice and summed."""
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("heads must divide the width")
    ch = d // heads
    scale = 1 / math.sqrt(math.sqrt(ch))
    q_all = x @ p["Wq"] + p["bq"]
    k_all = x @ p["Wk"] + p["bk"]
    v_all = x @ p["Wv"] + p["bv"]
    out = np.zeros((T, p["Wo"].shape[1]))
    for h in range(heads):
        sl = slice(h * ch, (h + 1) * ch)
        weight = (q_all[:, sl] * scale) @ (k_all[:, sl] * scale).T
        if causal:
            weight = weight + np.triu(np.full((T, T), -np.inf), 1)
        weight = softmax(weight, axis=-1)
        out += (weight @ v_all[:, sl]) @ p["Wo"][sl, :]
    return out + p["bo"]


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
    """Logits (num_classes,) of one image (section 3 step 6).

    embed_image, every block of params["blocks"] with params["heads"], the final layer_norm
    (ln_g, ln_b), then the [CLS] row (row 0) through W_head (d, num_classes) and b_head.
    """
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]


# --- Concepts (Practice 2, 3, 6) ------------------------------------------------------

# Each value is one option key (a string). The options are on the question sheet.
ANSWERS = {
    "positions": None,    # Practice 2: "permutation", "speed", "cls" or "resolution"
    "medical": None,      # Practice 3: "pretrained" or "scratch"
    "causal_mask": None,  # Practice 6: "bidirectional", "speed" or "leak"
}
ANSWERS["positions"] = ' Permutation '
ANSWERS["medical"] = 'PRETRAINED'
ANSWERS["causal_mask"] = 'Bidirectional'
