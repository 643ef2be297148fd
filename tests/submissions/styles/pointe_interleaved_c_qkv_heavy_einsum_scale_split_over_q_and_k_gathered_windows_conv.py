"""Blind round 58 (b58_11, issue 38): a CORRECT port in an unusual style (must get full marks),
after openai/point-e `point_e/models/transformer.py` (MultiheadAttention, QKVMultiheadAttention,
MLP, ResidualAttentionBlock, Transformer), with heavy `np.einsum`: patchify by
`np.einsum("apbqc->abpqc")`; linear_patch_embed as `np.einsum("nf,fd->nd")`; conv_patch_embed with
its windows gathered by fancy indexing (`x[ii][:, :, jj]`, (H', k, W', k, C)) and
`np.einsum("apbqc,pqcd->abd")`; self_attention packs Wq, Wk, Wv (and their biases) into point-e's
per-head interleaved `c_qkv` layout, (width, heads, 3, attn_ch), projects once, splits each
head's slice into q, k, v, and applies the scale `1 / sqrt(sqrt(attn_ch))` to both q and k
(`np.einsum("thc,shc->hts", q * scale, k * scale)`), a tril keep-mask with -inf when causal.

tests/test_catalogue.py requires full marks.

No mistakes.

Grader: full marks at blind time (ba46f523, 110/110) and now.
"""
import math

import numpy as np


def num_patches(H, W, P):
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError("patch size must divide both sides")
    return int((H // P) * (W // P))


def num_tokens(H, W, P, cls_token=True):
    n_ctx = num_patches(H, W, P)
    if cls_token:
        n_ctx += 1
    return n_ctx


def patch_dim(P, C=3):
    return int(P * P * C)


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def _hwc(image):
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError("image must be 2-D or 3-D")
    return x


def patchify(image, P):
    x = _hwc(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    x = np.einsum("apbqc->abpqc", x.reshape(H // P, P, W // P, P, C))
    return x.reshape(-1, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    return np.einsum("nf,fd->nd", patchify(image, P), W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    x = _hwc(image)
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel larger than the image")
    oh, ow = (H - k) // stride + 1, (W - k) // stride + 1
    ii = (np.arange(oh) * stride)[:, None] + np.arange(k)[None, :]  # (oh, k)
    jj = (np.arange(ow) * stride)[:, None] + np.arange(k)[None, :]  # (ow, k)
    windows = x[ii][:, :, jj]                                       # (oh, k, ow, k, C)
    return np.einsum("apbqc,pqcd->abd", windows, K) + b


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    h = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    h = np.concatenate([params["cls"][None], h], axis=0)
    return h + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    x = x - x.max(axis=axis, keepdims=True)
    w = np.exp(x)
    return w / w.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean(np.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def _c_qkv(p, heads):
    """Pack Wq, Wk, Wv into c_qkv with point-e's per-head [q | k | v] layout."""
    width = p["Wq"].shape[0]
    attn_ch = width // heads
    w = np.stack([p["Wq"].reshape(width, heads, attn_ch),
                  p["Wk"].reshape(width, heads, attn_ch),
                  p["Wv"].reshape(width, heads, attn_ch)], axis=2)  # (width, heads, 3, attn_ch)
    b = np.stack([p["bq"].reshape(heads, attn_ch),
                  p["bk"].reshape(heads, attn_ch),
                  p["bv"].reshape(heads, attn_ch)], axis=1)          # (heads, 3, attn_ch)
    return w.reshape(width, 3 * width), b.reshape(3 * width)


def qkv_multihead_attention(qkv, heads, causal=False):
    n_ctx, width = qkv.shape
    attn_ch = width // heads // 3
    scale = 1 / math.sqrt(math.sqrt(attn_ch))
    qkv = qkv.reshape(n_ctx, heads, -1)
    q, k, v = np.split(qkv, 3, axis=-1)
    weight = np.einsum("thc,shc->hts", q * scale, k * scale)
    if causal:
        weight = np.where(np.tril(np.ones((n_ctx, n_ctx), dtype=bool))[None], weight, -np.inf)
    weight = softmax(weight, axis=-1)
    return np.einsum("hts,shc->thc", weight, v).reshape(n_ctx, -1)


def self_attention(x, p, heads, causal=False):
    width = x.shape[-1]
    if width % heads:
        raise ValueError("width must be divisible by heads")
    w, b = _c_qkv(p, heads)
    x = x @ w + b
    x = qkv_multihead_attention(x, heads, causal)
    return x @ p["Wo"] + p["bo"]


def gelu(x):
    erf = np.vectorize(math.erf, otypes=[np.float64])
    return 0.5 * x * (1.0 + erf(np.asarray(x, dtype=np.float64) / math.sqrt(2.0)))


def mlp(x, p):
    return gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
    return x


def vit_forward(image, params):
    h = embed_image(image, params)
    for block in params["blocks"]:
        h = encoder_block(h, block, params["heads"])
    h = layer_norm(h, params["ln_g"], params["ln_b"])
    return h[0] @ params["W_head"] + params["b_head"]


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
