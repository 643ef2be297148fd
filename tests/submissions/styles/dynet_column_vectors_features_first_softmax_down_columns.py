"""A correct submission (blind round 27, b27_15, issue 38) in an unusual style: DyNet's Python
API habits (clab/dynet examples: expressions are column vectors, parameters multiply from the
left, W * x + b; dy.layer_norm(x, g, b) per column; dy.softmax(x, d=0) down the columns;
dy.concatenate_cols; the attention examples' (key, query) score matrices normalised column by
column): everything computed features-first on transposed (d, T) arrays with the weights
transposed to the left, and transposed back at the end.

tests/test_catalogue.py requires full marks.

Blind round 27 (b27_15, issue 38): a CORRECT port in an unusual style (must get full marks).
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
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C); (H, W) is one channel.

    Lab 4, section 4 step 2. Row n is patch n in raster order over the patch grid (left to
    right, then top to bottom); inside a patch the order is row, column, channel (p1, p2, c):
    the worked example's top-left patch [[1, 2], [3, 4]] becomes [1, 2, 3, 4].
    ValueError when P does not tile the image or `image` is not 2-D or 3-D.
    """
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)  # raises ValueError when the patches do not tile
    grid = image.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4)
    return grid.reshape(-1, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    X = patchify(image, P).T                      # columns are patches (P*P*C, N)
    return (W_e.T @ X + b_e[:, None]).T           # W * x + b per column, back to (N, d)


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
    """(kernel_size, stride) of the convolution equal to the patch linear map (Practice 7)."""
    return (P, P)


# --- Sequence assembly (section 3 steps 3-4, Practice 2) ----------------------------

def embed_image(image, params):
    E = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"]).T   # (d, N)
    E = np.concatenate([params["cls"][:, None], E], axis=1)                     # concatenate_cols
    return (E + params["pos"].T).T


# --- Attention and the encoder (section 3 step 5, Practice 6) ------------------------

def softmax(x, axis=-1):
    """dy.softmax(x, d=0): the normalised axis is moved to the front, columns sum to 1."""
    cols = np.moveaxis(np.asarray(x, dtype=float), axis, 0)
    m = cols.max(axis=0)
    e = np.exp(cols - m)
    return np.moveaxis(e / e.sum(axis=0), 0, axis)


def layer_norm(x, gamma, beta, eps=1e-6):
    """dy.layer_norm(x, g, b) on every column, features first."""
    cols = np.moveaxis(np.asarray(x, dtype=float), -1, 0)     # (d, ...)
    mu = cols.mean(axis=0)
    centred = cols - mu
    sigma = np.sqrt((centred * centred).mean(axis=0) + eps)
    g = np.asarray(gamma).reshape((-1,) + (1,) * (cols.ndim - 1))
    b = np.asarray(beta).reshape((-1,) + (1,) * (cols.ndim - 1))
    return np.moveaxis(g * (centred / sigma) + b, 0, -1)


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide the hidden size")
    dh = d // heads
    X = x.T                                                  # (d, T): one column per token
    Q = p["Wq"].T @ X + p["bq"][:, None]
    K = p["Wk"].T @ X + p["bk"][:, None]
    V = p["Wv"].T @ X + p["bv"][:, None]
    outs = []
    for h in range(heads):
        r = slice(h * dh, (h + 1) * dh)
        S = K[r].T @ Q[r] / math.sqrt(dh)                    # (key, query)
        if causal:                                           # key j visible to query i iff j <= i
            S = np.where(np.tril(np.ones((T, T), dtype=bool), -1), -np.inf, S)
        A = softmax(S, axis=0)                               # dy.softmax(S, d=0): columns
        outs.append(V[r] @ A)                                # (dh, T)
    Hcat = np.concatenate(outs, axis=0)                      # concatenate (rows)
    return (p["Wo"].T @ Hcat + p["bo"][:, None]).T


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
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    h_cls = x.T[:, 0]                                        # dy.pick column 0
    return params["W_head"].T @ h_cls + params["b_head"]


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
