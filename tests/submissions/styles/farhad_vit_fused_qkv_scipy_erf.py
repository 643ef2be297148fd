"""Blind round 74 (b74_01, issue 38): a CORRECT port in an unusual style (must get full marks): ported
from farhad-dalirani/vision-transformer-from-scratch `src/vision_transformer/model/attention.py`
(and `src/vision_transformer/model/patch_embedding.py`); correct: a fused qkv (Wq|Wk|Wv
concatenated, `reshape(N, 3, H, D_head).transpose(1, 2, 0, 3)`), `scale = D_head ** -0.5`, the
convolution as one matrix product per window with the kernel flattened (k*k*C, D), the source's
ValueError messages, and the exact GELU by `scipy.special.erf`.

tests/test_catalogue.py requires full marks.

No mistakes (the key checked square and non-square images, 2-D and C = 1, 2, 3, 5 images, k !=
stride, stride > 1 and k > H, softmax on 1-D to 3-D input, near 1000 and along axis 0, batched
layer_norm with and without eps, heads 1 to 4 with and without causal, d % heads != 0, a
2-block forward).

Grader: at blind time (997839b5) and now, 110/110 with scipy, as the tests run (the judge's venv
had none: 99/110, encoder-block and vit-checkpoint lost to the NameError, which the grader named
as such).
"""
# Lab 4: Vision Transformer exercises (numpy).
#
# Image to patch embedding, multi-head self-attention (MSA) and the encoder,
# written after my PyTorch ViT (PatchEmbedding / MultiHeadSelfAttention modules).
import math

import numpy as np
from scipy.special import erf


# --- Counting ---------------------------------------------------------------

def num_patches(H, W, P):
    if H % P != 0 or W % P != 0:
        raise ValueError("Input height/width must be divisible by patch_size")
    # N = (H / patch_size) x (W / patch_size)
    return int((H // P) * (W // P))


def num_tokens(H, W, P, cls_token=True):
    n = num_patches(H, W, P)
    if cls_token:
        n += 1  # extra 1 is the classification token
    return n


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    # one (N, N) attention map per head
    return num_tokens * num_tokens


# --- Patch embedding ----------------------------------------------------------

def _to_hwc(image):
    image = np.asarray(image, dtype=float)
    if image.ndim == 2:
        image = image[:, :, np.newaxis]
    if image.ndim != 3:
        raise ValueError(f"Expected (H, W) or (H, W, C) image, got shape {image.shape}")
    return image


def patchify(image, P):
    """Splits an image into non-overlapping P x P patches, flattened (p1, p2, c)."""
    image = _to_hwc(image)
    H, W, C = image.shape
    if H % P != 0 or W % P != 0:
        raise ValueError("Input height/width must be divisible by patch_size")
    x = image.reshape(H // P, P, W // P, P, C)   # (H/P, P, W/P, P, C)
    x = x.transpose(0, 2, 1, 3, 4)               # (H/P, W/P, P, P, C)
    return x.reshape(-1, P * P * C)              # (N, P*P*C)


def linear_patch_embed(image, W_e, b_e, P):
    # Equivalent to linear project each patch
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    """Valid cross-correlation, K: (k, k, C, D) -> (H', W', D)."""
    image = _to_hwc(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel size {k} larger than image {H}x{W}")
    H_out = (H - k) // stride + 1
    W_out = (W - k) // stride + 1
    D = K.shape[-1]
    K_flat = K.reshape(k * k * C, D)
    out = np.empty((H_out, W_out, D))
    for i in range(H_out):
        for j in range(W_out):
            window = image[i * stride:i * stride + k, j * stride:j * stride + k, :]
            out[i, j] = window.reshape(-1) @ K_flat + b
    return out


def conv_equivalent(P):
    # kernel_size=patch_size, stride=patch_size
    return (P, P)


# --- Sequence assembly ----------------------------------------------------------

def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])  # (N, D)
    cls = np.asarray(params["cls"]).reshape(1, -1)                            # (1, D)
    x = np.concatenate([cls, x], axis=0)                                      # (N + 1, D)
    return x + params["pos"]


# --- Attention and encoder ---------------------------------------------------------

def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    N, D = x.shape
    if D % heads != 0:
        raise ValueError(
            "Token dimension must be divisible by num_heads,"
            f" got dim {D}, and num_heads {heads}"
        )
    H = heads
    D_head = D // H
    scale = D_head ** -0.5

    # one fused projection, equivalent to three separate linear layers
    W_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)   # (D, 3D)
    b_qkv = np.concatenate([p["bq"], p["bk"], p["bv"]])           # (3D,)
    qkv = x @ W_qkv + b_qkv                                       # (N, 3D)
    qkv = qkv.reshape(N, 3, H, D_head).transpose(1, 2, 0, 3)      # (3, H, N, D_head)
    Q, K, V = qkv[0], qkv[1], qkv[2]

    attention = (Q @ K.transpose(0, 2, 1)) * scale                # (H, N, N)
    if causal:
        future = np.triu(np.ones((N, N), dtype=bool), k=1)
        attention = np.where(future, -np.inf, attention)
    attention = softmax(attention, axis=-1)

    out = attention @ V                                           # (H, N, D_head)
    out = out.transpose(1, 0, 2).reshape(N, D)                    # (N, D)
    return out @ p["Wo"] + p["bo"]


def gelu(x):
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def mlp_block(x, p):
    return gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + mlp_block(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
    return x


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    cls_out = x[0]
    return cls_out @ params["W_head"] + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
