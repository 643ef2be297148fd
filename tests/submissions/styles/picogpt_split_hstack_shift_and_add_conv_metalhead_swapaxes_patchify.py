"""A correct submission (blind round 49, b49_14, issue 38) in an unusual style: jaymody/picoGPT's
functional gpt2.py (`softmax`, `layer_norm` with eps 1e-6, per-head `np.split` and `np.hstack`,
a module-level `attention(q, k, v, mask)` with an additive mask `np.triu(np.full(..., -np.inf),
1)` only when causal=True and zeros otherwise, `ffn`); patchify as Metalhead.jl's patch reshape
done in C order with `swapaxes(1, 2)`, so the order is (p1, p2, c); num_patches tiling checked
with divmod; conv_patch_embed as shift-and-add over the kernel taps (strided slices
`x[i:i+stride*(oh-1)+1:stride, ...]`); embed_image with `np.vstack([cls, x]) + pos`.

tests/test_catalogue.py requires full marks.

Blind round 49 (b49_14, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (7e618553, 110/110) and now.
"""
import math

import numpy as np


# --- Counting (Practice 1, 4, 5; section 4 step 1) ------------------------------------

def num_patches(H, W, P):
    """Number of non-overlapping P x P patches that tile an H x W image: (H/P)(W/P).

    Section 4 step 1: 4x4 with P=2 gives 4; 224x224 with P=16 gives 196. Patches tile, they are
    not overlapping CNN windows: raise ValueError when P does not divide H or W. Returns an int.
    """
    if P <= 0:
        raise ValueError(f"patch size must be positive, got {P}")
    hp, rh = divmod(H, P)
    wp, rw = divmod(W, P)
    if rh or rw:
        raise ValueError(f"{P}x{P} patches do not tile a {H}x{W} image")
    return hp * wp


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


def patchify(image, P):  # [h, w, c] -> [hp*wp, P*P*c]
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C); (H, W) is one channel.

    Lab 4, section 4 step 2. Row n is patch n in raster order over the patch grid (left to
    right, then top to bottom); inside a patch the order is row, column, channel (p1, p2, c):
    the worked example's top-left patch [[1, 2], [3, 4]] becomes [1, 2, 3, 4].
    ValueError when P does not tile the image or `image` is not 2-D or 3-D.
    """
    x = _as_hwc(image)
    h, w, c = x.shape
    hp, wp = h // P, w // P
    if hp * P != h or wp * P != w or P <= 0:
        raise ValueError(f"patch size {P} does not divide {h}x{w}")
    xpatch = x.reshape(hp, P, wp, P, c)  # [hp, p1, wp, p2, c]
    return np.ascontiguousarray(xpatch.swapaxes(1, 2)).reshape(hp * wp, P * P * c)


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): patchify(image, P) @ W_e + b_e, W_e (P*P*C, d), b_e (d,).

    Section 3 step 2, section 4 step 3: with W_e's first column all 0.25, the worked example's
    patch [1, 2, 3, 4] gets the first coordinate 2.5, its mean.
    """
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):  # [h, w, c], [k, k, c, d], [d] -> [h', w', d]
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d).

    out[i, j] = sum(image[i*stride:i*stride+k, j*stride:j*stride+k, :] * K) + b, with
    H' = (H - k)//stride + 1 and W' likewise. Practice 7: with K = W_e.reshape(P, P, C, d) and
    stride P it equals linear_patch_embed. ValueError when k exceeds H or W.
    """
    x = _as_hwc(image)
    h, w, c = x.shape
    k, d = K.shape[0], K.shape[-1]
    if k > h or k > w:
        raise ValueError(f"kernel {k} does not fit a {h}x{w} image")
    oh = (h - k) // stride + 1
    ow = (w - k) // stride + 1
    out = np.zeros((oh, ow, d)) + b
    # shift and add: one kernel tap at a time
    for i in range(k):
        for j in range(k):
            tap = x[i:i + stride * (oh - 1) + 1:stride, j:j + stride * (ow - 1) + 1:stride, :]  # [oh, ow, c]
            out = out + tap @ K[i, j]
    return out


def conv_equivalent(P):
    """(kernel_size, stride) of the convolution equal to the patch linear map (Practice 7)."""
    return (P, P)


# --- Sequence assembly (section 3 steps 3-4, Practice 2) ----------------------------

def embed_image(image, params):  # [h, w, c] -> [n_patch + 1, n_embd]
    """The token sequence (N + 1, d) entering the transformer (section 3 steps 3-4).

    linear_patch_embed with params["P"], ["W_e"], ["b_e"]; the learned [CLS] params["cls"] (d,)
    prepended as row 0; then the positions params["pos"] (N + 1, d) added to every row.
    """
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])  # [n_patch, n_embd]
    x = np.vstack([params["cls"], x])  # [n_patch + 1, n_embd]
    return x + params["pos"]


# --- Attention and the encoder (section 3 step 5, Practice 6) ------------------------

def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out.

    Numerically stable: subtracting the max along `axis` first changes nothing mathematically
    and keeps exp from overflowing for inputs near 1000.
    """
    exp_x = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return exp_x / np.sum(exp_x, axis=axis, keepdims=True)


