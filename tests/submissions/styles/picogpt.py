"""A correct submission in picoGPT's style: tiny functions named after the math, parameter
dicts unpacked with **, shapes in trailing comments, dataclass-free, module-level demo code.
"""
from __future__ import annotations

import numpy as np
from scipy.special import erf  # noqa: F401  (scipy is common in the course environment)


def num_patches(H, W, P):  # -> N
    if (H % P, W % P) != (0, 0):
        raise ValueError("not tiled")
    return (H * W) // (P * P)


def num_tokens(H, W, P, cls_token=True):  # -> N (+ 1)
    return num_patches(H, W, P) + cls_token  # bool is an int: True adds one


def patch_dim(P, C=3):  # -> P*P*C
    return P * P * C


def attention_scores(num_tokens):  # -> T**2
    return pow(num_tokens, 2)


def patchify(image, P):  # [H, W, C] -> [N, P*P*C]
    image = np.atleast_3d(image) if np.ndim(image) == 2 else np.asarray(image)
    if image.ndim != 3:
        raise ValueError("image must be [H, W] or [H, W, C]")
    H, W, C = image.shape
    N = num_patches(H, W, P)
    return image.reshape(H // P, P, W // P, C * P).swapaxes(1, 2).reshape(N, P, P * C).reshape(N, -1)


def linear(x, w, b):  # [m, in], [in, out], [out] -> [m, out]
    return x @ w + b


def linear_patch_embed(image, W_e, b_e, P):  # -> [N, d]
    return linear(patchify(image, P), W_e, b_e)


def conv_patch_embed(image, K, b, stride):  # [H, W, C] -> [H', W', d]
    image = np.atleast_3d(image)
    k = len(K)
    if k > image.shape[0] or k > image.shape[1]:
        raise ValueError("kernel does not fit")
    win = np.lib.stride_tricks.sliding_window_view(image, (k, k), axis=(0, 1))[::stride, ::stride]  # [H', W', C, k, k]
    return np.einsum("xycij,ijcd->xyd", win, K) + b


def conv_equivalent(P):  # -> (kernel, stride)
    return P, P


def embed_image(image, params):  # -> [N+1, d]
    return _embed(image, **params)


def _embed(image, P, W_e, b_e, cls, pos, **_):  # -> [N+1, d]
    return np.concatenate([cls[None], linear_patch_embed(image, W_e, b_e, P)]) + pos


def softmax(x, axis=-1):  # [...] -> [...]
    exp_x = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return exp_x / np.sum(exp_x, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):  # [..., d] -> [..., d]
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(variance + eps) + beta


def gelu(x):  # exact, with scipy's erf
    return 0.5 * x * (1 + erf(x / np.sqrt(2)))


def attention(q, k, v, mask):  # [n_q, d_h], [n_k, d_h], [n_k, d_h], [n_q, n_k] -> [n_q, d_h]
    return softmax(q @ k.T / np.sqrt(q.shape[-1]) + mask) @ v


def mha(x, Wq, bq, Wk, bk, Wv, bv, Wo, bo, n_head, causal, **_):  # [T, d] -> [T, d]
    q, k, v = linear(x, Wq, bq), linear(x, Wk, bk), linear(x, Wv, bv)
    qs, ks, vs = (np.split(t, n_head, axis=-1) for t in (q, k, v))  # n_head x [T, d_h]
    mask = (1 - np.tri(x.shape[0])) * -1e10 if causal else np.zeros((x.shape[0],) * 2)
    heads = [attention(q_, k_, v_, mask) for q_, k_, v_ in zip(qs, ks, vs)]
    return linear(np.hstack(heads), Wo, bo)


def self_attention(x, p, heads, causal=False):  # [T, d] -> [T, d]
    if x.shape[-1] % heads:
        raise ValueError("width not divisible by heads")
    return mha(x, **p, n_head=heads, causal=causal)


def ffn(x, W1, b1, W2, b2, **_):  # [T, d] -> [T, d]
    return linear(gelu(linear(x, W1, b1)), W2, b2)


def encoder_block(x, p, heads):  # [T, d] -> [T, d]
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    return x + ffn(layer_norm(x, p["ln2_g"], p["ln2_b"]), **p)


def vit_forward(image, params):  # -> [num_classes]
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    return linear(layer_norm(x, params["ln_g"], params["ln_b"])[0], params["W_head"], params["b_head"])


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}

print("demo:", num_tokens(224, 224, 16), attention_scores(197))  # module-level demo code runs once
