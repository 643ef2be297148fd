"""Blind round 61 (b61_11, issue 38): a CORRECT port in an unusual style (must get full marks),
after sail-sg/volo `models/volo.py` (Mlp, Attention, Transformer, Downsample, PatchEmbed, VOLO
forward): a Downsample-style convolution (permuted to torch's (C, H, W) with OIHW weights, one
einsum per kernel offset, permuted back); linear_patch_embed through that convolution with
`W_e.reshape(P, P, C, d)`; an in-place `np.exp(..., out=...)` softmax; VOLO Attention's
reshape/permute of q, k and v.

tests/test_catalogue.py requires full marks.

No mistakes (the key's check also ran extra randomised trials: heads 1, 3, 4 and 6 with and
without the causal mask, softmax along every axis near 900, a 4-D layer_norm, convolutions of
non-square images with C = 1, 2 and 3 and of 2-D images, uint8 patchify, non-square ViTs).

Grader: full marks at blind time (90d6c97e, 110/110) and now.
"""
import math

import numpy as np


def num_patches(H, W, P):
    if H % P != 0 or W % P != 0:
        raise ValueError(f"patch size {P} does not tile {H}x{W}")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def _bhwc(image):
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    return x


def conv_patch_embed(image, K, b, stride):
    """Downsample.proj on an (H, W, C) map: x.permute(0, 3, 1, 2) -> conv -> permute(0, 2, 3, 1)."""
    x = _bhwc(image).astype(float).transpose(2, 0, 1)      # C, H, W
    C, H, W = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel_size larger than the input")
    weight = K.transpose(3, 2, 0, 1)                       # out, in, kh, kw (torch layout)
    Ho, Wo = (H - k) // stride + 1, (W - k) // stride + 1
    out = np.zeros((weight.shape[0], Ho, Wo))
    for kh in range(k):
        for kw in range(k):
            xs = x[:, kh:kh + stride * (Ho - 1) + 1:stride, kw:kw + stride * (Wo - 1) + 1:stride]
            out += np.einsum("oc,chw->ohw", weight[:, :, kh, kw], xs)
    out = out + b[:, None, None]
    return out.transpose(1, 2, 0)                          # H', W', C


def patchify(image, P):
    x = _bhwc(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    x = x.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4)
    return x.reshape(-1, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    x = _bhwc(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    y = conv_patch_embed(x, np.asarray(W_e).reshape(P, P, C, -1), b_e, P)  # B, H, W, C
    Hp, Wp, D = y.shape
    return y.reshape(Hp * Wp, D)


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_tokens = params["cls"][None, :]
    x = np.concatenate([cls_tokens, x], axis=0)
    return x + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    x = x - np.max(x, axis=axis, keepdims=True)
    np.exp(x, out=x)
    x /= np.sum(x, axis=axis, keepdims=True)
    return x


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    mean = x.mean(-1, keepdims=True)
    xc = x - mean
    var = (xc * xc).mean(-1, keepdims=True)
    return xc / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    num_heads = heads
    if C % num_heads != 0:
        raise ValueError("dim must be divisible by num_heads")
    head_dim = C // num_heads
    scale = head_dim ** -0.5
    qkv = np.concatenate([x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]], axis=-1)
    qkv = qkv.reshape(N, 3, num_heads, C // num_heads).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]
    attn = (q @ k.transpose(0, 2, 1)) * scale
    if causal:
        attn = np.where(np.tril(np.ones((N, N), dtype=bool))[None], attn, -np.inf)
    attn = softmax(attn, axis=-1)
    x = (attn @ v).transpose(1, 0, 2).reshape(N, C)
    return x @ p["Wo"] + p["bo"]


def gelu(x):
    x = np.asarray(x, dtype=float)
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(x / math.sqrt(2.0)))


def mlp(x, p):
    x = x @ p["W1"] + p["b1"]
    x = gelu(x)
    x = x @ p["W2"] + p["b2"]
    return x


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
    return x


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
