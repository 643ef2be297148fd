"""Lecture 4.2, Vision Transformers: the instructor's solution (full marks).

Every name of the student API (docs: shared/curriculum/student-api.md). Images are
(H, W, C) numpy arrays, channels last; weights multiply from the right (y = x @ W + b).
Code between the BEGIN/END SOLUTION markers is replaced by `raise NotImplementedError()`
in the student template.
"""
import math

import numpy as np


# --- Counting (Practice 1, 4, 5; section 4 step 1) ------------------------------------

def num_patches(H, W, P):
    """Number of non-overlapping P x P patches of an H x W image: (H/P)(W/P)."""
    ### BEGIN SOLUTION
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return (H // P) * (W // P)
    ### END SOLUTION


def num_tokens(H, W, P, cls_token=True):
    """Sequence length entering the transformer: patches, plus one for [CLS]."""
    ### BEGIN SOLUTION
    return num_patches(H, W, P) + (1 if cls_token else 0)
    ### END SOLUTION


def patch_dim(P, C=3):
    """Numbers in one flattened patch: P * P * C (768 for P=16, RGB)."""
    ### BEGIN SOLUTION
    return P * P * C
    ### END SOLUTION


def attention_scores(num_tokens):
    """Scores in one attention map of one head: T**2 (38809 for 197 tokens)."""
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
    """(N, P*P*C) flattened patches, raster order, (p1, p2, c) inside a patch."""
    ### BEGIN SOLUTION
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)  # raises ValueError when the patches do not tile
    grid = image.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4)
    return grid.reshape(-1, P * P * C)
    ### END SOLUTION


def linear_patch_embed(image, W_e, b_e, P):
    """(N, d) patch tokens: patchify(image, P) @ W_e + b_e."""
    ### BEGIN SOLUTION
    return patchify(image, P) @ W_e + b_e
    ### END SOLUTION


def conv_patch_embed(image, K, b, stride):
    """(H', W', d) valid cross-correlation with kernel K (k, k, C, d) and bias b (d,)."""
    ### BEGIN SOLUTION
    image = _as_hwc(image)
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    windows = np.lib.stride_tricks.sliding_window_view(image, (k, k), axis=(0, 1))  # (H-k+1, W-k+1, C, k, k)
    windows = windows[::stride, ::stride].transpose(0, 1, 3, 4, 2)                 # (H', W', k, k, C)
    return np.tensordot(windows, K, axes=([2, 3, 4], [0, 1, 2])) + b
    ### END SOLUTION


def conv_equivalent(P):
    """(kernel_size, stride) of the convolution equal to the patch linear map."""
    ### BEGIN SOLUTION
    return (P, P)
    ### END SOLUTION


# --- Sequence assembly (section 3 steps 3-4, Practice 2) ----------------------------

def embed_image(image, params):
    """(N + 1, d): patch tokens, [CLS] prepended as row 0, then positions added."""
    ### BEGIN SOLUTION
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    tokens = np.concatenate([params["cls"][None, :], tokens], axis=0)
    return tokens + params["pos"]
    ### END SOLUTION


# --- Attention and the encoder (section 3 step 5, Practice 6) ------------------------

def softmax(x, axis=-1):
    """Numerically stable softmax: subtract the max before exp."""
    ### BEGIN SOLUTION
    shifted = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return shifted / np.sum(shifted, axis=axis, keepdims=True)
    ### END SOLUTION


def layer_norm(x, gamma, beta, eps=1e-6):
    """Normalise the last axis (biased variance, eps inside the sqrt), then scale and shift."""
    ### BEGIN SOLUTION
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
    ### END SOLUTION


def self_attention(x, p, heads, causal=False):
    """(T, d) multi-head self-attention; contiguous head split; no mask unless causal."""
    ### BEGIN SOLUTION
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
    ### END SOLUTION


def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def encoder_block(x, p, heads):
    """Pre-LN block: attention and MLP, each on a LayerNorm of the residual stream."""
    ### BEGIN SOLUTION
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    ### END SOLUTION


def vit_forward(image, params):
    """Logits (num_classes,): embed, every block, final LayerNorm, [CLS] through the head."""
    ### BEGIN SOLUTION
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
    ### END SOLUTION


# --- Concepts (Practice 2, 3, 6) ------------------------------------------------------

# Each value is one option key (a string). The options are on the question sheet.
ANSWERS = {
    "positions": None,    # Practice 2: "permutation", "speed", "cls" or "resolution"
    "medical": None,      # Practice 3: "pretrained" or "scratch"
    "causal_mask": None,  # Practice 6: "bidirectional", "speed" or "leak"
}
### BEGIN SOLUTION
ANSWERS["positions"] = "permutation"
ANSWERS["medical"] = "pretrained"
ANSWERS["causal_mask"] = "bidirectional"
### END SOLUTION
