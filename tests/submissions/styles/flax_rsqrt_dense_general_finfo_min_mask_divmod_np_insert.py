"""A correct submission (blind round 14, b14_15, issue 38) in an unusual style.

tests/test_catalogue.py requires full marks (it got them at blind time: 109/109).

b14_15 -- Lab 4 submission (ports, functional JAX/Flax style: flax.linen.LayerNorm (mean of squares, rsqrt);
flax.linen.gelu, whose default is approximate=True (the tanh form); flax.linen DenseGeneral
kernels reshaped to (d, heads, d_h) and (heads, d_h, d) with einsum, and flax's make_causal_mask
applied with a large negative number (jnp.finfo.min) as big_vision does; counts with divmod;
embed with np.insert; convolution output size written as (H - k + stride) // stride).

CORRECT: no mistakes. The tanh GELU is accepted by the API; (H - k + stride) // stride equals
(H - k) // stride + 1; conv_equivalent returns a list of two ints, which the API allows.
"""
import math

import numpy as np


# --- Counting (Practice 1, 4, 5; section 4 step 1) ------------------------------------

def num_patches(H, W, P):
    """Grid with divmod; any remainder means the patches do not tile."""
    if P <= 0:
        raise ValueError(f"patch size {P} must be positive")
    gh, rh = divmod(H, P)
    gw, rw = divmod(W, P)
    if rh or rw:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return gh * gw
    ### END SOLUTION


def num_tokens(H, W, P, cls_token=True):
    """Patches plus int(cls_token) prefix tokens (timm's num_prefix_tokens)."""
    return num_patches(H, W, P) + int(bool(cls_token))
    ### END SOLUTION


def patch_dim(P, C=3):
    """Flattened patch length, P**2 * C."""
    return P ** 2 * C
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
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C); (H, W) is one channel.

    Lab 4, section 4 step 2. Row n is patch n in raster order over the patch grid (left to
    right, then top to bottom); inside a patch the order is row, column, channel (p1, p2, c):
    the worked example's top-left patch [[1, 2], [3, 4]] becomes [1, 2, 3, 4].
    ValueError when P does not tile the image or `image` is not 2-D or 3-D.
    """
    ### BEGIN SOLUTION
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)  # raises ValueError when the patches do not tile
    grid = image.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4)
    return grid.reshape(-1, P * P * C)
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
    """Loops over output positions; einsum over (kh, kw, c)."""
    image = _as_hwc(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    H_out = (H - k + stride) // stride
    W_out = (W - k + stride) // stride
    out = np.empty((H_out, W_out, K.shape[-1]))
    for i in range(H_out):
        for j in range(W_out):
            win = image[i * stride:i * stride + k, j * stride:j * stride + k]
            out[i, j] = np.einsum("hwc,hwcd->d", win, K) + b
    return out
    ### END SOLUTION


def conv_equivalent(P):
    """[kernel_size, stride] of flax nn.Conv(features=d, kernel_size=(P, P), strides=(P, P), padding='VALID')."""
    return [P, P]
    ### END SOLUTION


# --- Sequence assembly (section 3 steps 3-4, Practice 2) ----------------------------

def embed_image(image, params):
    """Patch tokens, [CLS] inserted at row 0 with np.insert, then positions."""
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    tokens = np.insert(tokens, 0, params["cls"], axis=0)
    return tokens + params["pos"]
    ### END SOLUTION


# --- Attention and the encoder (section 3 step 5, Practice 6) ------------------------

def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out.

    Numerically stable: subtracting the max along `axis` first changes nothing mathematically
    and keeps exp from overflowing for inputs near 1000.
    """
    ### BEGIN SOLUTION
    shifted = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return shifted / np.sum(shifted, axis=axis, keepdims=True)
    ### END SOLUTION


def layer_norm(x, gamma, beta, eps=1e-6):
    """flax.linen.LayerNorm: mean, var = E[(x - mean)^2], y = (x - mean) * rsqrt(var + eps)."""
    x = np.asarray(x, dtype=float)
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean(np.square(x - mean), axis=-1, keepdims=True)
    mul = 1.0 / np.sqrt(var + eps) * gamma
    return (x - mean) * mul + beta
    ### END SOLUTION


def self_attention(x, p, heads, causal=False):
    """flax DenseGeneral-style projections with einsum; flax make_causal_mask with big_neg."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads

    def dense(name):
        W = p["W" + name].reshape(d, heads, d_h)
        return np.einsum("td,dhk->thk", x, W) + p["b" + name].reshape(heads, d_h)

    q, k, v = dense("q"), dense("k"), dense("v")
    logits = np.einsum("qhd,khd->hqk", q / np.sqrt(d_h), k)
    if causal:
        big_neg = np.finfo(logits.dtype).min
        logits = np.where(np.tril(np.ones((T, T), dtype=bool))[None], logits, big_neg)
    w = softmax(logits, axis=-1)
    ctx = np.einsum("hqk,khd->qhd", w, v)
    return np.einsum("qhd,hdo->qo", ctx, p["Wo"].reshape(heads, d_h, -1)) + p["bo"]
    ### END SOLUTION


def gelu(x):
    """flax.linen.gelu(x, approximate=True) (its default): the tanh form."""
    x = np.asarray(x, dtype=float)
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))


def encoder_block(x, p, heads):
    """big_vision Encoder1DBlock: y = LN(x); y = MHA(y); x = x + y; y = LN(x); y = MlpBlock(y); x + y."""
    y = layer_norm(x, p["ln1_g"], p["ln1_b"])
    y = self_attention(y, p, heads)
    x = x + y
    y = layer_norm(x, p["ln2_g"], p["ln2_b"])
    y = gelu(y @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return x + y
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
