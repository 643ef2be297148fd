"""A correct submission (blind round 14, b14_14, issue 38) in an unusual style.

tests/test_catalogue.py requires full marks (it got them at blind time: 109/109).

b14_14 -- Lab 4 submission (ports, loop/cs231n style: cs231n im2col for the convolution; a numpy
"np.vsplit / np.hsplit" StackOverflow answer for patchify; log-sum-exp softmax as in scipy.special;
a per-head loop with the output projection split by rows, as in the "Attention Is All You Need"
formula MultiHead = Concat(head_1..head_h) W_O = sum_h head_h W_O[h]; final norm applied to the
[CLS] row only).

CORRECT: no mistakes. Unusual but equivalent styles only (the final LayerNorm is per token, so
normalising row 0 alone equals normalising all rows and taking row 0; answers written with
capitals and spaces, which the API allows).
"""
import math

import numpy as np


# --- Counting (Practice 1, 4, 5; section 4 step 1) ------------------------------------

def num_patches(H, W, P):
    """Number of non-overlapping P x P patches that tile an H x W image: (H/P)(W/P).

    Section 4 step 1: 4x4 with P=2 gives 4; 224x224 with P=16 gives 196. Patches tile, they are
    not overlapping CNN windows: raise ValueError when P does not divide H or W. Returns an int.
    """
    ### BEGIN SOLUTION
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return (H // P) * (W // P)
    ### END SOLUTION


def num_tokens(H, W, P, cls_token=True):
    """Sequence length T entering the transformer: the N patches, plus one row for [CLS].

    Practice 1 and 4: 224/16 gives 197 with [CLS], 196 without. ValueError when P does not tile.
    """
    ### BEGIN SOLUTION
    return num_patches(H, W, P) + (1 if cls_token else 0)
    ### END SOLUTION


def patch_dim(P, C=3):
    """Numbers in one flattened P x P x C patch, before the linear map: P * P * C.

    Practice 5: 768 for P=16 RGB, 192 for P=8 RGB, 4 for the worked example's 2x2 gray patch.
    """
    ### BEGIN SOLUTION
    return P * P * C
    ### END SOLUTION


def attention_scores(num_tokens):
    """Scores in one attention map of one head: every token against every token, T**2.

    Section 4 step 5: 197 tokens ([CLS] included) give 38809 scores per head.
    """
    ### BEGIN SOLUTION
    return num_tokens ** 2
    ### END SOLUTION


# --- Patch embedding (Lab 4, Practice 7, the worked example) ------------------------

def _as_hwc(image):
    image = np.asarray(image)
    if image.ndim == 2:
        return image[:, :, None]
    if image.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {image.shape}")
    return image


def patchify(image, P):
    """Patches with np.vsplit / np.hsplit (StackOverflow: "split a numpy image into tiles")."""
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {image.shape}")
    H, W, C = image.shape
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    rows = np.vsplit(image, H // P)
    tiles = [tile.reshape(-1) for row in rows for tile in np.hsplit(row, W // P)]
    return np.array(tiles)
    ### END SOLUTION


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): patchify(image, P) @ W_e + b_e, W_e (P*P*C, d), b_e (d,).

    Section 3 step 2, section 4 step 3: with W_e's first column all 0.25, the worked example's
    patch [1, 2, 3, 4] gets the first coordinate 2.5, its mean.
    """
    ### BEGIN SOLUTION
    return patchify(image, P) @ W_e + b_e
    ### END SOLUTION


def conv_patch_embed(image, K, b, stride):
    """cs231n-style im2col: one row per output position, then one matrix product."""
    image = _as_hwc(image)
    H, W, C = image.shape
    k, d = K.shape[0], K.shape[-1]
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    H_out = (H - k) // stride + 1
    W_out = (W - k) // stride + 1
    cols = np.empty((H_out * W_out, k * k * C))
    for i in range(H_out):
        for j in range(W_out):
            cols[i * W_out + j] = image[i * stride:i * stride + k, j * stride:j * stride + k, :].reshape(-1)
    return (cols @ K.reshape(k * k * C, d) + b).reshape(H_out, W_out, d)
    ### END SOLUTION


def conv_equivalent(P):
    """(kernel_size, stride) of the convolution equal to the patch linear map (Practice 7)."""
    ### BEGIN SOLUTION
    return (P, P)
    ### END SOLUTION


# --- Sequence assembly (section 3 steps 3-4, Practice 2) ----------------------------

def embed_image(image, params):
    """The token sequence (N + 1, d) entering the transformer (section 3 steps 3-4).

    linear_patch_embed with params["P"], ["W_e"], ["b_e"]; the learned [CLS] params["cls"] (d,)
    prepended as row 0; then the positions params["pos"] (N + 1, d) added to every row.
    """
    ### BEGIN SOLUTION
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    tokens = np.concatenate([params["cls"][None, :], tokens], axis=0)
    return tokens + params["pos"]
    ### END SOLUTION


# --- Attention and the encoder (section 3 step 5, Practice 6) ------------------------

def softmax(x, axis=-1):
    """exp(x - logsumexp(x)), with logsumexp computed stably as in scipy.special.logsumexp."""
    x = np.asarray(x, dtype=float)
    m = np.max(x, axis=axis, keepdims=True)
    lse = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return np.exp(x - lse)
    ### END SOLUTION


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis: (..., d), (d,), (d,) -> (..., d).

    The biased variance (ddof=0), eps inside the square root; each token is normalised on its own.
    """
    ### BEGIN SOLUTION
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
    ### END SOLUTION


def self_attention(x, p, heads, causal=False):
    """One head at a time; Concat(heads) @ Wo written as sum_h head_h @ Wo[rows of head h]."""
    T, d = x.shape
    if d % heads != 0:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    out = np.zeros((T, p["Wo"].shape[1])) + p["bo"]
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        scores = q[:, cols] @ k[:, cols].T / np.sqrt(d_h)
        if causal:
            scores = scores + np.triu(np.full((T, T), -np.inf), k=1)
        out = out + (softmax(scores, axis=-1) @ v[:, cols]) @ p["Wo"][cols, :]
    return out
    ### END SOLUTION


def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf (the tanh approximation is accepted too)."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5):

    x = x + self_attention(layer_norm(x, ln1_g, ln1_b), p, heads)
    x = x + gelu(layer_norm(x, ln2_g, ln2_b) @ W1 + b1) @ W2 + b2
    """
    ### BEGIN SOLUTION
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    ### END SOLUTION


def vit_forward(image, params):
    """Blocks, then the final LayerNorm on the [CLS] row only (it is per token), then the head."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    cls = layer_norm(x[0], params["ln_g"], params["ln_b"])
    return cls @ params["W_head"] + params["b_head"]
    ### END SOLUTION


# --- Concepts (Practice 2, 3, 6) ------------------------------------------------------

# Each value is one option key (a string). The options are on the question sheet.
ANSWERS = {
    "positions": None,    # Practice 2: "permutation", "speed", "cls" or "resolution"
    "medical": None,      # Practice 3: "pretrained" or "scratch"
    "causal_mask": None,  # Practice 6: "bidirectional", "speed" or "leak"
}
### BEGIN SOLUTION
ANSWERS["positions"] = " Permutation"
ANSWERS["medical"] = "PRETRAINED "
ANSWERS["causal_mask"] = "Bidirectional"
### END SOLUTION
