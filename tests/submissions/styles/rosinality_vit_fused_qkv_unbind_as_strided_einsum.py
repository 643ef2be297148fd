"""Blind round 74 (b74_02, issue 38): a CORRECT port in an unusual style (must get full marks): ported
from rosinality/vision-transformers-pytorch `models/vit.py`; correct: the qkv fused and unbound
(`reshape(length, 3, n_head, dim_head).transpose(1, 2, 0, 3)`), a `LayerNorm` helper fixed at
eps=1e-6 beside a layer_norm that keeps its eps argument, a `PositionwiseFeedForward` helper,
`forward_feature` returning out[0] for vit_forward's head, and the convolution by `as_strided`
windows and one einsum.

tests/test_catalogue.py requires full marks.

No mistakes (the key checked square and non-square images, 2-D and C = 1, 2, 3, 5 images, k !=
stride, stride > 1 and k > H, softmax on 1-D to 3-D input, near 1000 and along axis 0, batched
layer_norm with and without eps, heads 1 to 4 with and without causal, d % heads != 0, a
2-block forward).

Grader: at blind time (997839b5) and now, 110/110.
"""
import math

import numpy as np


def tuple2(x):
    if isinstance(x, (tuple, list)):
        return tuple(x)
    return (x, x)


def num_patches(H, W, P):
    image_size = tuple2((H, W))
    window_size = P
    if image_size[0] % window_size or image_size[1] % window_size:
        raise ValueError(f"window size {window_size} does not divide image size {image_size}")
    n_patch = (image_size[0] // window_size) * (image_size[1] // window_size)
    return n_patch


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + int(bool(cls_token))


def patch_dim(P, C=3):
    return C * P ** 2


def attention_scores(num_tokens):
    return num_tokens ** 2


def _image(input):
    input = np.asarray(input, dtype=np.float64)
    if input.ndim == 2:
        input = input[..., None]
    if input.ndim != 3:
        raise ValueError(f"expected an (H, W) or (H, W, C) image, got {input.shape}")
    return input


def patchify(image, P):
    image = _image(image)
    height, width, dim = image.shape
    num_patches(height, width, P)
    out = image.reshape(height // P, P, width // P, P, dim)
    out = out.swapaxes(1, 2)
    return out.reshape(-1, P * P * dim)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    image = _image(image)
    height, width, in_dim = image.shape
    window_size = K.shape[0]
    if window_size > height or window_size > width:
        raise ValueError("kernel larger than input")
    out_h = (height - window_size) // stride + 1
    out_w = (width - window_size) // stride + 1
    s0, s1, s2 = image.strides
    windows = np.lib.stride_tricks.as_strided(
        image,
        shape=(out_h, out_w, window_size, window_size, in_dim),
        strides=(s0 * stride, s1 * stride, s0, s1, s2),
        writeable=False,
    )
    return np.einsum("hwijc,ijcd->hwd", windows, K) + b


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    out = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_token = params["cls"][None, :]
    out = np.concatenate((cls_token, out), 0)
    out = out + params["pos"]
    return out


def softmax(x, axis=-1):
    x = x - x.max(axis=axis, keepdims=True)
    x = np.exp(x)
    return x / x.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def LayerNorm(input, weight, bias):
    return layer_norm(input, weight, bias, eps=1e-6)


def self_attention(x, p, heads, causal=False):
    length, dim = x.shape
    n_head = heads
    if dim % n_head != 0:
        raise ValueError(f"dim {dim} is not divisible by n_head {n_head}")
    dim_head = dim // n_head

    w_qkv = np.concatenate((p["Wq"], p["Wk"], p["Wv"]), 1)
    b_qkv = np.concatenate((p["bq"], p["bk"], p["bv"]), 0)
    qkv = (x @ w_qkv + b_qkv).reshape(length, 3, n_head, dim_head).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]

    attn = (q @ k.swapaxes(-2, -1)) / math.sqrt(dim_head)
    if causal:
        mask = np.tril(np.ones((length, length), dtype=bool))
        attn = np.where(mask, attn, -np.inf)
    attn = softmax(attn, -1)

    out = attn @ v
    out = out.swapaxes(0, 1).reshape(length, dim)
    out = out @ p["Wo"] + p["bo"]

    return out


def gelu(x):
    erf = np.vectorize(math.erf)
    return x * 0.5 * (1 + erf(x / math.sqrt(2)))


def PositionwiseFeedForward(input, p):
    out = gelu(input @ p["W1"] + p["b1"])
    out = out @ p["W2"] + p["b2"]
    return out


def encoder_block(x, p, heads):
    out = x + self_attention(LayerNorm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    out = out + PositionwiseFeedForward(LayerNorm(out, p["ln2_g"], p["ln2_b"]), p)

    return out


def forward_feature(image, params):
    out = embed_image(image, params)

    for layer in params["blocks"]:
        out = encoder_block(out, layer, params["heads"])

    out = LayerNorm(out, params["ln_g"], params["ln_b"])

    return out[0]


def vit_forward(image, params):
    out = forward_feature(image, params)
    return out @ params["W_head"] + params["b_head"]


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
