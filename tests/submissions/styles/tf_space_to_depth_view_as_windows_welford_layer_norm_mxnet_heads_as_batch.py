"""A correct submission (blind round 26, b26_13, issue 38) in an unusual style: patchify with
TensorFlow's `tf.nn.space_to_depth` semantics (depth ordered (block row, block column, channel)),
written as a concatenation of the P * P strided sub-images image[dy::P, dx::P, :];
conv_patch_embed with scikit-image's `view_as_windows(image, (k, k, C), step=(s, s, 1))`;
layer_norm with Welford's online mean and variance (a Numba-style loop over the features, biased
M2 / d); MXNet / gluon-style attention with the heads folded into a batch axis and a boolean
triu(k=1) causal mask filled with -1e18; counts with divmod.

tests/test_catalogue.py requires full marks.

Blind round 26 (b26_13, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (109/109) and now.
"""
import math

import numpy as np


# --- Counting (Practice 1, 4, 5; section 4 step 1) ------------------------------------

def num_patches(H, W, P):
    if P <= 0:
        raise ValueError("P must be positive")
    gh, rh = divmod(H, P)
    gw, rw = divmod(W, P)
    if rh or rw:
        raise ValueError(f"{P} does not tile {H}x{W}")
    return gh * gw


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
    # tf.nn.space_to_depth(image[None], block_size=P)[0] -> (H/P, W/P, P*P*C), then one row per block
    image = _as_hwc(image)
    H, W, C = image.shape
    n = num_patches(H, W, P)
    depth = np.concatenate([image[dy::P, dx::P, :] for dy in range(P) for dx in range(P)], axis=-1)
    return depth.reshape(n, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): patchify(image, P) @ W_e + b_e, W_e (P*P*C, d), b_e (d,).

    Section 3 step 2, section 4 step 3: with W_e's first column all 0.25, the worked example's
    patch [1, 2, 3, 4] gets the first coordinate 2.5, its mean.
    """
    return patchify(image, P) @ W_e + b_e


def _view_as_windows(arr, window_shape, step):
    # skimage.util.view_as_windows
    arr = np.asarray(arr)
    window_strides = np.array(arr.strides)
    indexing_strides = arr[tuple(slice(None, None, s) for s in step)].strides
    win_indices_shape = (np.array(arr.shape) - np.array(window_shape)) // np.array(step) + 1
    new_shape = tuple(win_indices_shape) + tuple(window_shape)
    strides = tuple(indexing_strides) + tuple(window_strides)
    return np.lib.stride_tricks.as_strided(arr, shape=new_shape, strides=strides, writeable=False)


def conv_patch_embed(image, K, b, stride):
    image = np.ascontiguousarray(_as_hwc(image))
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    windows = _view_as_windows(image, (k, k, C), (stride, stride, 1))[:, :, 0]   # (Ho, Wo, k, k, C)
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
    x = np.asarray(x, dtype=float)
    z = x - x.max(axis=axis, keepdims=True)
    np.exp(z, out=z)
    z /= z.sum(axis=axis, keepdims=True)
    return z


def layer_norm(x, gamma, beta, eps=1e-6):
    # Welford, one feature at a time (every token normalised on its own)
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    mean = np.zeros(x.shape[:-1])
    m2 = np.zeros(x.shape[:-1])
    for j in range(d):
        xj = x[..., j]
        delta = xj - mean
        mean = mean + delta / (j + 1)
        m2 = m2 + delta * (xj - mean)
    var = m2 / d
    return (x - mean[..., None]) / np.sqrt(var[..., None] + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    T, units = x.shape
    if units % heads:
        raise ValueError(f"{units} units cannot be split into {heads} heads")
    dh = units // heads

    def fold(y):                                   # (T, units) -> (heads, T, dh): heads as the batch axis
        return np.einsum("thd->htd", y.reshape(T, heads, dh))

    q = fold(x @ p["Wq"] + p["bq"])
    k = fold(x @ p["Wk"] + p["bk"])
    v = fold(x @ p["Wv"] + p["bv"])
    scores = np.matmul(q, np.swapaxes(k, 1, 2)) / np.sqrt(dh)
    if causal:
        future = np.triu(np.ones((T, T), dtype=bool), k=1)
        scores = np.where(future[None], -1e18, scores)
    ctx = np.matmul(softmax(scores, axis=-1), v)
    return np.einsum("htd->thd", ctx).reshape(T, units) @ p["Wo"] + p["bo"]


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
