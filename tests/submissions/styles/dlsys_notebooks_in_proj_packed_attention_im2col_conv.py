"""A correct submission (blind round 33, b33_08, issue 38) in an unusual style: the CMU
10-414/714 "Deep Learning Systems" lecture notebooks (dlsyscourse/public_notebooks:
transformer_implementation.ipynb softmax, multihead_attention, layer_norm, transformer;
convolution_implementation.ipynb conv_im2col with Hs * stride and Ws * stride), the attention's
weights packed in nn.MultiheadAttention's in_proj order [Wq|Wk|Wv], so the notebook's "K" holds
the queries and its softmax(K Q^T) is the lecture's softmax(q k^T); a pre-LN encoder block.

tests/test_catalogue.py requires full marks.

Blind round 33 (b33_08, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (109/109, c4f83ef) and now.
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
    def conv_im2col(Z, weight, stride):
        N, H, W, C_in = Z.shape
        K, _, _, C_out = weight.shape
        Ns, Hs, Ws, Cs = Z.strides

        H_out = (H - K) // stride + 1
        W_out = (W - K) // stride + 1
        inner_dim = K * K * C_in
        A = np.lib.stride_tricks.as_strided(Z, shape=(N, H_out, W_out, K, K, C_in),
                                            strides=(Ns, Hs * stride, Ws * stride, Hs, Ws, Cs)).reshape(-1, inner_dim)
        out = A @ weight.reshape(-1, C_out)
        return out.reshape(N, H_out, W_out, C_out)

    Z = np.asarray(image, dtype=float)
    if Z.ndim == 2:
        Z = Z[:, :, None]
    if Z.ndim != 3:
        raise ValueError(f"expected an (H, W) or (H, W, C) image, got {Z.shape}")
    weight = np.asarray(K, dtype=float)
    if weight.shape[0] > Z.shape[0] or weight.shape[0] > Z.shape[1]:
        raise ValueError(f"kernel size {weight.shape[0]} is larger than the image {Z.shape[:2]}")
    Z = np.ascontiguousarray(Z[None])
    return conv_im2col(Z, weight, stride)[0] + b


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

def softmax(Z, axis=-1):
    Z = np.exp(Z - Z.max(axis=axis, keepdims=True))
    return Z / Z.sum(axis=axis, keepdims=True)


def layer_norm(Z, gamma, beta, eps=1e-6):
    Z = np.asarray(Z, dtype=float)
    return (Z - Z.mean(axis=-1, keepdims=True)) / np.sqrt(Z.var(axis=-1, keepdims=True) + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    # in_proj_weight.T of nn.MultiheadAttention stacks the query, key and value maps in that order:
    # the notebook's split names them K, Q, V and computes softmax(K @ Q^T), i.e. (x Wq)(x Wk)^T
    def multihead_attention(X, mask, heads, W_KQV, b_KQV, W_out, b_out):
        N, T, d = X.shape
        K, Q, V = np.split(X @ W_KQV + b_KQV, 3, axis=-1)
        K, Q, V = [a.reshape(N, T, heads, d // heads).swapaxes(1, 2) for a in (K, Q, V)]

        attn = softmax(K @ Q.swapaxes(-1, -2) / np.sqrt(d // heads) + mask)
        return (attn @ V).swapaxes(1, 2).reshape(N, T, d) @ W_out + b_out, attn

    X = np.asarray(x, dtype=float)
    T, d = X.shape
    if d % heads != 0:
        raise ValueError(f"d = {d} is not divisible by heads = {heads}")
    in_proj_weight_T = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    in_proj_bias = np.concatenate([p["bq"], p["bk"], p["bv"]])
    M = np.triu(-np.inf * np.ones((T, T)), 1) if causal else np.zeros((T, T))
    Y, _ = multihead_attention(X[None], M, heads, in_proj_weight_T, in_proj_bias, p["Wo"], p["bo"])
    return Y[0]


def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf (the tanh approximation is accepted too)."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def encoder_block(x, p, heads):
    # the notebook's transformer(), rearranged as the lecture's pre-LN block
    Z = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    H = layer_norm(Z, p["ln2_g"], p["ln2_b"])
    return Z + gelu(H @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


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
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
