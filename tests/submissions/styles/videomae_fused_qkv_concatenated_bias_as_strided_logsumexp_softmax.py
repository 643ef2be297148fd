"""A correct submission (blind round 22, b22_14, issue 38) in an unusual style:
MCG-NJU/VideoMAE (modeling_finetune.py: PatchEmbed as a strided view, Attention with one fused
qkv weight and qkv_bias = cat(q_bias, k_bias, v_bias), F.linear(input=x, weight=..., bias=...),
reshape(B, N, 3, heads, -1).permute(2, 0, 3, 1, 4), q = q * self.scale, Block,
VisionTransformer.forward_features), ported to numpy: an explicit batch axis of 1 inside,
patches cut with as_strided, a log-sum-exp softmax.

tests/test_catalogue.py requires full marks.

Blind round 22 (b22_14, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (109/109) and now.
"""
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided


def num_patches(H, W, P):
    if P <= 0 or H % P or W % P:
        raise ValueError(f"Input image size ({H}*{W}) is not divisible by patch size {P}")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens ** 2


def _image(image):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError(f"image must be (H, W) or (H, W, C), got {image.shape}")
    return np.ascontiguousarray(image)


def _windows(x, k, stride, out_h, out_w):
    sh, sw, sc = x.strides
    return as_strided(x, shape=(out_h, out_w, k, k, x.shape[2]),
                      strides=(sh * stride, sw * stride, sh, sw, sc), writeable=False)


def patchify(image, P):
    x = _image(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    return _windows(x, P, P, H // P, W // P).reshape(-1, P * P * C)


def _linear(x, weight, bias):
    # F.linear with the torch (out, in) weight, weight = W.T
    return x @ weight.T + bias


def linear_patch_embed(image, W_e, b_e, P):
    return _linear(patchify(image, P), W_e.T, b_e)


def conv_patch_embed(image, K, b, stride):
    x = _image(image)
    k = K.shape[0]
    H, W, C = x.shape
    if k > H or k > W:
        raise ValueError("kernel size can't be greater than actual input size")
    out_h, out_w = (H - k) // stride + 1, (W - k) // stride + 1
    win = _windows(x, k, stride, out_h, out_w)
    return np.einsum("hwijc,ijcd->hwd", win, K) + b


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])[None]  # B, N, d
    cls_tokens = np.broadcast_to(params["cls"], (1, 1, x.shape[-1]))
    x = np.concatenate((cls_tokens, x), axis=1)
    x = x + params["pos"][None]
    return x[0]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    m = np.max(x, axis=axis, keepdims=True)
    lse = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return np.exp(x - lse)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    mean = np.mean(x, axis=-1, keepdims=True)
    xc = x - mean
    rstd = 1.0 / np.sqrt(np.mean(xc * xc, axis=-1, keepdims=True) + eps)
    return xc * rstd * gamma + beta


def self_attention(x, p, heads, causal=False):
    x = x[None]
    B, N, C = x.shape
    if C % heads:
        raise ValueError(f"dim {C} should be divisible by num_heads {heads}")
    head_dim = C // heads
    scale = head_dim ** -0.5
    qkv_weight = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1).T  # (3C, C), torch layout
    qkv_bias = np.concatenate((p["bq"], p["bk"], p["bv"]))
    qkv = _linear(x, qkv_weight, qkv_bias)
    qkv = qkv.reshape(B, N, 3, heads, -1).transpose(2, 0, 3, 1, 4)
    q, k, v = qkv[0], qkv[1], qkv[2]
    q = q * scale
    attn = q @ np.swapaxes(k, -2, -1)
    if causal:
        attn = np.where(np.tril(np.ones((N, N), dtype=bool)), attn, -np.inf)
    attn = softmax(attn, axis=-1)
    x = np.swapaxes(attn @ v, 1, 2).reshape(B, N, -1)
    x = _linear(x, p["Wo"].T, p["bo"])
    return x[0]


def gelu(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    x = x + _linear(gelu(_linear(h, p["W1"].T, p["b1"])), p["W2"].T, p["b2"])
    return x


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return _linear(x[0], params["W_head"].T, params["b_head"])


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
