"""A correct submission (blind round 51, b51_14, issue 38) in an unusual style: patchify after the
im2col loops of nouman-tariq/vision (assgn6/matlab/im2col_conv_matlab.m), row-major with stride P:
a `(h_out * w_out, P*P*C)` buffer in the image's dtype filled patch by patch, `col[h * w_out + w]
= image[hP:(h+1)P, wP:(w+1)P, :].reshape(-1)`, so raster order over the grid and (p1, p2, c) inside
a patch, the 2-D/3-D check and the tiling check (through num_patches) raising ValueError;
self_attention as Paddle ViT's Attention (Ivanyan0516/Paddle-vision-transformer) done one head at
a time on the column slices h*d_h:(h+1)*d_h, scale `head_dim ** -0.5`, heads concatenated in order,
ValueError when heads do not divide d, and for causal=True an additive `np.triu(np.full((T, T),
-1e9), 1)` mask (in float64 exp(-1e9 - max) is exactly 0, so it equals the -inf mask).

tests/test_catalogue.py requires full marks.

Blind round 51 (b51_14, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (b53db91d, 110/110) and now.
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
    """The flattened patches (N, P*P*C), filled patch by patch like the im2col loops.

    Raster order over the grid; inside a patch row, column, channel (p1, p2, c).
    """
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, np.newaxis]
    if image.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {image.shape}")
    h_in, w_in, c = image.shape
    num_patches(h_in, w_in, P)
    h_out, w_out = h_in // P, w_in // P
    col = np.zeros((h_out * w_out, P * P * c), dtype=image.dtype)
    for h in range(h_out):
        for w in range(w_out):
            matrix_hw = image[h * P:(h + 1) * P, w * P:(w + 1) * P, :]
            col[h * w_out + w, :] = matrix_hw.reshape(-1)
    return col


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
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out.

    Numerically stable: subtracting the max along `axis` first changes nothing mathematically
    and keeps exp from overflowing for inputs near 1000.
    """
    shifted = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return shifted / np.sum(shifted, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis: (..., d), (d,), (d,) -> (..., d).

    The biased variance (ddof=0), eps inside the square root; each token is normalised on its own.
    """
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d), one head at a time (Paddle ViT Attention style),
    with an additive -1e9 mask for causal=True."""
    N, embed_dim = x.shape
    if embed_dim % heads != 0:
        raise ValueError(f"width {embed_dim} is not divisible by {heads} heads")
    head_dim = embed_dim // heads
    scale = head_dim ** -0.5
    q_all = x @ p["Wq"] + p["bq"]
    k_all = x @ p["Wk"] + p["bk"]
    v_all = x @ p["Wv"] + p["bv"]
    mask = np.zeros((N, N))
    if causal:
        mask = np.triu(np.full((N, N), -1e9), k=1)
    outs = []
    for h in range(heads):
        cols = slice(h * head_dim, (h + 1) * head_dim)
        attn = scale * (q_all[:, cols] @ k_all[:, cols].T) + mask
        attn = softmax(attn, axis=-1)
        outs.append(attn @ v_all[:, cols])
    out = np.concatenate(outs, axis=-1)
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
ANSWERS["positions"] = "permutation"
ANSWERS["medical"] = "pretrained"
ANSWERS["causal_mask"] = "bidirectional"
