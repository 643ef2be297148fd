"""A correct submission that works in float32 throughout: every input is cast to float32 and
every result is float32 (as on a GPU). The grader's tolerances must accept it.
"""
import math

import numpy as np

F = np.float32


def num_patches(H, W, P):
    if H % P or W % P:
        raise ValueError("P does not tile the image")
    return H // P * (W // P)


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + int(cls_token)


def patch_dim(P, C=3):
    return P ** 2 * C


def attention_scores(num_tokens):
    return num_tokens ** 2


def patchify(image, P):
    image = np.asarray(image, dtype=F)
    if image.ndim == 2:
        image = image[..., None]
    elif image.ndim != 3:
        raise ValueError("image must be 2-D or 3-D")
    H, W, C = image.shape
    num_patches(H, W, P)
    return image.reshape(H // P, P, W // P, P, C).swapaxes(1, 2).reshape(-1, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ np.asarray(W_e, F) + np.asarray(b_e, F)


def conv_patch_embed(image, K, b, stride):
    image = np.asarray(image, F)
    if image.ndim == 2:
        image = image[..., None]
    K = np.asarray(K, F)
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError("kernel larger than image")
    Ho, Wo = (H - k) // stride + 1, (W - k) // stride + 1
    out = np.empty((Ho, Wo, K.shape[3]), F)
    flat_K = K.reshape(-1, K.shape[3])
    for i in range(Ho):
        for j in range(Wo):
            out[i, j] = image[i * stride:i * stride + k, j * stride:j * stride + k].reshape(-1) @ flat_K
    return out + np.asarray(b, F)


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls = np.asarray(params["cls"], F)[None]
    return np.concatenate([cls, tokens]) + np.asarray(params["pos"], F)


def softmax(x, axis=-1):
    x = np.asarray(x, F)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, F)
    mean = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return ((x - mean) / np.sqrt(var + F(eps)) * np.asarray(gamma, F) + np.asarray(beta, F)).astype(F)


def _f32(p):
    return {name: np.asarray(value, F) for name, value in p.items()}


def self_attention(x, p, heads, causal=False):
    x, p = np.asarray(x, F), _f32(p)
    T, d = x.shape
    if d % heads:
        raise ValueError("d must be a multiple of heads")
    d_h = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    scores = q @ k.transpose(0, 2, 1) * F(1 / math.sqrt(d_h))
    if causal:
        scores[:, np.triu_indices(T, 1)[0], np.triu_indices(T, 1)[1]] = -np.inf
    out = (softmax(scores) @ v).transpose(1, 0, 2).reshape(T, d)
    return out @ p["Wo"] + p["bo"]


_erf = np.vectorize(math.erf, otypes=[F])


def gelu(x):
    x = np.asarray(x, F)
    return F(0.5) * x * (F(1) + _erf(x / F(math.sqrt(2))))


def encoder_block(x, p, heads):
    x, p = np.asarray(x, F), _f32(p)
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    return x + gelu(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ np.asarray(params["W_head"], F) + np.asarray(params["b_head"], F)


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
