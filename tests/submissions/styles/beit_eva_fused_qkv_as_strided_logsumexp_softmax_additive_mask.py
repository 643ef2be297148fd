"""A correct submission (blind round 17, b17_14, issue 38) in an unusual style: the BEiT / EVA
attention (one fused qkv weight with `torch.cat((q_bias, k_bias, v_bias))`,
`qkv.reshape(N, 3, num_heads, -1).transpose(1, 2, 0, 3)`, timm's order, `q = q * scale`, an
additive -inf mask above the diagonal), an rsqrt-style LayerNorm, patchify by as_strided, a
log-sum-exp softmax, and ANSWERS["positions"] written " Permutation " (the grader ignores case and
spaces).

tests/test_catalogue.py requires full marks.

Blind round 17 (b17_14, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (109/109) and now.
"""
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided


def num_patches(H, W, P):
    if P <= 0:
        raise ValueError("patch size must be positive")
    (gh, rh), (gw, rw) = divmod(H, P), divmod(W, P)
    if rh or rw:
        raise ValueError(f"img_size {H}x{W} is not a multiple of patch_size {P}")
    return int(gh * gw)


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    return int(P) * int(P) * int(C)


def attention_scores(num_tokens):
    return int(num_tokens) * int(num_tokens)


def _hwc(image):
    x = np.ascontiguousarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError(f"image must be (H, W) or (H, W, C), got {x.shape}")
    return np.ascontiguousarray(x)


def patchify(image, P):
    x = _hwc(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    gh, gw = H // P, W // P
    sh, sw, sc = x.strides
    view = as_strided(x, shape=(gh, gw, P, P, C), strides=(sh * P, sw * P, sh, sw, sc), writeable=False)
    return view.reshape(gh * gw, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    return np.einsum("nk,kd->nd", patchify(image, P), W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    x = _hwc(image)
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} larger than the {H}x{W} input")
    Ho, Wo = (H - k) // stride + 1, (W - k) // stride + 1
    sh, sw, sc = x.strides
    cols = as_strided(x, shape=(Ho, Wo, k, k, C), strides=(sh * stride, sw * stride, sh, sw, sc), writeable=False)
    return np.einsum("ijabc,abcd->ijd", cols, K) + b


def conv_equivalent(P):
    return [P, P]


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = np.insert(x, 0, params["cls"], axis=0)
    return x + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    m = np.max(x, axis=axis, keepdims=True)
    lse = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return np.exp(x - lse)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    u = x.mean(-1, keepdims=True)
    s = ((x - u) ** 2).mean(-1, keepdims=True)
    x = (x - u) * (1.0 / np.sqrt(s + eps))
    return gamma * x + beta


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    num_heads = heads
    if C % num_heads:
        raise ValueError(f"dim {C} should be divisible by num_heads {num_heads}")
    head_dim = C // num_heads
    scale = head_dim ** -0.5
    qkv_weight = np.concatenate((p["Wq"], p["Wk"], p["Wv"]), axis=1)
    qkv_bias = np.concatenate((p["bq"], p["bk"], p["bv"]))
    qkv = (x @ qkv_weight + qkv_bias).reshape(N, 3, num_heads, -1).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]
    q = q * scale
    attn = q @ np.swapaxes(k, -2, -1)
    if causal:
        attn_mask = np.zeros((N, N))
        attn_mask[np.triu_indices(N, 1)] = -np.inf
        attn = attn + attn_mask
    attn = softmax(attn, axis=-1)
    x = np.swapaxes(attn @ v, 0, 1).reshape(N, -1)
    return x @ p["Wo"] + p["bo"]


_erf = np.vectorize(math.erf, otypes=[float])


def gelu(x):
    x = np.asarray(x, dtype=float)
    return x * 0.5 * (1.0 + _erf(x * (1.0 / math.sqrt(2.0))))


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + (gelu(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"])
    return x


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    cls_out = x[0]
    return cls_out @ params["W_head"] + params["b_head"]


ANSWERS = {"positions": " Permutation ", "medical": "pretrained", "causal_mask": "bidirectional"}
