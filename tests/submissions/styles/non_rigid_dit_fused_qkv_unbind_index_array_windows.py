"""Blind round 78 (b78_09, issue 38): a CORRECT port in an unusual style (must get full marks):
ported from sriramsk1999/non-rigid `src/non_rigid/models/dit/models.py` (the timm-style Attention
used there): one fused qkv projection, `concat(Wq, Wk, Wv)` reshaped to (N, 3, heads, head_dim),
permuted and unbound; the exact GELU through scipy.special.erf; convolution windows gathered with
index arrays.

tests/test_catalogue.py requires full marks.

No mistakes (the key checked every shape, non-square images, 1/2/4 heads, causal, 3-D softmax
and layer_norm, the ValueErrors and int counts, all at 1e-6).

Grader: at blind time (ddfccf96) and now, 110/110.
"""
# The delivered file's comment: attention is written the timm/DiT way: one fused qkv
# projection, reshape to (N, 3, num_heads, head_dim), permute, unbind.
import math

import numpy as np
from scipy.special import erf


def num_patches(H, W, P):
    if P < 1 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    grid_size = (H // P, W // P)
    return grid_size[0] * grid_size[1]


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def _as_image(image):
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError(f"expected (H, W) or (H, W, C), got {x.shape}")
    return x


def patchify(image, P):
    x = _as_image(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    h, w = H // P, W // P
    x = x.reshape(h, P, w, P, C)
    x = np.einsum('hpwqc->hwpqc', x)
    return x.reshape(h * w, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    x = _as_image(image).astype(float)
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} exceeds image {H}x{W}")
    Ho, Wo = (H - k) // stride + 1, (W - k) // stride + 1
    rows = np.arange(Ho)[:, None] * stride + np.arange(k)[None, :]     # (Ho, k)
    cols = np.arange(Wo)[:, None] * stride + np.arange(k)[None, :]     # (Wo, k)
    win = x[rows[:, None, :, None], cols[None, :, None, :]]           # (Ho, Wo, k, k, C)
    return np.einsum('hwpqc,pqcd->hwd', win, K) + b


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = np.concatenate((params["cls"][None, :], x), axis=0)
    return x + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    x_max = np.max(x, axis=axis, keepdims=True)
    e = np.exp(x - x_max)
    return e / np.sum(e, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    u = x.mean(-1, keepdims=True)
    s = ((x - u) ** 2).mean(-1, keepdims=True)
    return gamma * ((x - u) / np.sqrt(s + eps)) + beta


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    if C % heads != 0:
        raise ValueError("dim must be divisible by num_heads")
    head_dim = C // heads
    scale = head_dim ** -0.5
    w_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)      # (C, 3C)
    b_qkv = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ w_qkv + b_qkv).reshape(N, 3, heads, head_dim).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]                                  # (heads, N, head_dim)
    attn = (q * scale) @ k.transpose(0, 2, 1)
    if causal:
        attn = np.where(np.tril(np.ones((N, N), dtype=bool)), attn, -np.inf)
    attn = softmax(attn, axis=-1)
    x = (attn @ v).transpose(1, 0, 2).reshape(N, C)
    return x @ p["Wo"] + p["bo"]


def gelu(x):
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def mlp(x, p):
    return gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
    return x


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
