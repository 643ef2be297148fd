"""Blind round 59 (b59_05, issue 38): a CORRECT port in an unusual style (must get full marks),
after hila-chefer/Transformer-Explainability `baselines/ViT/ViT_new.py` (Mlp, Attention, Block,
PatchEmbed, VisionTransformer): einsum throughout: the scores `'hid,hjd->hij'` and the weighted
sum `'hij,hjd->hid'`, einops' rearrange as a reshape and an einsum permutation
(`"hpwqc->hwpqc"`, `"hnd->nhd"`), conv_patch_embed as one einsum per output row over gathered
columns (`band[:, cols, :]`), softmax's and layer_norm's sums by einsum (`"...i->..."`), the
fused qkv from Wq | Wk | Wv reshaped `(n, 3, h, head_dim)`, a `to_2tuple` patch size.

tests/test_catalogue.py requires full marks.

No mistakes (the key's check also ran 25 extra randomised trials: non-square grids, C = 1/3,
heads 1/2/4, causal masks, softmax on every axis, batched layer_norm far from zero, and uint8
gray images).

Grader: full marks at blind time (528b2ec3, 110/110) and now.
"""
import math

import numpy as np


def to_2tuple(x):
    return x if isinstance(x, tuple) else (x, x)


def num_patches(H, W, P):
    img_size = (H, W)
    patch_size = to_2tuple(P)
    if patch_size[0] <= 0 or img_size[0] % patch_size[0] or img_size[1] % patch_size[1]:
        raise ValueError(f"Input image size ({H}*{W}) is not tiled by patch size {P}.")
    return (img_size[1] // patch_size[1]) * (img_size[0] // patch_size[0])


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + int(bool(cls_token))


def patch_dim(P, C=3):
    return int(np.prod(to_2tuple(P))) * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def _image(image):
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[..., None]
    if x.ndim != 3:
        raise ValueError(f"expected (H, W) or (H, W, C), got {x.shape}")
    return x


def patchify(image, P):
    """rearrange(x, '(h p1) (w p2) c -> (h w) (p1 p2 c)')"""
    x = _image(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    h, w = H // P, W // P
    x = x.reshape(h, P, w, P, C)
    x = np.einsum("hpwqc->hwpqc", x)
    return x.reshape(h * w, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    return np.einsum("nf,fd->nd", patchify(image, P), W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    """PatchEmbed.proj (a Conv2d) written as one einsum per output row."""
    x = _image(image).astype(float)
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} larger than image {H}x{W}")
    Ho, Wo = (H - k) // stride + 1, (W - k) // stride + 1
    cols = stride * np.arange(Wo)[:, None] + np.arange(k)[None, :]  # (Wo, k)
    out = np.empty((Ho, Wo, K.shape[-1]))
    for i in range(Ho):
        band = x[i * stride:i * stride + k]                # (k, W, C)
        windows = band[:, cols, :]                         # (k, Wo, k, C)
        out[i] = np.einsum("pwqc,pqcd->wd", windows, K) + b
    return out


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_tokens = params["cls"][None, :]
    x = np.concatenate((cls_tokens, x), axis=0)
    x = x + params["pos"]
    return x


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    x = np.moveaxis(x, axis, -1)
    e = np.exp(x - x.max(-1, keepdims=True))
    out = e / np.einsum("...j->...", e)[..., None]
    return np.moveaxis(out, -1, axis)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    mu = np.einsum("...i->...", x)[..., None] / d
    xc = x - mu
    var = np.einsum("...i,...i->...", xc, xc)[..., None] / d
    return xc / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    """Attention.forward: qkv -> rearrange 'n (qkv h d) -> qkv h n d', einsum scores."""
    n, dim = x.shape
    h = heads
    if dim % h:
        raise ValueError(f"dim {dim} must be divisible by num_heads {h}")
    head_dim = dim // h
    scale = head_dim ** -0.5

    w_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    b_qkv = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = np.einsum("nc,cf->nf", x, w_qkv) + b_qkv
    q, k, v = qkv.reshape(n, 3, h, head_dim).transpose(1, 2, 0, 3)

    dots = np.einsum("hid,hjd->hij", q, k) * scale
    if causal:
        future = np.triu(np.ones((n, n), dtype=bool), k=1)
        dots = np.where(future, -np.inf, dots)
    attn = softmax(dots, axis=-1)

    out = np.einsum("hij,hjd->hid", attn, v)
    out = np.einsum("hnd->nhd", out).reshape(n, h * head_dim)
    out = np.einsum("nc,cd->nd", out, p["Wo"]) + p["bo"]
    return out


def gelu(x):
    x = np.asarray(x, dtype=float)
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(x / math.sqrt(2.0)))


def mlp(x, p):
    x = np.einsum("nc,ch->nh", x, p["W1"]) + p["b1"]
    x = gelu(x)
    x = np.einsum("nh,hc->nc", x, p["W2"]) + p["b2"]
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
    return np.einsum("c,ck->k", x, params["W_head"]) + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
