"""Blind round 66 (b66_11, issue 38): a CORRECT port in an unusual style (must get full marks),
after Infatoshi/cuda-course `05_Writing_your_First_Kernels/04 Triton/02_softmax.py`: softmax as
a Triton row kernel (one "program" per row, a power-of-two block, masked lanes loaded as -inf)
and layer_norm in the same kernel style (masked lanes as 0), `axis` handled by `moveaxis`.

tests/test_catalogue.py requires full marks.

No mistakes (the key's check compared every function with the solution at 1e-6: 1-D to 4-D inputs, every axis, large inputs, a passed eps, several heads through attention).

Grader: full marks at blind time (f4776223, 110/110) and now.
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

def _next_power_of_2(n):
    return 1 if n <= 1 else 2 ** math.ceil(math.log2(n))


def _softmax_kernel(output, inp, n_cols, BLOCK_SIZE):
    # one "program" per row: row_idx = tl.program_id(0)
    offsets = np.arange(BLOCK_SIZE)
    mask = offsets < n_cols
    for row_idx in range(inp.shape[0]):
        row = np.full(BLOCK_SIZE, -np.inf)
        row[mask] = inp[row_idx, offsets[mask]]                 # tl.load(..., other=-inf)
        row_max = np.max(row, axis=0)                           # max for numerical stability
        numerator = np.exp(row - row_max)
        denominator = np.sum(numerator, axis=0)
        output[row_idx, offsets[mask]] = (numerator / denominator)[mask]   # tl.store(..., mask)


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out."""
    x = np.asarray(x, dtype=float)
    moved = np.moveaxis(x, axis, -1)
    n_cols = moved.shape[-1]
    rows = moved.reshape(-1, n_cols)
    output = np.empty_like(rows)
    # numpy has no 1024-wide SRAM limit, so the block is just the next power of two
    _softmax_kernel(output, rows, n_cols, _next_power_of_2(n_cols))
    return np.moveaxis(output.reshape(moved.shape), -1, axis)


def _layer_norm_kernel(output, inp, gamma, beta, n_cols, BLOCK_SIZE, eps):
    offsets = np.arange(BLOCK_SIZE)
    mask = offsets < n_cols
    for row_idx in range(inp.shape[0]):
        row = np.zeros(BLOCK_SIZE)
        row[mask] = inp[row_idx, offsets[mask]]                 # other=0.0
        mean = np.sum(row, axis=0) / n_cols
        centered = np.where(mask, row - mean, 0.0)
        var = np.sum(centered * centered, axis=0) / n_cols
        rstd = 1.0 / np.sqrt(var + eps)
        y = centered * rstd
        output[row_idx, offsets[mask]] = y[mask] * gamma + beta


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis: (..., d) -> (..., d)."""
    x = np.asarray(x, dtype=float)
    n_cols = x.shape[-1]
    rows = x.reshape(-1, n_cols)
    output = np.empty_like(rows)
    _layer_norm_kernel(output, rows, np.asarray(gamma, dtype=float), np.asarray(beta, dtype=float),
                       n_cols, _next_power_of_2(n_cols), eps)
    return output.reshape(x.shape)


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6).

    q = x @ Wq + bq (likewise k, v); head h uses columns h*d_h:(h+1)*d_h, d_h = d // heads;
    softmax(q_h k_h^T / sqrt(d_h)) v_h per head, heads side by side, then @ Wo + bo.
    No mask by default (every patch sees every patch); causal=True hides later tokens as GPT
    does. ValueError when heads does not divide d.
    """
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads

    def split(y):                                   # (T, d) -> (heads, T, d_h)
        return y.reshape(T, heads, d_h).transpose(1, 0, 2)

    q, k, v = (split(x @ p[f"W{n}"] + p[f"b{n}"]) for n in "qkv")
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_h)  # (heads, T, T)
    if causal:
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    out = softmax(scores, axis=-1) @ v                  # (heads, T, d_h)
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]


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
    "positions": "permutation",    # Practice 2
    "medical": "pretrained",       # Practice 3
    "causal_mask": "bidirectional",  # Practice 6
}
