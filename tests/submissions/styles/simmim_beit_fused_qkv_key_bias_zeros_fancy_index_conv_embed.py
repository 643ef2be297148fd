"""Blind round 61 (b61_05, issue 38): a CORRECT port in an unusual style (must get full marks),
after microsoft/SimMIM `models/vision_transformer.py` (Mlp, Attention, Block, PatchEmbed,
VisionTransformer.forward_features): BEiT/SimMIM attention with a fused qkv weight and
`qkv_bias = concatenate(q_bias, zeros, v_bias)` (the key bias dropped, which cannot change the
softmax), `q = q * scale` before the product; PatchEmbed as a fancy-indexed einsum convolution
with `K = W_e.reshape(P, P, C, d)`; the counts through `to_2tuple`.

tests/test_catalogue.py requires full marks.

No mistakes (the key's check also ran extra randomised trials: heads 1, 3, 4 and 6 with and
without the causal mask, softmax along every axis near 900, a 4-D layer_norm, convolutions of
non-square images with C = 1, 2 and 3 and of 2-D images, uint8 patchify, non-square ViTs).

Grader: full marks at blind time (90d6c97e, 110/110) and now.
"""
import math

import numpy as np


def to_2tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x, x)


def num_patches(H, W, P):
    img_size = (H, W)
    patch_size = to_2tuple(P)
    if img_size[0] % patch_size[0] or img_size[1] % patch_size[1]:
        raise ValueError(f"Input image size ({H}*{W}) is not a multiple of the patch size {P}.")
    return (img_size[1] // patch_size[1]) * (img_size[0] // patch_size[0])


def num_tokens(H, W, P, cls_token=True):
    n = num_patches(H, W, P)
    if cls_token:
        n += 1
    return n


def patch_dim(P, C=3):
    patch_size = to_2tuple(P)
    return patch_size[0] * patch_size[1] * C


def attention_scores(num_tokens):
    N = num_tokens
    return N * N


def _to_hwc(image):
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[..., None]
    if x.ndim != 3:
        raise ValueError(f"expected (H, W) or (H, W, C), got {x.shape}")
    return x


def patchify(image, P):
    x = _to_hwc(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    gh, gw = H // P, W // P
    x = x.reshape(gh, P, gw, P, C)
    x = np.transpose(x, (0, 2, 1, 3, 4))
    return x.reshape(gh * gw, P * P * C)


def conv_patch_embed(image, K, b, stride):
    x = _to_hwc(image).astype(np.float64)
    k = K.shape[0]
    H, W, C = x.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} does not fit a {H}x{W} image")
    out_h = (H - k) // stride + 1
    out_w = (W - k) // stride + 1
    rows = np.arange(out_h)[:, None] * stride + np.arange(k)[None, :]   # (out_h, k)
    cols = np.arange(out_w)[:, None] * stride + np.arange(k)[None, :]   # (out_w, k)
    win = x[rows[:, None, :, None], cols[None, :, None, :], :]          # (out_h, out_w, k, k, C)
    return np.einsum('ijabc,abcd->ijd', win, K) + b


def linear_patch_embed(image, W_e, b_e, P):
    """PatchEmbed.forward: self.proj(x).flatten(2).transpose(1, 2)."""
    x = _to_hwc(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    proj_weight = np.asarray(W_e).reshape(P, P, C, -1)
    x = conv_patch_embed(x, proj_weight, b_e, P)
    return x.reshape(-1, x.shape[-1])


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_tokens = np.expand_dims(params["cls"], 0)  # stole cls_tokens impl from Phil Wang, thanks
    x = np.concatenate((cls_tokens, x), axis=0)
    if params.get("pos") is not None:
        x = x + params["pos"]
    return x


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    x_max = np.amax(x, axis=axis, keepdims=True)
    y = np.exp(x - x_max)
    return y / y.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=np.float64)
    mean = x.mean(-1, keepdims=True)
    var = np.square(x - mean).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    num_heads = heads
    if C % num_heads:
        raise ValueError(f"dim {C} is not divisible by num_heads {num_heads}")
    head_dim = C // num_heads
    all_head_dim = head_dim * num_heads
    scale = head_dim ** -0.5

    qkv_weight = np.concatenate((p["Wq"], p["Wk"], p["Wv"]), axis=1)
    qkv_bias = np.concatenate((p["bq"], np.zeros_like(p["bv"]), p["bv"]))
    qkv = x @ qkv_weight + qkv_bias
    qkv = qkv.reshape(N, 3, num_heads, -1).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]

    q = q * scale
    attn = q @ np.swapaxes(k, -2, -1)
    if causal:
        attn = np.where(np.triu(np.ones((N, N), dtype=bool), 1), -np.inf, attn)
    attn = softmax(attn, axis=-1)

    x = np.swapaxes(attn @ v, 0, 1).reshape(N, all_head_dim)
    x = x @ p["Wo"] + p["bo"]
    return x


def gelu(x):
    x = np.asarray(x, dtype=np.float64)
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[np.float64])(x / math.sqrt(2.0)))


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
    x = x[0]
    return x @ params["W_head"] + params["b_head"]


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
