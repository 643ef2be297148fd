"""A correct submission (blind round 12, b12_15, issue 38) in an unusual style.

tests/test_catalogue.py requires full marks.

Source style ported: d2l.ai / plain-Python loops:
patches by list comprehension, the convolution as a shift-and-add over kernel offsets at stride 1
(d2l corr2d generalised) followed by subsampling [::stride, ::stride], softmax by moving the axis
to the end and back, attention as a loop over heads with the output projection split by rows
per head and summed, a causal mask added as -1e9, the tanh GELU (accepted by the API), logits
for every row with the [CLS] row picked after the head, and ANSWERS written with capitals and
spaces (the API says case and surrounding white space do not matter). No mistake intended.

Grader: full marks (109 / 109) at 30ff0c3.
"""
import math

import numpy as np


# --- Counting (Practice 1, 4, 5; section 4 step 1) ------------------------------------

def num_patches(H, W, P):
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError(f"P={P} must divide both H={H} and W={W}")
    count = 0
    for _ in range(0, H, P):
        for _ in range(0, W, P):
            count += 1
    return count


def num_tokens(H, W, P, cls_token=True):
    n = num_patches(H, W, P)
    if cls_token:
        n += 1
    return n


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
    image = np.asarray(image)
    if image.ndim == 2:
        image = image.reshape(image.shape[0], image.shape[1], 1)
    elif image.ndim != 3:
        raise ValueError("image must be 2-D or 3-D")
    H, W, C = image.shape
    num_patches(H, W, P)
    return np.array([image[r:r + P, c:c + P, :].reshape(-1)
                     for r in range(0, H, P) for c in range(0, W, P)]).reshape(-1, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): patchify(image, P) @ W_e + b_e, W_e (P*P*C, d), b_e (d,).

    Section 3 step 2, section 4 step 3: with W_e's first column all 0.25, the worked example's
    patch [1, 2, 3, 4] gets the first coordinate 2.5, its mean.
    """
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    image = _as_hwc(image)
    H, W, C = image.shape
    k, d = K.shape[0], K.shape[3]
    if k > H or k > W:
        raise ValueError("kernel larger than image")
    full = np.zeros((H - k + 1, W - k + 1, d))
    for a in range(k):
        for c in range(k):
            full += image[a:a + H - k + 1, c:c + W - k + 1, :] @ K[a, c]
    return full[::stride, ::stride] + b


def conv_equivalent(P):
    kernel_size = P
    stride = P
    return kernel_size, stride


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
    x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    out = e / e.sum(axis=-1, keepdims=True)
    return np.moveaxis(out, -1, axis)


def layer_norm(x, gamma, beta, eps=1e-6):
    mu = np.average(x, axis=-1)[..., None]
    centred = x - mu
    var = np.average(centred * centred, axis=-1)[..., None]
    return gamma * (centred / np.sqrt(var + eps)) + beta


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("heads must divide d")
    dh = d // heads
    Q = x @ p["Wq"] + p["bq"]
    K_ = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]
    out = np.zeros((T, d)) + p["bo"]
    for h in range(heads):
        cols = slice(h * dh, (h + 1) * dh)
        s = Q[:, cols] @ K_[:, cols].T / np.sqrt(dh)
        if causal:
            s = s + np.triu(np.ones((T, T)), k=1) * -1e9
        out += (softmax(s) @ V[:, cols]) @ p["Wo"][cols, :]
    return out


def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5):

    x = x + self_attention(layer_norm(x, ln1_g, ln1_b), p, heads)
    x = x + gelu(layer_norm(x, ln2_g, ln2_b) @ W1 + b1) @ W2 + b2
    """
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    logits = layer_norm(x, params["ln_g"], params["ln_b"]) @ params["W_head"] + params["b_head"]
    return logits[0]


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


ANSWERS["positions"] = " Permutation"


ANSWERS["medical"] = "Pretrained "


ANSWERS["causal_mask"] = "BIDIRECTIONAL"
