"""Blind round 62 (b62_03, issue 38): a CORRECT port in an unusual style (must get full marks),
after kingoflolz/mesh-transformer-jax `mesh_transformer/layers.py` (ReplicatedLayerNorm,
TransformerLayerShard.self_attn / ff / qvk_proj): heavy einsum (`"thd,Thd->htT"` scores,
`"htT,Thd->thd"` values, `"td,de->te"` output, einsum patch embedding and head); q, k, v
reshaped to `x.shape[:-1] + (heads, d_head)`; a -1e10 causal fill; conv_patch_embed's windows
gathered by fancy index arrays, (h_out, w_out, k, k, C), and `np.einsum("hwijc,ijcd->hwd")`;
patchify through `np.einsum("hpwqc->hwpqc")`.

tests/test_catalogue.py requires full marks.

No mistakes (the key's check also ran extra trials: uint8 images, 2-D and non-square, for
patchify and the convolution; a 4-D layer_norm; softmax along axes 0 and 2 and near 5000; heads
1, 6 and 12 with and without the causal mask; refusals of widths heads do not divide and of
sizes that do not tile).

Grader: full marks at blind time (90d6c97e, 110/110) and now.
"""
import math

import numpy as np


def num_patches(H, W, P):
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError(f"{P} does not tile {H}x{W}")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + int(bool(cls_token))


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def _image(image):
    image = np.asarray(image)
    if image.ndim == 2:
        return image[:, :, None]
    if image.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    return image


def patchify(image, P):
    image = _image(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    grid = image.reshape(H // P, P, W // P, P, C)
    return np.einsum("hpwqc->hwpqc", grid).reshape(-1, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    return np.einsum("nf,fd->nd", patchify(image, P), W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    image = _image(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel exceeds the image")
    h_out = (H - k) // stride + 1
    w_out = (W - k) // stride + 1
    rows = np.arange(h_out)[:, None] * stride + np.arange(k)[None, :]    # (h_out, k)
    cols = np.arange(w_out)[:, None] * stride + np.arange(k)[None, :]    # (w_out, k)
    windows = image[rows[:, None, :, None], cols[None, :, None, :]]       # (h_out, w_out, k, k, C)
    return np.einsum("hwijc,ijcd->hwd", windows, K) + b


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = np.concatenate([params["cls"][None], x], axis=0)
    return x + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    x = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    # ReplicatedLayerNorm.__call__
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.mean(np.square(x - mean), axis=-1, keepdims=True)
    inv = gamma * (1.0 / np.sqrt(variance + eps))
    return inv * (x - mean) + beta


def self_attention(x, p, heads, causal=False):
    seq_len, d_model = x.shape
    if d_model % heads:
        raise ValueError("d_model must be divisible by heads")
    d_head = d_model // heads

    # qvk_proj
    q = (x @ p["Wq"] + p["bq"]).reshape(x.shape[:-1] + (heads, d_head))
    v = (x @ p["Wv"] + p["bv"]).reshape(x.shape[:-1] + (heads, d_head))
    k = (x @ p["Wk"] + p["bk"]).reshape(x.shape[:-1] + (heads, d_head))

    # self_attn
    attention_logits = np.einsum("thd,Thd->htT", q, k)
    sqrt_key_size = np.sqrt(d_head).astype(k.dtype)
    attention_logits = attention_logits / sqrt_key_size
    if causal:
        attention_mask = np.tril(np.ones((seq_len, seq_len)))
        attention_logits = np.where(attention_mask[None], attention_logits, -1e10)
    attention_weights = softmax(attention_logits, axis=-1)
    attention_vec = np.einsum("htT,Thd->thd", attention_weights, v).reshape((-1, d_model))
    return np.einsum("td,de->te", attention_vec, p["Wo"]) + p["bo"]


def gelu(x):
    return 0.5 * x * (1 + np.vectorize(math.erf, otypes=[float])(x / math.sqrt(2)))


def ff(x, p):
    dense_proj = np.einsum("td,df->tf", x, p["W1"]) + p["b1"]
    dense_proj = gelu(dense_proj)
    return np.einsum("tf,fd->td", dense_proj, p["W2"]) + p["b2"]


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    return x + ff(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)


def vit_forward(image, params):
    x = embed_image(image, params)
    for layer in params["blocks"]:
        x = encoder_block(x, layer, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return np.einsum("d,dc->c", x[0], params["W_head"]) + params["b_head"]


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
