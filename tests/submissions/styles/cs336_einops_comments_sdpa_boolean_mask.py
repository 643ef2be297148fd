"""Blind round 70 (b70_05, issue 38): a CORRECT port in an unusual style (must get full marks):
self_attention and softmax ported from Phoinikas03/stanford-cs336
`assignment1-basics/cs336_basics/multi_head_attention.py` and
`assignment1-basics/cs336_basics/softmax.py`; correct: einops patterns kept as comments next
to the reshapes ("seq (heads d_k) -> heads seq d_k"), a separate
`scaled_dot_product_attention` with a boolean mask, the cs336 Softmax (max subtracted), the
convolution by fancy-indexed windows and einsum. The source always applies a causal mask; here
only when causal=True.

tests/test_catalogue.py requires full marks.

No mistakes (the key checked every function against the solution, rtol 1e-6: counts as ints,
every ValueError asked for: non-tiling, 4-D images, k > H, d % heads).

Grader: at blind time (3f040026) and now, 110/110.
"""
# Lecture 4.2 lab: ViT in numpy, written after the cs336 assignment (Softmax,
# CausalMultiHeadSelfAttention); the einops patterns are kept as comments.
import math

import numpy as np


def num_patches(H, W, P):
    # 检查维度约束: H 和 W 必须能被 P 整除
    if H % P != 0 or W % P != 0:
        raise ValueError("H and W must be divisible by P")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def _to_hwc(image):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    return image


def patchify(image, P):
    image = _to_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    # rearrange(image, "(h p1) (w p2) c -> (h w) (p1 p2 c)", p1=P, p2=P)
    x = image.reshape(H // P, P, W // P, P, C)
    x = x.transpose(0, 2, 1, 3, 4)
    return x.reshape((H // P) * (W // P), P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    image = _to_hwc(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel larger than image")
    H_out = (H - k) // stride + 1
    W_out = (W - k) // stride + 1
    rows = np.arange(H_out) * stride
    cols = np.arange(W_out) * stride
    # windows[i, j] = image[rows[i]:rows[i]+k, cols[j]:cols[j]+k, :]
    ii = rows[:, None, None, None] + np.arange(k)[None, None, :, None]
    jj = cols[None, :, None, None] + np.arange(k)[None, None, None, :]
    windows = image[ii, jj]                      # (H_out, W_out, k, k, C)
    # einsum("h w p q c, p q c d -> h w d")
    return np.einsum("hwpqc,pqcd->hwd", windows, K) + b


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = np.concatenate([params["cls"][None, :], x], axis=0)
    return x + params["pos"]


def softmax(x, axis=-1):
    x_max = np.max(x, axis=axis, keepdims=True)
    x = x - x_max
    denominator = np.sum(np.exp(x), axis=axis, keepdims=True)
    return np.exp(x) / denominator


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def scaled_dot_product_attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -1, -2) / math.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return softmax(scores, axis=-1) @ V


def self_attention(x, p, heads, causal=False):
    seq, d_model = x.shape
    # 1. 检查维度约束: d_model 必须能被 num_heads 整除
    if d_model % heads != 0:
        raise ValueError("d_model must be divisible by num_heads")
    d_k = d_model // heads

    # 1. 对输入 x 进行线性投影得到 Q, K, V
    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]
    # 2. 将 Q, K, V 分割成多头: "seq (heads d_k) -> heads seq d_k"
    Q = Q.reshape(seq, heads, d_k).transpose(1, 0, 2)
    K = K.reshape(seq, heads, d_k).transpose(1, 0, 2)
    V = V.reshape(seq, heads, d_k).transpose(1, 0, 2)

    # 3. Scaled Dot-Product Attention; a causal mask only when asked for
    mask = None
    if causal:
        mask = np.tril(np.ones((seq, seq), dtype=bool))[None, :, :]
    out = scaled_dot_product_attention(Q, K, V, mask)

    # 4. 连接多头的结果: "heads seq d_v -> seq (heads d_v)"
    out = out.transpose(1, 0, 2).reshape(seq, d_model)

    # 5. 通过输出线性层 (W_o) 得到最终输出
    return out @ p["Wo"] + p["bo"]


def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf (the tanh approximation is accepted too)."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
