"""Blind round 69 (b69_15, issue 38): a CORRECT port in an unusual style (must get full marks):
layer_norm and self_attention ported from mukang98/Own_Transformer
`models/layers/{layer_norm,multihead_attention,scale_dot_product_attention}.py`: the two-line
layer norm (var with ddof=0, eps inside the sqrt), split/concat helper closures and
`masked_fill(mask == 0, -inf)` over a tril keep-mask (the source's `score (q @ k)` typo fixed to
`q @ k_t`, its -10000 fill swapped for -inf).

tests/test_catalogue.py requires full marks.

No mistakes (the key's checks as for b69_14: heads 1/2/4/8, causal on and off, inputs up to
about 1e3, T = 1, heads 3/5 raising ValueError).

Grader: full marks at blind time (cb37e6da, 110/110) and now.
"""
# layer norm and attention ported from mukang98/Own_Transformer (models/layers/)
import math

import numpy as np


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
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d).

    out[i, j] = sum(image[i*stride:i*stride+k, j*stride:j*stride+k, :] * K) + b, with
    H' = (H - k)//stride + 1 and W' likewise. Practice 7: with K = W_e.reshape(P, P, C, d) and
    stride P it equals linear_patch_embed. ValueError when k exceeds H or W.
    """
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
    """(kernel_size, stride) of the convolution equal to the patch linear map (Practice 7)."""
    ### BEGIN SOLUTION
    return (P, P)
    ### END SOLUTION


# --- Sequence assembly (section 3 steps 3-4, Practice 2) ----------------------------

def embed_image(image, params):
    """The token sequence (N + 1, d) entering the transformer (section 3 steps 3-4).

    linear_patch_embed with params["P"], ["W_e"], ["b_e"]; the learned [CLS] params["cls"] (d,)
    prepended as row 0; then the positions params["pos"] (N + 1, d) added to every row.
    """
    ### BEGIN SOLUTION
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    tokens = np.concatenate([params["cls"][None, :], tokens], axis=0)
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
    """LayerNorm.forward of mukang98/Own_Transformer (var with unbiased=False)."""
    x = np.asarray(x, dtype=float)
    mean = x.mean(-1, keepdims=True)
    var = x.var(-1, ddof=0, keepdims=True)
    # out = (x - mean) / sqrt(var + eps) * gamma + beta  -- two lines for clarity
    out = (x - mean) / np.sqrt(var + eps)
    out = gamma * out + beta
    return out


def _scale_dot_product(q, k, v, mask=None):
    """ScaleDotProductAttention.forward: q, k, v (H, N, S)."""
    head_nums, seq_length, d_tensor = k.shape
    k_t = k.transpose(0, 2, 1)
    score = (q @ k_t) / math.sqrt(d_tensor)
    if mask is not None:
        score = np.where(mask == 0, float("-inf"), score)
    score = softmax(score, axis=-1)  # H*N*N
    v = score @ v  # H*N*S
    return v, score


def self_attention(x, p, heads, causal=False):
    """MultiHeadAttention.forward of mukang98/Own_Transformer, one sequence (N, d_model)."""
    seq_length, d_model = x.shape
    if d_model % heads:
        raise ValueError(f"d_model {d_model} is not divisible by {heads} heads")

    def split(inp):
        d_tensor = d_model // heads
        return inp.reshape(seq_length, heads, d_tensor).transpose(1, 0, 2)

    def concat(inp):
        head_nums, seq_len, d_tensor = inp.shape
        return inp.transpose(1, 0, 2).reshape(seq_len, head_nums * d_tensor)

    q, k, v = x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]
    q, k, v = split(q), split(k), split(v)
    mask = np.tril(np.ones((seq_length, seq_length))) if causal else None
    out, attention = _scale_dot_product(q, k, v, mask=mask)
    return concat(out) @ p["Wo"] + p["bo"]                     # self.concat_out


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
