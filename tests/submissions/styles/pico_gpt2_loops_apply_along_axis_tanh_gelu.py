"""Blind round 81 (b81_05, issue 38): ported from PavoReal/toy-gpt-2 `src/pico-gpt2.hpp` (the
whole file as delivered); correct: one small function per op as in the C++ port, loop-style
patchify and convolution, a per-vector softmax through `np.apply_along_axis`, and the tanh GELU
(which the API accepts). It raises ValueError where the solution does, and its counts are Python
ints.

tests/test_catalogue.py requires full marks.

Grader: at blind time (b5c841e9) and now, 110/110.
"""
#
# Lab 4 -- Vision Transformer exercises
# helpers written the same way as my pico_gpt2 C++ port: one small function per op
#
import math

import numpy as np


#
# Counting
#
def num_patches(H, W, P):
    if H % P != 0 or W % P != 0:
        raise ValueError("image %dx%d is not tiled by %dx%d patches" % (H, W, P, P))
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


#
# Patches
#
def _image3(image):
    image = np.asarray(image, dtype=np.float64)
    if image.ndim == 2:
        image = image[:, :, np.newaxis]
    if image.ndim != 3:
        raise ValueError("expected a 2-D or 3-D image")
    return image


def patchify(image, P):
    image = _image3(image)
    H, W, C = image.shape
    n = num_patches(H, W, P)
    patches = []
    for gy in range(H // P):
        for gx in range(W // P):
            flat = []
            for py in range(P):
                for px in range(P):
                    for c in range(C):
                        flat.append(image[gy * P + py, gx * P + px, c])
            patches.append(flat)
    out = np.array(patches, dtype=np.float64)
    assert out.shape[0] == n
    return out


def linear(x, w, b):
    return x @ w + b


def linear_patch_embed(image, W_e, b_e, P):
    return linear(patchify(image, P), W_e, b_e)


def conv_patch_embed(image, K, b, stride):
    image = _image3(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel %d larger than image %dx%d" % (k, H, W))
    d = K.shape[3]
    Ho = (H - k) // stride + 1
    Wo = (W - k) // stride + 1
    out = np.zeros((Ho, Wo, d))
    for i in range(Ho):
        for j in range(Wo):
            window = image[i * stride:i * stride + k, j * stride:j * stride + k, :]
            for o in range(d):
                out[i, j, o] = np.sum(window * K[:, :, :, o]) + b[o]
    return out


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = np.vstack([params["cls"], x])
    return x + params["pos"]


#
# GELU
# https://arxiv.org/pdf/1606.08415
#
def gelu(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * np.power(x, 3))))


#
# Softmax
#
def _softmax_vec(x):
    # Find the maximum value in x
    max_val = np.max(x)
    # Compute exp(x - max_val) for each element
    exp_x = np.exp(x - max_val)
    # Normalize exp_x by dividing each element by sum_exp_x
    return exp_x / np.sum(exp_x)


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    return np.apply_along_axis(_softmax_vec, axis, x)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(variance + eps) + beta


def attention(q, k, v, mask):
    return softmax(q @ k.T / math.sqrt(q.shape[-1]) + mask) @ v


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("d=%d not divisible by heads=%d" % (d, heads))
    q = linear(x, p["Wq"], p["bq"])
    k = linear(x, p["Wk"], p["bk"])
    v = linear(x, p["Wv"], p["bv"])
    q_heads = np.split(q, heads, axis=-1)
    k_heads = np.split(k, heads, axis=-1)
    v_heads = np.split(v, heads, axis=-1)
    if causal:
        mask = (1 - np.tri(T)) * -1e10
    else:
        mask = np.zeros((T, T))
    out_heads = [attention(qh, kh, vh, mask) for qh, kh, vh in zip(q_heads, k_heads, v_heads)]
    return linear(np.hstack(out_heads), p["Wo"], p["bo"])


def ffn(x, p):
    return linear(gelu(linear(x, p["W1"], p["b1"])), p["W2"], p["b2"])


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + ffn(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
    return x


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return linear(x[0], params["W_head"], params["b_head"])


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
