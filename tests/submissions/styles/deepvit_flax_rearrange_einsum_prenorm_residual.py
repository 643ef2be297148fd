"""Blind round 70 (b70_15, issue 38): a CORRECT port in an unusual style (must get full marks):
patchify, self_attention, encoder_block and vit_forward ported from conceptofmind/DeepViT-flax
`deepvit_flax/deepvit.py`; correct: the rearrange pattern '(h p1) (w p2) c -> (h w) (p1 p2 c)'
as a comment over a numpy einsum transpose, `to_qkv` mapped to 'n (h d) -> h n d', einsum
'hid,hjd->hij' scaled by dim_head ** -0.5, Residual(PreNorm(...)) blocks, pool='cls' and
pos[:(n + 1)]. DeepViT's re-attention is left out (a plain ViT).

tests/test_catalogue.py requires full marks.

No mistakes (the key checked every function against the solution: counts as ints, the
ValueErrors asked for).

Grader: at blind time (3f040026) and now, 110/110.
"""
# ViT lab 4 in numpy, after a DeepViT (flax) port: PreNorm + Residual blocks, einsum attention.
import math

import numpy as np
from numpy import einsum


def num_patches(H, W, P):
    if H % P != 0 or W % P != 0:
        raise ValueError("image dimensions must be divisible by the patch size")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens ** 2


def _as_image(x):
    x = np.asarray(x, dtype=float)
    if x.ndim == 2:
        x = x[..., None]
    if x.ndim != 3:
        raise ValueError("image must be (h, w) or (h, w, c)")
    return x


def patchify(image, P):
    x = _as_image(image)
    H, W, c = x.shape
    num_patches(H, W, P)
    h, w = H // P, W // P
    # rearrange(x, '(h p1) (w p2) c -> (h w) (p1 p2 c)', p1 = P, p2 = P)
    x = x.reshape(h, P, w, P, c)
    x = einsum('ipjqc->ijpqc', x)
    return x.reshape(h * w, P * P * c)


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    x = _as_image(image)
    H, W, c = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel larger than image")
    oh = (H - k) // stride + 1
    ow = (W - k) // stride + 1
    out = np.zeros((oh, ow, K.shape[-1]))
    for p in range(k):
        for q in range(k):
            # every output pixel sees input pixel (i*stride + p, j*stride + q)
            sub = x[p:p + (oh - 1) * stride + 1:stride, q:q + (ow - 1) * stride + 1:stride]
            out += einsum('ijc,cd->ijd', sub, K[p, q])
    return out + b


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    n = x.shape[0]
    cls_tokens = params["cls"][None, :]
    x = np.concatenate([cls_tokens, x], axis=0)
    x = x + params["pos"][:(n + 1)]
    return x


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    x_max = np.max(x, axis=axis, keepdims=True)
    unnormalized = np.exp(x - x_max)
    return unnormalized / np.sum(unnormalized, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean(np.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * (1.0 / np.sqrt(var + eps)) * gamma + beta


def self_attention(x, p, heads, causal=False):
    n, dim = x.shape
    if dim % heads != 0:
        raise ValueError("dim must be divisible by heads")
    dim_head = dim // heads
    scale = dim_head ** -0.5

    to_qkv = [x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]]
    # 'n (h d) -> h n d'
    q, k, v = map(lambda t: t.reshape(n, heads, dim_head).transpose(1, 0, 2), to_qkv)

    # attention
    dots = einsum('hid,hjd->hij', q, k) * scale
    if causal:
        dots = np.where(np.tril(np.ones((n, n), dtype=bool)), dots, -np.inf)
    attn = softmax(dots, axis=-1)

    # aggregate and out
    out = np.matmul(attn, v)
    out = out.transpose(1, 0, 2).reshape(n, heads * dim_head)  # 'h n d -> n (h d)'
    return out @ p["Wo"] + p["bo"]


def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf (the tanh approximation is accepted too)."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def feed_forward(x, p):
    x = x @ p["W1"] + p["b1"]
    x = gelu(x)
    return x @ p["W2"] + p["b2"]


def encoder_block(x, p, heads):
    # Residual(PreNorm(Attention)), Residual(PreNorm(FeedForward))
    x = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads) + x
    x = feed_forward(layer_norm(x, p["ln2_g"], p["ln2_b"]), p) + x
    return x


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = x[0]  # pool = 'cls'
    return x @ params["W_head"] + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
