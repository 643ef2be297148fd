"""A correct submission (blind round 27, b27_14, issue 38) in an unusual style: CMU 10-414/714
"Deep Learning Systems" Needle homework habits (hw4 conv: NHWC input, (K, K, C_in, C_out) weight,
im2col with as_strided on Z.strides, given a stride; patchify with the same as_strided trick at
stride P; nn.LayerNorm1d with sums and broadcast_to, generalised to the last axis; ops.LogSumExp
for softmax; MultiHeadAttention's causal mask -finfo(float32).max * triu(ones, k=1)).

tests/test_catalogue.py requires full marks.

Blind round 27 (b27_14, issue 38): a CORRECT port in an unusual style (must get full marks).
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
    Z = np.ascontiguousarray(_as_hwc(image))
    H, W, C = Z.shape
    num_patches(H, W, P)
    Hs, Ws, Cs = Z.strides
    A = np.lib.stride_tricks.as_strided(Z, shape=(H // P, W // P, P, P, C),
                                        strides=(Hs * P, Ws * P, Hs, Ws, Cs))
    return A.reshape(-1, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): patchify(image, P) @ W_e + b_e, W_e (P*P*C, d), b_e (d,).

    Section 3 step 2, section 4 step 3: with W_e's first column all 0.25, the worked example's
    patch [1, 2, 3, 4] gets the first coordinate 2.5, its mean.
    """
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    Z = np.ascontiguousarray(_as_hwc(image), dtype=float)[None]     # (N=1, H, W, C_in)
    N, H, W, C_in = Z.shape
    k, _, _, C_out = K.shape
    if k > H or k > W:
        raise ValueError("kernel larger than the input")
    Ns, Hs, Ws, Cs = Z.strides
    H_out, W_out = (H - k) // stride + 1, (W - k) // stride + 1
    inner_dim = k * k * C_in
    A = np.lib.stride_tricks.as_strided(Z, shape=(N, H_out, W_out, k, k, C_in),
                                        strides=(Ns, Hs * stride, Ws * stride, Hs, Ws, Cs))
    out = A.reshape(-1, inner_dim) @ K.reshape(-1, C_out)
    return out.reshape(N, H_out, W_out, C_out)[0] + b


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

def _logsumexp(Z, axes):
    max_z = Z.max(axis=axes, keepdims=True)
    return np.log(np.exp(Z - max_z).sum(axis=axes, keepdims=True)) + max_z


def softmax(x, axis=-1):
    Z = np.asarray(x, dtype=float)
    return np.exp(Z - _logsumexp(Z, axis))


def layer_norm(x, gamma, beta, eps=1e-6):
    """nn.LayerNorm1d, generalised from (batch, dim) to (..., dim)."""
    x = np.asarray(x, dtype=float)
    dim = x.shape[-1]
    lead = x.shape[:-1] + (1,)
    mean = np.broadcast_to((x.sum(axis=-1) / dim).reshape(lead), x.shape)
    var = np.broadcast_to((((x - mean) ** 2).sum(axis=-1) / dim).reshape(lead), x.shape)
    deno = (var + eps) ** 0.5
    return np.broadcast_to(gamma, x.shape) * (x - mean) / deno + np.broadcast_to(beta, x.shape)


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("dim must be divisible by num_head")
    dim_head = d // heads

    def heads_first(y):
        return y.reshape(T, heads, dim_head).transpose(1, 0, 2)

    q = heads_first(x @ p["Wq"] + p["bq"])
    k = heads_first(x @ p["Wk"] + p["bk"])
    v = heads_first(x @ p["Wv"] + p["bv"])
    logits = q @ k.transpose(0, 2, 1) / np.sqrt(dim_head)
    if causal:
        mask = -np.finfo(np.float32).max * np.triu(np.ones((1, T, T)), k=1)
        logits = logits + mask
    probs = softmax(logits, axis=-1)
    out = (probs @ v).transpose(1, 0, 2).reshape(T, d)
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
