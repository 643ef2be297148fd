"""Blind round 72 (b72_02, issue 38): a CORRECT port in an unusual style (must get full marks):
ported from Yourself1011/ai `utils.py`; correct: camelCase helpers that return tuples
(`layerNorm` returns result, z, mean and var; `geluFull` returns the tanh GELU with its
intermediates, unpacked by encoder_block), no `gelu` of its own, a softmax with a temperature
`T` and `np.e **` after the max is subtracted, a per-head loop over column slices joined by
`np.hstack`, an `np.where(tril == 1, att, -inf)` causal mask, patch loops. GELU's tanh
approximation, which the student API accepts.

tests/test_catalogue.py requires full marks.

No mistakes (the key's strict check differs only on encoder_block and vit_forward, by the
tanh-vs-erf gap; with the reference's gelu switched to tanh every check passes).

Grader: at blind time (2df48139) and now, 110/110.
"""
# vit_exercises.py - lab 4
# helpers written like my utils.py from the gpt project (camelCase, numpy only)
import numpy as np
import numpy.typing as npt

# --- counting ---


def num_patches(H, W, P):
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError("patch size has to divide the image")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    n = num_patches(H, W, P)
    if cls_token:
        n += 1
    return n


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens ** 2


# --- patches ---


def toHWC(image):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, np.newaxis]
    elif image.ndim != 3:
        raise ValueError("image must be 2d or 3d")
    return image


def patchify(image, P):
    image = toHWC(image)
    H, W, C = image.shape
    nH = H // P
    nW = W // P
    num_patches(H, W, P)  # raises if it doesnt tile
    rows = []
    for i in range(nH):
        for j in range(nW):
            patch = image[i * P : (i + 1) * P, j * P : (j + 1) * P, :]
            rows.append(patch.reshape(-1))  # row, col, channel
    return np.stack(rows)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    image = toHWC(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel bigger than image")
    outH = (H - k) // stride + 1
    outW = (W - k) // stride + 1
    flatK = K.reshape(k * k * C, -1)
    out = np.zeros((outH, outW, flatK.shape[1]))
    for i in range(outH):
        for j in range(outW):
            window = image[i * stride : i * stride + k, j * stride : j * stride + k, :]
            out[i, j] = window.reshape(-1) @ flatK + b
    return out


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    tokens = np.vstack([params["cls"][np.newaxis, :], tokens])
    return tokens + params["pos"]


# --- transformer bits ---

geluCoefficient = np.sqrt(2 / np.pi)


def geluFull(x):
    inside = geluCoefficient * (x + 0.044715 * x**3)
    tanh = np.tanh(inside)
    return 0.5 * x * (1 + tanh), tanh, inside


def softmax(x, axis=-1, T: float = 1):
    adj = x / T if T != 1 else x
    exp = np.e ** (
        adj - adj.max(axis, keepdims=True)
    )  # we subtract the highest number, to keep values from getting too big
    res = exp / exp.sum(axis, keepdims=True)
    return res


def layerNorm(x: npt.NDArray, g: npt.NDArray, b: npt.NDArray, eps=1e-6):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)

    z = (x - mean) / np.sqrt(var + eps)
    result = z * g + b
    return result, z, mean, var


def layer_norm(x, gamma, beta, eps=1e-6):
    return layerNorm(x, gamma, beta, eps)[0]


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("heads must divide d")
    hs = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    outs = []
    for h in range(heads):
        qh = q[:, h * hs : (h + 1) * hs]
        kh = k[:, h * hs : (h + 1) * hs]
        vh = v[:, h * hs : (h + 1) * hs]
        att = qh @ kh.T / np.sqrt(hs)
        if causal:
            att = np.where(np.tril(np.ones((T, T))) == 1, att, -np.inf)
        outs.append(softmax(att) @ vh)
    return np.hstack(outs) @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    hidden, _, _ = geluFull(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"])
    return x + hidden @ p["W2"] + p["b2"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