def layer_norm(x, g, b, eps: float = 1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis: (..., d), (d,), (d,) -> (..., d).

    The biased variance (ddof=0), eps inside the square root; each token is normalised on its own.
    """
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    x = (x - mean) / np.sqrt(variance + eps)  # normalize x to have mean=0 and var=1 over last axis
    return g * x + b  # scale and offset with gamma/beta params


def attention(q, k, v, mask):  # [n_q, d_k], [n_k, d_k], [n_k, d_v], [n_q, n_k] -> [n_q, d_v]
    return softmax(q @ k.T / np.sqrt(q.shape[-1]) + mask) @ v


def self_attention(x, p, heads, causal=False):  # [n_seq, n_embd] -> [n_seq, n_embd]
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6).

    q = x @ Wq + bq (likewise k, v); head h uses columns h*d_h:(h+1)*d_h, d_h = d // heads;
    softmax(q_h k_h^T / sqrt(d_h)) v_h per head, heads side by side, then @ Wo + bo.
    No mask by default (every patch sees every patch); causal=True hides later tokens as GPT
    does. ValueError when heads does not divide d.
    """
    n_seq, n_embd = x.shape
    if n_embd % heads:
        raise ValueError(f"n_embd {n_embd} is not divisible by n_head {heads}")
    qkv = [x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]]  # [3, n_seq, n_embd]
    qkv_heads = list(map(lambda y: np.split(y, heads, axis=-1), qkv))  # [3, n_head, n_seq, n_embd/n_head]
    mask = np.triu(np.full((n_seq, n_seq), -np.inf), 1) if causal else np.zeros((n_seq, n_seq))
    out_heads = [attention(q, k, v, mask) for q, k, v in zip(*qkv_heads)]  # [n_head, n_seq, n_embd/n_head]
    x = np.hstack(out_heads)  # [n_seq, n_embd]
    return x @ p["Wo"] + p["bo"]


def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf (the tanh approximation is accepted too)."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def ffn(x, p):  # [n_seq, n_embd] -> [n_seq, n_embd]
    a = gelu(x @ p["W1"] + p["b1"])  # project up
    return a @ p["W2"] + p["b2"]  # project back down


def encoder_block(x, p, heads):  # [n_seq, n_embd] -> [n_seq, n_embd]
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5):

    x = x + self_attention(layer_norm(x, ln1_g, ln1_b), p, heads)
    x = x + gelu(layer_norm(x, ln2_g, ln2_b) @ W1 + b1) @ W2 + b2
    """
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + ffn(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
    return x


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
