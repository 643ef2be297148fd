"""A correct submission (blind round 13, b13_14, issue 38) in an unusual style.

tests/test_catalogue.py requires full marks.

b13_14 -- CORRECT port, cs231n "naive loops + im2col" style with a few unusual but valid choices:
- softmax through log-sum-exp (x - logsumexp(x)), exponentiated;
- layer_norm's standard deviation through np.linalg.norm (biased, eps inside the root);
- patchify with explicit loops in raster order; conv via im2col (rows of windows @ K.reshape);
- self_attention with a head loop that drops the key bias bk: q.(k_j + bk) = q.k_j + q.bk, and
  q.bk is the same for every key j of a query row, so it cancels in the row softmax (also with the
  causal mask);
- the tanh approximation of GELU (accepted by the API);
- vit_forward normalises only the [CLS] row (LayerNorm is per token, so this is the same).
Expected: full marks.
"""
import math

import numpy as np


# --- Counting (Practice 1, 4, 5; section 4 step 1) ------------------------------------

def num_patches(H, W, P):
    """Count of non-overlapping P x P tiles."""
    if P <= 0:
        raise ValueError("patch size must be positive")
    gh, rh = divmod(H, P)
    gw, rw = divmod(W, P)
    if rh or rw:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return int(gh * gw)


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
    """Explicit loops over the patch grid, raster order."""
    image = _as_hwc(image)
    H, W, C = image.shape
    n = num_patches(H, W, P)
    out = np.empty((n, P * P * C), dtype=np.result_type(image.dtype, float))
    idx = 0
    for i in range(H // P):
        for j in range(W // P):
            out[idx] = image[i * P:(i + 1) * P, j * P:(j + 1) * P, :].ravel()
            idx += 1
    return out


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): patchify(image, P) @ W_e + b_e, W_e (P*P*C, d), b_e (d,).

    Section 3 step 2, section 4 step 3: with W_e's first column all 0.25, the worked example's
    patch [1, 2, 3, 4] gets the first coordinate 2.5, its mean.
    """
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    """im2col: one row per output pixel, then a single matmul."""
    image = _as_hwc(image).astype(float)
    k, _, C, d = K.shape
    H, W, _ = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    Ho = (H - k) // stride + 1
    Wo = (W - k) // stride + 1
    cols = np.empty((Ho * Wo, k * k * C))
    r = 0
    for i in range(Ho):
        for j in range(Wo):
            cols[r] = image[i * stride:i * stride + k, j * stride:j * stride + k, :].ravel()
            r += 1
    return (cols @ K.reshape(k * k * C, d) + b).reshape(Ho, Wo, d)


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
    """exp(x - logsumexp(x)) along axis."""
    x = np.asarray(x, dtype=float)
    m = np.max(x, axis=axis, keepdims=True)
    lse = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return np.exp(x - lse)


def layer_norm(x, gamma, beta, eps=1e-6):
    """Per-token normalisation; the std from the Euclidean norm of the centred token."""
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    centred = x - x.mean(axis=-1, keepdims=True)
    var = np.linalg.norm(centred, axis=-1, keepdims=True) ** 2 / d
    return gamma * centred / np.sqrt(var + eps) + beta


def self_attention(x, p, heads, causal=False):
    """Head loop. The key bias is left out: it adds q.bk to a whole row of scores, which the
    row softmax removes."""
    T, d = x.shape
    if d % heads != 0:
        raise ValueError(f"{heads} heads do not divide width {d}")
    dh = d // heads
    Q = x @ p["Wq"] + p["bq"]
    Kx = x @ p["Wk"]
    V = x @ p["Wv"] + p["bv"]
    pieces = []
    for h in range(heads):
        c = slice(h * dh, (h + 1) * dh)
        s = Q[:, c] @ Kx[:, c].T * dh ** -0.5
        if causal:
            s = np.where(np.arange(T)[None, :] <= np.arange(T)[:, None], s, -np.inf)
        pieces.append(softmax(s) @ V[:, c])
    return np.hstack(pieces) @ p["Wo"] + p["bo"]


def gelu(x):
    """tanh approximation of GELU (accepted)."""
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5):

    x = x + self_attention(layer_norm(x, ln1_g, ln1_b), p, heads)
    x = x + gelu(layer_norm(x, ln2_g, ln2_b) @ W1 + b1) @ W2 + b2
    """
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


def vit_forward(image, params):
    """Only the [CLS] row is normalised at the end: LayerNorm acts on each token alone."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    cls = layer_norm(x[:1], params["ln_g"], params["ln_b"])[0]
    return cls @ params["W_head"] + params["b_head"]


# --- Concepts (Practice 2, 3, 6) ------------------------------------------------------

# Each value is one option key (a string). The options are on the question sheet.
ANSWERS = {
    "positions": None,    # Practice 2: "permutation", "speed", "cls" or "resolution"
    "medical": None,      # Practice 3: "pretrained" or "scratch"
    "causal_mask": None,  # Practice 6: "bidirectional", "speed" or "leak"
}
ANSWERS["positions"] = " Permutation "
ANSWERS["medical"] = "pretrained"
ANSWERS["causal_mask"] = "Bidirectional"
