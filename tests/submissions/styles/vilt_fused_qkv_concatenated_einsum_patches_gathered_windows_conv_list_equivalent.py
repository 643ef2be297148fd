"""Blind round 58 (b58_05, issue 38): a CORRECT port in an unusual style (must get full marks),
after dandelin/ViLT `vilt/modules/vision_transformer.py` (PatchEmbed, Attention, Mlp, Block,
VisionTransformer.visual_embed / forward_features), timm/ViLT classes flattened into functions:
a top-level `to_2tuple`; patchify by `np.einsum("hpwqc->hwpqc")` on the (h, P, w, P, C) reshape
after num_patches' tiling check; conv_patch_embed with its windows gathered by index arrays
(`x[rows[:, None, :, None], cols[None, :, None, :]]`, (H', W', kh, kw, C)) and
`np.einsum("ijabc,abcd->ijd")`; `conv_equivalent` returns a list, `[P, P]`; self_attention with
timm's fused qkv, the weight built by concatenating Wq | Wk | Wv and split by
`reshape(N, 3, heads, C // heads).transpose(1, 2, 0, 3)`, a tril keep-mask with -inf when
causal; exact-erf GELU through `np.vectorize(math.erf)`.

tests/test_catalogue.py requires full marks.

No mistakes.

Grader: full marks at blind time (ba46f523, 110/110) and now.
"""
import math

import numpy as np


def to_2tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x, x)


def num_patches(H, W, P):
    img_size, patch_size = (H, W), to_2tuple(P)
    if img_size[0] % patch_size[0] or img_size[1] % patch_size[1]:
        raise ValueError(f"Input image size ({H}*{W}) is not a multiple of patch size {P}")
    return (img_size[1] // patch_size[1]) * (img_size[0] // patch_size[0])


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    ph, pw = to_2tuple(P)
    return ph * pw * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def _image(x):
    x = np.asarray(x)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError("expected an (H, W) or (H, W, C) image")
    return x


def patchify(image, P):
    x = _image(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    ph = pw = P
    x = x.reshape(H // ph, ph, W // pw, pw, C)
    x = np.einsum("hpwqc->hwpqc", x)
    return x.reshape((H // ph) * (W // pw), ph * pw * C)


def linear_patch_embed(image, W_e, b_e, P):
    # PatchEmbed.proj as a linear map over flattened patches
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    x = _image(image)
    H, W, C = x.shape
    kh, kw = K.shape[0], K.shape[1]
    if kh > H or kw > W:
        raise ValueError("kernel size can't be greater than actual input size")
    Hp = (H - kh) // stride + 1
    Wp = (W - kw) // stride + 1
    rows = np.arange(Hp)[:, None] * stride + np.arange(kh)[None, :]  # (Hp, kh)
    cols = np.arange(Wp)[:, None] * stride + np.arange(kw)[None, :]  # (Wp, kw)
    win = x[rows[:, None, :, None], cols[None, :, None, :]]            # (Hp, Wp, kh, kw, C)
    return np.einsum("ijabc,abcd->ijd", win, K) + b


def conv_equivalent(P):
    return [P, P]


def embed_image(image, params):
    # visual_embed: patch_embed, cat cls_token, + pos_embed
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_tokens = params["cls"].reshape(1, -1)
    x = np.concatenate((cls_tokens, x), axis=0)
    x = x + params["pos"]
    return x


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    m = np.max(x, axis=axis, keepdims=True)
    y = np.exp(x - m)
    return y / y.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    # Attention.forward with the fused qkv Linear
    N, C = x.shape
    num_heads = heads
    if C % num_heads:
        raise ValueError("dim should be divisible by num_heads")
    head_dim = C // num_heads
    scale = head_dim ** -0.5
    qkv_w = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    qkv_b = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ qkv_w + qkv_b).reshape(N, 3, num_heads, C // num_heads).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]
    attn = (q @ k.transpose(0, 2, 1)) * scale
    if causal:
        mask = np.tril(np.ones((N, N), dtype=bool))
        attn = np.where(mask[None], attn, -np.inf)
    attn = softmax(attn, axis=-1)
    x = (attn @ v).transpose(1, 0, 2).reshape(N, C)
    x = x @ p["Wo"] + p["bo"]
    return x


def gelu(x):
    x = np.asarray(x, dtype=float)
    erf = np.vectorize(math.erf, otypes=[float])
    return x * 0.5 * (1.0 + erf(x / math.sqrt(2.0)))


def mlp(x, p):
    x = x @ p["W1"] + p["b1"]
    x = gelu(x)
    return x @ p["W2"] + p["b2"]


def encoder_block(x, p, heads):
    # Block.forward
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
