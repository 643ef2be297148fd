"""A correct submission (blind round 19, b19_05, issue 38) in an unusual style: OpenCLIP (open_clip/transformer.py: `VisionTransformer`,
`ResidualAttentionBlock`, `Attention` with a fused in_proj_weight chunked into q, k, v, the
sequence-first (L, N*num_heads, head_dim) layout, `_expand_token`, `_global_pool` taking x[0]):
patches by np.split, the convolution as a sum over its k*k taps of strided slices @ K[dy, dx],
softmax as exp(x - logsumexp), a layer norm with the variance by einsum, the causal mask as an
added triu of -inf, exact GELU, answers written with capitals and spaces).

tests/test_catalogue.py requires full marks.

Blind round 19 (b19_05, issue 38): a CORRECT port in an unusual style (must get full marks).
No mistakes.

Grader: full marks at blind time (109/109) and now.
"""
import math

import numpy as np


def num_patches(H, W, P):
    if not (P > 0 and H % P == 0 and W % P == 0):
        raise ValueError(f"image_size ({H}, {W}) must be divisible by patch_size {P}")
    grid_size = (H // P, W // P)
    return grid_size[0] * grid_size[1]


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):
    return C * P * P


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def _image(x):
    x = np.asarray(x)
    if x.ndim == 2:
        x = x[..., np.newaxis]
    if x.ndim != 3:
        raise ValueError(f"expected (H, W) or (H, W, C), got {x.shape}")
    return x


def patchify(image, P):
    x = _image(image)
    H, W, C = x.shape
    grid = (H // P, W // P) if num_patches(H, W, P) else None
    rows = np.split(x, grid[0], axis=0)
    patches = [blk.reshape(-1) for row in rows for blk in np.split(row, grid[1], axis=1)]
    return np.stack(patches, axis=0)


def linear_patch_embed(image, W_e, b_e, P):
    return np.einsum("nk,kd->nd", patchify(image, P), W_e) + b_e


def conv_patch_embed(image, K, b, stride):
    # conv1 = nn.Conv2d(3, width, kernel_size=patch_size, stride=patch_size, bias=False); here with b
    x = _image(image)
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} does not fit a {H}x{W} image")
    gh = (H - k) // stride + 1
    gw = (W - k) // stride + 1
    out = np.zeros((gh, gw, K.shape[3]))
    for dy in range(k):
        for dx in range(k):
            tap = x[dy:dy + (gh - 1) * stride + 1:stride, dx:dx + (gw - 1) * stride + 1:stride, :]
            out += tap @ K[dy, dx]
    return out + b


def conv_equivalent(P):
    return (P, P)


def _expand_token(token, batch_size):
    return np.broadcast_to(np.reshape(token, (1, -1)), (batch_size, token.shape[-1]))


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = np.concatenate([_expand_token(params["cls"], 1), x], axis=0)
    x = x + params["pos"]
    return x


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    m = np.max(x, axis=axis, keepdims=True)
    lse = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return np.exp(x - lse)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    mu = x.mean(axis=-1, keepdims=True)
    xc = x - mu
    var = np.einsum("...d,...d->...", xc, xc)[..., None] / x.shape[-1]
    return xc / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    L, C = x.shape
    N = 1
    num_heads = heads
    if C % num_heads != 0:
        raise ValueError("dim should be divisible by num_heads")
    head_dim = C // num_heads
    scale = head_dim ** -0.5
    in_proj_weight = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    in_proj_bias = np.concatenate([p["bq"], p["bk"], p["bv"]])
    q, k, v = np.split(x @ in_proj_weight + in_proj_bias, 3, axis=-1)
    q = q.reshape(L, N * num_heads, -1).transpose(1, 0, 2)
    k = k.reshape(L, N * num_heads, -1).transpose(1, 0, 2)
    v = v.reshape(L, N * num_heads, -1).transpose(1, 0, 2)
    attn = np.matmul(q * scale, k.transpose(0, 2, 1))
    if causal:
        attn_mask = np.triu(np.full((L, L), float("-inf")), 1)
        attn = attn + attn_mask
    attn = softmax(attn, axis=-1)
    x = np.matmul(attn, v)
    x = x.transpose(1, 0, 2).reshape(L, C)
    return x @ p["Wo"] + p["bo"]


_erf = np.vectorize(math.erf, otypes=[float])


def gelu(x):
    x = np.asarray(x, dtype=float)
    return x * 0.5 * (1.0 + _erf(x * (1.0 / math.sqrt(2.0))))


def encoder_block(x, p, heads):
    # ResidualAttentionBlock: x = x + ls_1(attention(ln_1(x))); x = x + ls_2(mlp(ln_2(x)))
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    c_fc = layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]
    x = x + gelu(c_fc) @ p["W2"] + p["b2"]
    return x


def _global_pool(x):
    return x[0], x[1:]


def vit_forward(image, params):
    x = embed_image(image, params)
    for r in params["blocks"]:
        x = encoder_block(x, r, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])  # ln_post
    pooled, tokens = _global_pool(x)
    return pooled @ params["W_head"] + params["b_head"]


ANSWERS = {}
ANSWERS["positions"] = " Permutation"
ANSWERS["medical"] = "pretrained"
ANSWERS["causal_mask"] = "Bidirectional "
