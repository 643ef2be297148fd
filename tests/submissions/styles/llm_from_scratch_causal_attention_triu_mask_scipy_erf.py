"""Blind round 82 (b82_02, issue 38): ported from seankao31/llm-from-scratch
`causal_attention.py` (the whole file as delivered); correct: the book's CausalAttention /
MultiHeadAttention in numpy, separate query, key and value projections split into heads by
reshape, a `triu(k=1)` mask filled with -inf, the scale `keys.shape[-1] ** 0.5` (d_h), and the
exact GELU by `scipy.special.erf`. It raises ValueError where the solution does, and its counts
are Python ints.

tests/test_catalogue.py requires full marks.

Grader: at blind time (ee59f1b1) and now, 110/110.
"""
# ViT lab 4. Attention is ported from my CausalAttention / MultiHeadAttention torch modules
# (W_query, W_key, W_value, mask buffer with triu(diagonal=1) + masked_fill(-inf)).
import numpy as np
from scipy.special import erf


def num_patches(H, W, P):
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not divide {H}x{W}")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + int(bool(cls_token))


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens ** 2


def _to_hwc(image):
    image = np.asarray(image, dtype=float)
    if image.ndim == 2:
        image = image[..., None]
    if image.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    return image


def patchify(image, P):
    image = _to_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    gh, gw = H // P, W // P
    patches = image.reshape(gh, P, gw, P, C).transpose(0, 2, 1, 3, 4)
    return patches.reshape(gh * gw, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    image = _to_hwc(image)
    H, W, C = image.shape
    kH, kW = K.shape[0], K.shape[1]
    if kH > H or kW > W:
        raise ValueError("kernel does not fit in the image")
    H_out = (H - kH) // stride + 1
    W_out = (W - kW) // stride + 1
    C_out = K.shape[-1]
    weight = K.reshape(kH * kW * C, C_out)
    out = np.empty((H_out, W_out, C_out))
    for h in range(H_out):
        for w in range(W_out):
            hs, ws = h * stride, w * stride
            out[h, w] = image[hs:hs + kH, ws:ws + kW, :].reshape(-1) @ weight
    return out + b


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    patch_emb = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_token = np.asarray(params["cls"]).reshape(1, -1)
    x = np.concatenate((cls_token, patch_emb), axis=0)
    return x + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    x_max = np.max(x, axis=axis, keepdims=True)
    e = np.exp(x - x_max)
    return e / np.sum(e, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def self_attention(x, p, heads, causal=False):
    num_tokens, d_out = x.shape
    if d_out % heads != 0:
        raise ValueError("d_out must be divisible by num_heads")
    head_dim = d_out // heads

    queries = x @ p["Wq"] + p["bq"]
    keys = x @ p["Wk"] + p["bk"]
    values = x @ p["Wv"] + p["bv"]

    # (num_tokens, d_out) -> (num_heads, num_tokens, head_dim)
    queries = queries.reshape(num_tokens, heads, head_dim).transpose(1, 0, 2)
    keys = keys.reshape(num_tokens, heads, head_dim).transpose(1, 0, 2)
    values = values.reshape(num_tokens, heads, head_dim).transpose(1, 0, 2)

    attn_scores = queries @ keys.transpose(0, 2, 1)
    if causal:
        mask = np.triu(np.ones((num_tokens, num_tokens)), k=1).astype(bool)
        attn_scores = np.where(mask[None], -np.inf, attn_scores)

    attn_weights = softmax(attn_scores / keys.shape[-1] ** 0.5, axis=-1)
    context_vec = (attn_weights @ values).transpose(1, 0, 2).reshape(num_tokens, d_out)
    return context_vec @ p["Wo"] + p["bo"]


def gelu(x):
    return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))


def encoder_block(x, p, heads):
    shortcut = x
    x = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = self_attention(x, p, heads)
    x = x + shortcut

    shortcut = x
    x = layer_norm(x, p["ln2_g"], p["ln2_b"])
    x = gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return x + shortcut


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
