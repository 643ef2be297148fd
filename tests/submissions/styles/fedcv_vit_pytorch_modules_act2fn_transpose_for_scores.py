"""Blind round 71 (b71_05, issue 38): a CORRECT port in an unusual style (must get full marks):
ported from FedML-AI/FedCV `model/classification/vision_transformer_task_specific_layer.py`
(the ViT-pytorch model: Embeddings, Attention, Mlp, Block, Encoder); correct: one function per
module, `from __future__` imports kept, an `ACT2FN` table for the activation, `_pair` for the
patch size, HF's `transpose_for_scores` head split and `context_layer` merge, the convolution as
an im2col of stacked windows times the reshaped HWIO kernel, scipy's erf for GELU.

tests/test_catalogue.py requires full marks.

No mistakes (the key checked every function against the solution, rtol 1e-9: counts as ints,
every ValueError asked for: non-tiling, 4-D images, k > H, d % heads).

Grader: at blind time (3f040026) and now, 110/110.
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

# ViT lab in numpy. Layout follows the ViT-pytorch model used in FedCV
# (Embeddings / Attention / Mlp / Block / Encoder), one function per module.

import math

import numpy as np
from scipy.special import erf


def swish(x):
    return x * (1.0 / (1.0 + np.exp(-x)))


def gelu(x):
    return 0.5 * x * (1.0 + erf(np.asarray(x, dtype=float) / math.sqrt(2.0)))


ACT2FN = {"gelu": gelu, "relu": lambda x: np.maximum(x, 0), "swish": swish}


def _pair(x):
    return x if isinstance(x, tuple) else (x, x)


def num_patches(H, W, P):
    img_size = (H, W)
    patch_size = _pair(P)
    if img_size[0] % patch_size[0] or img_size[1] % patch_size[1]:
        raise ValueError("image size %s is not a multiple of the patch size %s" % (img_size, patch_size))
    n_patches = (img_size[0] // patch_size[0]) * (img_size[1] // patch_size[1])
    return n_patches


def num_tokens(H, W, P, cls_token=True):
    n_patches = num_patches(H, W, P)
    return n_patches + 1 if cls_token else n_patches


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def _as_image(image):
    image = np.asarray(image, dtype=float)
    if image.ndim == 2:
        image = image[:, :, np.newaxis]
    if image.ndim != 3:
        raise ValueError("expected an (H, W) or (H, W, C) image, got %s" % (image.shape,))
    return image


def patchify(image, P):
    image = _as_image(image)
    H, W, C = image.shape
    n_patches = num_patches(H, W, P)
    x = image.reshape(H // P, P, W // P, P, C)
    x = x.transpose(0, 2, 1, 3, 4)
    return x.reshape(n_patches, P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    return np.dot(patchify(image, P), W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    # Conv2d(in_channels, hidden_size, kernel_size=patch_size, stride=patch_size), kernel kept in HWIO
    image = _as_image(image)
    H, W, C = image.shape
    kh, kw = K.shape[0], K.shape[1]
    if kh > H or kw > W:
        raise ValueError("kernel %dx%d larger than image %dx%d" % (kh, kw, H, W))
    out_h = (H - kh) // stride + 1
    out_w = (W - kw) // stride + 1
    kernel = K.reshape(kh * kw * C, -1)
    cols = np.stack([image[i * stride:i * stride + kh, j * stride:j * stride + kw, :].reshape(-1)
                     for i in range(out_h) for j in range(out_w)])
    x = cols @ kernel + b
    return x.reshape(out_h, out_w, -1)


def conv_equivalent(P):
    return _pair(P)


def embed_image(image, params):
    """Construct the embeddings from patch, position embeddings."""
    cls_tokens = params["cls"][np.newaxis, :]
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = np.concatenate((cls_tokens, x), axis=0)
    embeddings = x + params["pos"]
    return embeddings


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    x_max = np.max(x, axis=axis, keepdims=True)
    e = np.exp(x - x_max)
    return e / np.sum(e, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def transpose_for_scores(x, num_attention_heads, attention_head_size):
    new_x_shape = x.shape[:-1] + (num_attention_heads, attention_head_size)
    x = x.reshape(new_x_shape)
    return x.transpose(1, 0, 2)


def self_attention(x, p, heads, causal=False):
    hidden_size = x.shape[-1]
    if hidden_size % heads:
        raise ValueError("hidden size %d is not a multiple of the number of heads %d" % (hidden_size, heads))
    num_attention_heads = heads
    attention_head_size = int(hidden_size / num_attention_heads)
    all_head_size = num_attention_heads * attention_head_size

    mixed_query_layer = x @ p["Wq"] + p["bq"]
    mixed_key_layer = x @ p["Wk"] + p["bk"]
    mixed_value_layer = x @ p["Wv"] + p["bv"]

    query_layer = transpose_for_scores(mixed_query_layer, num_attention_heads, attention_head_size)
    key_layer = transpose_for_scores(mixed_key_layer, num_attention_heads, attention_head_size)
    value_layer = transpose_for_scores(mixed_value_layer, num_attention_heads, attention_head_size)

    attention_scores = np.matmul(query_layer, key_layer.transpose(0, 2, 1))
    attention_scores = attention_scores / math.sqrt(attention_head_size)
    if causal:
        T = x.shape[0]
        future = np.triu(np.ones((T, T), dtype=bool), k=1)
        attention_scores = np.where(future, -np.inf, attention_scores)
    attention_probs = softmax(attention_scores, axis=-1)

    context_layer = np.matmul(attention_probs, value_layer)
    context_layer = context_layer.transpose(1, 0, 2)
    new_context_layer_shape = context_layer.shape[:-2] + (all_head_size,)
    context_layer = context_layer.reshape(new_context_layer_shape)
    attention_output = context_layer @ p["Wo"] + p["bo"]
    return attention_output


def mlp(x, p):
    x = x @ p["W1"] + p["b1"]
    x = ACT2FN["gelu"](x)
    x = x @ p["W2"] + p["b2"]
    return x


def encoder_block(x, p, heads):
    h = x
    x = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = self_attention(x, p, heads)
    x = x + h

    h = x
    x = layer_norm(x, p["ln2_g"], p["ln2_b"])
    x = mlp(x, p)
    x = x + h
    return x


def vit_forward(image, params):
    hidden_states = embed_image(image, params)
    for layer_block in params["blocks"]:
        hidden_states = encoder_block(hidden_states, layer_block, params["heads"])
    encoded = layer_norm(hidden_states, params["ln_g"], params["ln_b"])
    logits = encoded[0] @ params["W_head"] + params["b_head"]
    return logits


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
