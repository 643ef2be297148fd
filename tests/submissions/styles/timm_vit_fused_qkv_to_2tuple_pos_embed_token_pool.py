"""Blind round 72 (b72_01, issue 38): a CORRECT port in an unusual style (must get full marks):
ported from huggingface/pytorch-image-models `timm/models/vision_transformer.py`; correct: the
timm VisionTransformer's layout as functions, `_to_2tuple` for the patch size, a fused qkv
projection (`concat[Wq|Wk|Wv]`, `reshape(N, 3, heads, head_dim).transpose(1, 2, 0, 3)`) with q
scaled by `head_dim ** -0.5` before the product, an additive `triu(full(-inf), k=1)` causal mask,
`np.tensordot(win, K, axes=3)` per window, `_pos_embed` with the class token first,
`partial(layer_norm, gamma=..., beta=...)` norms, scipy's erf for GELU, global_pool='token'.

tests/test_catalogue.py requires full marks.

No mistakes (the key checked every function against the solution on square and non-square
images, C = 1/2/3 and 2-D images, heads 1-4, causal on and off, and every ValueError asked for).

Grader: at blind time (2df48139) and now, 110/110.
"""
# Vision Transformer (ViT) lab, numpy port
#
# Lab 4 submission. Structure follows the timm VisionTransformer
# (timm/models/vision_transformer.py): PatchEmbed -> _pos_embed -> blocks -> norm -> pool -> head,
# with the fused-qkv Attention turned into plain functions over a param dict.
#
# Acknowledgments:
# * timm (Ross Wightman) for the layout of Attention / Mlp / Block

import math
from functools import partial

import numpy as np
from scipy.special import erf


# --- counting --------------------------------------------------------------------------

def _to_2tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x, x)


def num_patches(H, W, P):
    patch_size = _to_2tuple(P)
    img_size = (H, W)
    if patch_size[0] <= 0 or img_size[0] % patch_size[0] != 0 or img_size[1] % patch_size[1] != 0:
        raise ValueError(f"Input height ({img_size[0]}) / width ({img_size[1]}) not divisible by patch size {patch_size}")
    grid_size = (img_size[0] // patch_size[0], img_size[1] // patch_size[1])
    return grid_size[0] * grid_size[1]


def num_tokens(H, W, P, cls_token=True):
    num_prefix_tokens = 1 if cls_token else 0
    return num_patches(H, W, P) + num_prefix_tokens


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


# --- PatchEmbed ------------------------------------------------------------------------

def _nhwc(x):
    x = np.asarray(x, dtype=float)
    if x.ndim == 2:
        x = x[..., None]
    if x.ndim != 3:
        raise ValueError(f"expected (H, W) or (H, W, C) image, got {x.shape}")
    return x


def patchify(image, P):
    x = _nhwc(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    gh, gw = H // P, W // P
    # NHWC -> (gh, p, gw, p, C) -> (gh, gw, p, p, C), flatten like the jax checkpoint kernel
    x = x.reshape(gh, P, gw, P, C).transpose(0, 2, 1, 3, 4)
    return x.reshape(gh * gw, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    x = _nhwc(image)
    H, W, C = x.shape
    kh, kw = K.shape[0], K.shape[1]
    if kh > H or kw > W:
        raise ValueError(f"kernel {kh}x{kw} larger than input {H}x{W}")
    out_h = (H - kh) // stride + 1
    out_w = (W - kw) // stride + 1
    out = np.empty((out_h, out_w, K.shape[-1]))
    for i in range(out_h):
        for j in range(out_w):
            win = x[i * stride:i * stride + kh, j * stride:j * stride + kw, :]
            out[i, j] = np.tensordot(win, K, axes=3)
    return out + b


def conv_equivalent(P):
    # PatchEmbed.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
    return (P, P)


def _pos_embed(x, cls_token, pos_embed):
    # class token first, then the position embedding over all tokens (no_embed_class=False)
    x = np.concatenate([cls_token.reshape(1, -1), x], axis=0)
    return x + pos_embed


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    return _pos_embed(x, params["cls"], params["pos"])


# --- Attention / Mlp / Block -----------------------------------------------------------

def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    x = x - x.max(axis=axis, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    # norm_layer = partial(nn.LayerNorm, eps=1e-6)
    u = x.mean(-1, keepdims=True)
    s = ((x - u) ** 2).mean(-1, keepdims=True)
    return (x - u) / np.sqrt(s + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    if C % heads != 0:
        raise ValueError("dim should be divisible by num_heads")
    num_heads = heads
    head_dim = C // num_heads
    scale = head_dim ** -0.5

    # fused qkv: one (C, 3C) projection
    qkv_w = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    qkv_b = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ qkv_w + qkv_b).reshape(N, 3, num_heads, head_dim).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]

    q = q * scale
    attn = q @ k.transpose(0, 2, 1)
    if causal:
        attn = attn + np.triu(np.full((N, N), -np.inf), k=1)
    attn = softmax(attn, axis=-1)
    x = attn @ v

    x = x.transpose(1, 0, 2).reshape(N, C)
    x = x @ p["Wo"] + p["bo"]
    return x


def gelu(x):
    # nn.GELU default (approximate='none')
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def _mlp(x, p):
    x = gelu(x @ p["W1"] + p["b1"])
    return x @ p["W2"] + p["b2"]


def encoder_block(x, p, heads):
    norm1 = partial(layer_norm, gamma=p["ln1_g"], beta=p["ln1_b"])
    norm2 = partial(layer_norm, gamma=p["ln2_g"], beta=p["ln2_b"])
    x = x + self_attention(norm1(x), p, heads)
    x = x + _mlp(norm2(x), p)
    return x


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    # global_pool == 'token'
    x = x[0]
    return x @ params["W_head"] + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
