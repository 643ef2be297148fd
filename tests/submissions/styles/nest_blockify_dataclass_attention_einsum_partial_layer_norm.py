"""A correct submission (blind round 23, b23_14, issue 38) in an unusual style: Google's Nested
Transformer (NesT; google-research/nested-transformer, libml/self_attention.py and
models/nest_net.py) ported to numpy: patchify through NesT's batched `blockify` (B, H, W, C) ->
(B, T, N, C) on a batch of one (with an unused `deblockify`), the convolution through fancy-index
windows and einsum, self_attention as a callable dataclass (`MultiHeadAttention(p, heads,
causal)(x)`) with einsum('...qhd,...khd->...hqk') over (T, heads, d_h) and no head transpose,
the block's norms as functools.partial, and ANSWERS with odd case and spaces ("PERMUTATION ",
" Pretrained").

tests/test_catalogue.py requires full marks.

Blind round 23 (b23_14, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (109/109) and now.
"""
import dataclasses
import functools
import math

import numpy as np


def num_patches(H, W, P):
    if not (P > 0 and H % P == 0 and W % P == 0):
        raise ValueError("`block_size` must divide input height and width evenly")
    grid_height, grid_width = H // P, W // P
    return grid_height * grid_width


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens ** 2


def blockify(x, block_size):
    """Image to blocks: (B, H, W, C) -> (B, T, N, C)."""
    B, H, W, C = x.shape
    num_patches(H, W, block_size)
    grid_height, grid_width = H // block_size, W // block_size
    x = x.reshape(B, grid_height, block_size, grid_width, block_size, C)
    x = x.swapaxes(2, 3).reshape(B, grid_height * grid_width, -1, C)
    return x


def deblockify(x, grid_height, grid_width):
    """Blocks to image: (B, T, N, C) -> (B, H, W, C) for square blocks."""
    B, T, N, C = x.shape
    block_size = int(round(math.sqrt(N)))
    x = x.reshape(B, grid_height, grid_width, block_size, block_size, C).swapaxes(2, 3)
    return x.reshape(B, grid_height * block_size, grid_width * block_size, C)


def _nhwc(image):
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[..., None]
    if x.ndim != 3:
        raise ValueError(f"expected (H, W) or (H, W, C), got {x.shape}")
    return x


def patchify(image, P):
    x = _nhwc(image)[None]                 # a batch of one
    blocks = blockify(x, P)                # (1, T, P*P, C)
    B, T, N, C = blocks.shape
    return blocks.reshape(T, N * C)


def linear_patch_embed(image, W_e, b_e, P):
    return np.einsum("tk,kd->td", patchify(image, P), W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    x = _nhwc(image)
    H, W, C = x.shape
    kh, kw = K.shape[:2]
    if kh > H or kw > W:
        raise ValueError("kernel does not fit the image")
    out_h, out_w = (H - kh) // stride + 1, (W - kw) // stride + 1
    rows = np.arange(out_h)[:, None] * stride + np.arange(kh)[None, :]   # (out_h, kh)
    cols = np.arange(out_w)[:, None] * stride + np.arange(kw)[None, :]   # (out_w, kw)
    win = x[rows[:, None, :, None], cols[None, :, None, :]]             # (out_h, out_w, kh, kw, C)
    return np.einsum("hwabc,abcd->hwd", win, K) + b


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = np.concatenate([np.reshape(params["cls"], (1, -1)), x], axis=0)
    return x + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    x_max = np.max(x, axis=axis, keepdims=True)
    unnormalized = np.exp(x - x_max)
    return unnormalized / unnormalized.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    mean = x.mean(axis=-1, keepdims=True)
    var = np.square(x - mean).mean(axis=-1, keepdims=True)
    return (x - mean) * (1.0 / np.sqrt(var + eps)) * gamma + beta


@dataclasses.dataclass
class MultiHeadAttention:
    p: dict
    num_heads: int
    causal: bool = False

    def __call__(self, inputs):
        T, d = inputs.shape
        if d % self.num_heads:
            raise ValueError("hidden size must be divisible by num_heads")
        head_ch = d // self.num_heads
        proj = lambda n: (inputs @ self.p["W" + n] + self.p["b" + n]).reshape(T, self.num_heads, head_ch)
        query, key, value = proj("q"), proj("k"), proj("v")
        query = query / np.sqrt(head_ch)
        attn_weights = np.einsum("...qhd,...khd->...hqk", query, key)
        if self.causal:
            keep = np.arange(T)[None, :] <= np.arange(T)[:, None]
            attn_weights = np.where(keep, attn_weights, -np.inf)
        attn_weights = softmax(attn_weights, axis=-1)
        out = np.einsum("...hqk,...khd->...qhd", attn_weights, value)
        return out.reshape(T, d) @ self.p["Wo"] + self.p["bo"]


def self_attention(x, p, heads, causal=False):
    return MultiHeadAttention(p, heads, causal)(np.asarray(x, dtype=float))


def gelu(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def _mlp(h, p):
    return gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


def encoder_block(x, p, heads):
    norm1 = functools.partial(layer_norm, gamma=p["ln1_g"], beta=p["ln1_b"])
    norm2 = functools.partial(layer_norm, gamma=p["ln2_g"], beta=p["ln2_b"])
    x = x + self_attention(norm1(x), p, heads)
    return x + _mlp(norm2(x), p)


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]


ANSWERS = {"positions": "PERMUTATION ", "medical": " Pretrained", "causal_mask": "bidirectional"}
