"""A correct submission (blind round 15, b15_05, issue 38) in an unusual style: patchify after
skimage.util.view_as_blocks (as_strided blocks), conv_patch_embed as the as_strided + einsum
convolution of the "numpy convolution without loops" blog posts, embed_image with np.insert
(Keras-examples style), softmax with np.apply_along_axis (a course notebook's 1-D softmax applied
along the axis).

tests/test_catalogue.py requires full marks.

Blind round 15 (b15_05, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (109/109) and now.
"""
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided


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
    """Non-overlapping P x P x C blocks, skimage.util.view_as_blocks style, flattened."""
    arr = np.asarray(image)
    if arr.ndim == 2:
        arr = arr[:, :, np.newaxis]
    if arr.ndim != 3:
        raise ValueError("'arr_in' must be 2-D or 3-D")
    H, W, C = arr.shape
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError("'block_shape' is not compatible with 'arr_in'")
    arr = np.ascontiguousarray(arr)
    s0, s1, s2 = arr.strides
    blocks = as_strided(arr, shape=(H // P, W // P, 1, P, P, C),
                        strides=(s0 * P, s1 * P, s2 * C, s0, s1, s2), writeable=False)
    return blocks.reshape(-1, P * P * C)
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
    """Valid cross-correlation: as_strided windows, one einsum (numpy 'conv without loops' blog)."""
    img = _as_hwc(image)
    k = K.shape[0]
    H, W, C = img.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} does not fit a {H}x{W} image")
    Ho = (H - k) // stride + 1
    Wo = (W - k) // stride + 1
    s0, s1, s2 = img.strides
    win = as_strided(img, shape=(Ho, Wo, k, k, C),
                     strides=(s0 * stride, s1 * stride, s0, s1, s2), writeable=False)
    return np.einsum("ijabc,abcd->ijd", win, K) + b
    ### END SOLUTION


def conv_equivalent(P):
    """(kernel_size, stride) of the convolution equal to the patch linear map (Practice 7)."""
    ### BEGIN SOLUTION
    return (P, P)
    ### END SOLUTION


# --- Sequence assembly (section 3 steps 3-4, Practice 2) ----------------------------

def embed_image(image, params):
    """Patch tokens, [CLS] inserted at index 0 (np.insert), then the position table added."""
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    tokens = np.insert(tokens, 0, params["cls"], axis=0)
    return tokens + params["pos"]
    ### END SOLUTION


# --- Attention and the encoder (section 3 step 5, Practice 6) ------------------------

def softmax(x, axis=-1):
    """The notebook's stable 1-D softmax, applied along `axis` with np.apply_along_axis."""
    def softmax_1d(v):
        e = np.exp(v - np.max(v))
        return e / np.sum(e)
    return np.apply_along_axis(softmax_1d, axis, np.asarray(x))
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
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6).

    q = x @ Wq + bq (likewise k, v); head h uses columns h*d_h:(h+1)*d_h, d_h = d // heads;
    softmax(q_h k_h^T / sqrt(d_h)) v_h per head, heads side by side, then @ Wo + bo.
    No mask by default (every patch sees every patch); causal=True hides later tokens as GPT
    does. ValueError when heads does not divide d.
    """
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
    """Logits (num_classes,) of one image (section 3 step 6).

    embed_image, every block of params["blocks"] with params["heads"], the final layer_norm
    (ln_g, ln_b), then the [CLS] row (row 0) through W_head (d, num_classes) and b_head.
    """
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
