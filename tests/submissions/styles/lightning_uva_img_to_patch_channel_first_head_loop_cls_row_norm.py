"""A correct submission (blind round 19, b19_10, issue 38) in an unusual style: the PyTorch Lightning UvA tutorial "Vision Transformers"
(course_UvA-DL/11-vision-transformer: `img_to_patch` working channel-first (C, H, W) then
permuting to (p1, p2, c), an attention loop over heads on column slices, the causal mask by
np.triu_indices, the tanh GELU approximation (accepted by the lab), and `mlp_head`'s LayerNorm
applied to the [CLS] row only: the same values as normalising every row and reading row 0).

tests/test_catalogue.py requires full marks.

Blind round 19 (b19_10, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (109/109) and now.
"""
import math

import numpy as np


def num_patches(H, W, P):
    if P < 1 or H % P != 0 or W % P != 0:
        raise ValueError(f"patch_size={P} does not tile a {H}x{W} image")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    T = num_patches(H, W, P)
    return T + 1 if cls_token else T


def patch_dim(P, C=3):
    return int(C) * int(P) ** 2


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def img_to_patch(x, patch_size, flatten_channels=True):
    """x: (C, H, W) -> (H'*W', C*p*p) or (H'*W', C, p, p)"""
    C, H, W = x.shape
    x = x.reshape(C, H // patch_size, patch_size, W // patch_size, patch_size)
    x = x.transpose(1, 3, 2, 4, 0)  # [H', W', p_H, p_W, C]
    x = x.reshape(-1, patch_size, patch_size, C)  # [H'*W', p_H, p_W, C]
    if flatten_channels:
        x = x.reshape(x.shape[0], -1)
    return x


def patchify(image, P):
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[None]
    elif x.ndim == 3:
        x = np.moveaxis(x, -1, 0)  # H W C -> C H W
    else:
        raise ValueError("image must be (H, W) or (H, W, C)")
    num_patches(x.shape[1], x.shape[2], P)
    return img_to_patch(x, P)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[..., None]
    H, W, C = x.shape
    k, _, _, d = K.shape
    if k > H or k > W:
        raise ValueError("kernel_size larger than the image")
    Ho, Wo = (H - k) // stride + 1, (W - k) // stride + 1
    out = np.empty((Ho, Wo, d))
    Kf = K.reshape(-1, d)
    for i in range(Ho):
        row = np.stack([x[i * stride:i * stride + k, j * stride:j * stride + k].ravel() for j in range(Wo)])
        out[i] = row @ Kf + b
    return out


def conv_equivalent(P):
    return P, P


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    T = x.shape[0]
    cls_token = np.repeat(params["cls"][None], 1, axis=0)
    x = np.concatenate([cls_token, x], axis=0)
    x = x + params["pos"][: T + 1]
    return x


def softmax(x, axis=-1):
    x = np.asarray(x)
    z = x - x.max(axis=axis, keepdims=True)
    ez = np.exp(z)
    return ez / ez.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x)
    mu = x.mean(axis=-1, keepdims=True)
    sigma = np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    return gamma * ((x - mu) / sigma) + beta


def self_attention(x, p, heads, causal=False):
    T, embed_dim = x.shape
    if embed_dim % heads != 0:
        raise ValueError("embed_dim must be divisible by num_heads")
    head_dim = embed_dim // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    outs = []
    for h in range(heads):
        sl = slice(h * head_dim, (h + 1) * head_dim)
        logits = q[:, sl] @ k[:, sl].T / math.sqrt(head_dim)
        if causal:
            logits = logits.copy()
            logits[np.triu_indices(T, k=1)] = -np.inf
        outs.append(softmax(logits, axis=-1) @ v[:, sl])
    return np.concatenate(outs, axis=-1) @ p["Wo"] + p["bo"]


def gelu(x):
    x = np.asarray(x, dtype=float)
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def encoder_block(x, p, heads):
    inp_x = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = x + self_attention(inp_x, p, heads)
    x = x + (gelu(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"])
    return x


def vit_forward(image, params):
    x = embed_image(image, params)
    for attn_block in params["blocks"]:
        x = encoder_block(x, attn_block, params["heads"])
    cls = x[0]
    cls = layer_norm(cls, params["ln_g"], params["ln_b"])  # mlp_head[0]
    return cls @ params["W_head"] + params["b_head"]


ANSWERS = {"positions": "permutation", "medical": "pretrained", "causal_mask": "bidirectional"}
