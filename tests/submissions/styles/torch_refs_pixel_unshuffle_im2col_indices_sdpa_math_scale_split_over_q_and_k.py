"""A correct submission (blind round 26, b26_12, issue 38) in an unusual style: PyTorch's Python
decompositions kept right: patchify as torch/_refs/nn/functional `pixel_unshuffle` (a view of the
(C, H/r, r, W/r, r) image permuted so the patch features come out (r, r, C)); conv_patch_embed as
torch/_decomp `im2col` (index arithmetic, `arange(out) * stride + arange(k)`, and advanced
indexing); softmax as torch/_refs `softmax` (amax with keepdim=True); layer_norm as torch/_decomp
`native_layer_norm` (var_mean with correction=0, rstd = rsqrt(var + eps)); self_attention as
torch/_decomp `_scaled_dot_product_attention_math` (sqrt(1 / sqrt(E)) applied to q and to k, the
causal `ones(L, S).tril()` turned into an additive 0 / -inf mask).

tests/test_catalogue.py requires full marks.

Blind round 26 (b26_12, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (109/109) and now.
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
    # torch/_refs pixel_unshuffle, channels-last features (r, r, C)
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    self_ = image.transpose(2, 0, 1)                              # (C, H, W) like a torch tensor
    oh, ow = H // P, W // P
    view = self_.reshape(C, oh, P, ow, P)
    permuted = view.transpose(1, 3, 2, 4, 0)                      # (oh, ow, r, r, C)
    return permuted.reshape(oh * ow, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): patchify(image, P) @ W_e + b_e, W_e (P*P*C, d), b_e (d,).

    Section 3 step 2, section 4 step 3: with W_e's first column all 0.25, the worked example's
    patch [1, 2, 3, 4] gets the first coordinate 2.5, its mean.
    """
    return patchify(image, P) @ W_e + b_e


def _im2col_indices(n, k, stride):
    # torch/_decomp/decompositions.py im2col: blocks_row_indices
    out = (n - k) // stride + 1
    return (np.arange(out) * stride)[:, None] + np.arange(k)[None, :]   # (out, k)


def conv_patch_embed(image, K, b, stride):
    image = _as_hwc(image)
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    rows = _im2col_indices(H, k, stride)                          # (Ho, k)
    cols = _im2col_indices(W, k, stride)                          # (Wo, k)
    blocks = image[rows[:, None, :, None], cols[None, :, None, :]]  # (Ho, Wo, k, k, C)
    return np.tensordot(blocks, K, axes=3) + b


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
    # torch/_refs softmax
    a = np.asarray(x)
    a_max = np.amax(a, axis, keepdims=True)
    unnormalized = np.exp(a - a_max)
    return unnormalized / np.sum(unnormalized, axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    # torch/_decomp native_layer_norm -> _normalize
    input = np.asarray(x)
    reduction_dims = (input.ndim - 1,)
    biased_var = np.var(input, axis=reduction_dims, ddof=0, keepdims=True)   # correction=0
    mean = np.mean(input, axis=reduction_dims, keepdims=True)
    rstd = 1.0 / np.sqrt(biased_var + eps)                                      # torch.rsqrt
    out = (input - mean) * rstd
    return out * gamma + beta


def _sdpa_math(query, key, value, is_causal=False):
    # torch/_decomp _scaled_dot_product_attention_math
    L, S, E = query.shape[-2], key.shape[-2], query.shape[-1]
    scaling_factor = math.sqrt(1.0 / math.sqrt(E))
    query = query * scaling_factor
    attn = query @ (np.swapaxes(key, -2, -1) * scaling_factor)
    if is_causal:
        attn_mask = np.tril(np.ones((L, S), dtype=bool))
        attn = attn + np.where(attn_mask, 0.0, -np.inf)
    attn = softmax(attn, axis=-1)
    return attn @ value


def self_attention(x, p, heads, causal=False):
    T, E = x.shape
    if E % heads:
        raise ValueError(f"embed_dim {E} not divisible by num_heads {heads}")
    head_dim = E // heads
    q, k, v = ((x @ p["W" + n] + p["b" + n]).reshape(T, heads, head_dim).transpose(1, 0, 2) for n in "qkv")
    attn_output = _sdpa_math(q, k, v, is_causal=causal)              # (heads, T, head_dim)
    attn_output = attn_output.transpose(1, 0, 2).reshape(T, E)
    return attn_output @ p["Wo"] + p["bo"]


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
