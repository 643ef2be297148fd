"""Blind round 57 (b57_06, issue 38): a CORRECT port in an unusual style (must get full marks),
after mlcommons/algorithmic-efficiency `algoperf/workloads/imagenet_vit/imagenet_jax/models.py`
(ViT, Encoder1DBlock, MlpBlock), flax-like with heavy `np.einsum`: patchify by
`np.einsum("ipjqc->ijpqc")` on the (h, P, w, P, C) reshape after num_patches' tiling check;
conv_patch_embed as flax's `nn.Conv(padding='VALID')` on one NHWC image with an HWIO kernel, its
windows gathered by index arrays (`x[rows[:, None, :, None], cols[None, :, None, :], :]`,
(oh, ow, kh, kw, C)) and `np.einsum("hwijc,ijcd->hwd")`, ValueError when the kernel does not fit;
linear_patch_embed done as that VALID conv with `W_e.reshape(P, P, C, d)` and stride (P, P),
reshaped to (N, d); self_attention as `nn.MultiHeadDotProductAttention`: DenseGeneral kernels
`W.reshape(d, heads, d_h)` (biases `(heads, d_h)`), the query divided by sqrt(d_h),
`'...qhd,...khd->...hqk'` scores, a `np.finfo(dtype).min` fill where the tril keep-mask is False
when causal, the output kernel `Wo.reshape(heads, d_h, d)`; einsum MLP and head.

tests/test_catalogue.py requires full marks.

No mistakes.

Grader: full marks at blind time (84f876fc, 110/110) and now.
"""
import math

import numpy as np


def num_patches(H, W, P):
    patch_size = (P, P)
    if min(patch_size) < 1:
        raise ValueError("patch_size must be positive")
    if H % patch_size[0] != 0 or W % patch_size[1] != 0:
        raise ValueError(f"patch_size {patch_size} does not tile ({H}, {W})")
    h, w = H // patch_size[0], W // patch_size[1]
    return h * w


def num_tokens(H, W, P, cls_token=True):
    n = num_patches(H, W, P)
    return n + 1 if cls_token else n


def patch_dim(P, C=3):
    return P * P * C


def attention_scores(num_tokens):
    return num_tokens * num_tokens


def _nhwc(image):
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[..., None]
    if x.ndim != 3:
        raise ValueError(f"expected (H, W) or (H, W, C), got {x.shape}")
    return x


def patchify(image, P):
    x = _nhwc(image)
    H, W, C = x.shape
    h, w = H // P, W // P
    num_patches(H, W, P)
    x = np.einsum("ipjqc->ijpqc", x.reshape(h, P, w, P, C))
    return x.reshape(h * w, P * P * C)


def conv_patch_extract(x, kernel, bias, strides):
    """nn.Conv(features, kernel_size, strides, padding='VALID') on one NHWC image, HWIO kernel."""
    H, W, _ = x.shape
    kh, kw = kernel.shape[:2]
    if kh > H or kw > W:
        raise ValueError("kernel does not fit in the input")
    sh, sw = strides
    oh, ow = (H - kh) // sh + 1, (W - kw) // sw + 1
    rows = (np.arange(oh) * sh)[:, None] + np.arange(kh)[None, :]   # (oh, kh)
    cols = (np.arange(ow) * sw)[:, None] + np.arange(kw)[None, :]   # (ow, kw)
    windows = x[rows[:, None, :, None], cols[None, :, None, :], :]   # (oh, ow, kh, kw, C)
    return np.einsum("hwijc,ijcd->hwd", windows, kernel) + bias


def conv_patch_embed(image, K, b, stride):
    x = _nhwc(image).astype(float)
    return conv_patch_extract(x, K, b, (stride, stride))


def linear_patch_embed(image, W_e, b_e, P):
    x = _nhwc(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    d = W_e.shape[-1]
    kernel = W_e.reshape(P, P, C, d)
    y = conv_patch_extract(x.astype(float), kernel, b_e, (P, P))
    h, w, c = y.shape
    return np.reshape(y, [h * w, c])


def conv_equivalent(P):
    return (P, P)


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls = np.broadcast_to(params["cls"], (1, x.shape[-1]))
    x = np.concatenate([cls, x], axis=0)
    return x + params["pos"]


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    unnormalized = np.exp(x - np.max(x, axis, keepdims=True))
    return unnormalized / np.sum(unnormalized, axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean(np.square(x - mean), axis=-1, keepdims=True)
    y = (x - mean) * (1.0 / np.sqrt(var + eps))
    return y * gamma + beta


def self_attention(x, p, heads, causal=False):
    """nn.MultiHeadDotProductAttention: DenseGeneral projections to (heads, head_dim), einsum attention."""
    length, features = x.shape
    if features % heads != 0:
        raise ValueError(f"Memory dimension ({features}) must be divisible by number of heads ({heads}).")
    head_dim = features // heads

    def dense_general(inp, name):
        kernel = p["W" + name].reshape(features, heads, head_dim)
        bias = p["b" + name].reshape(heads, head_dim)
        return np.einsum("...d,dhk->...hk", inp, kernel) + bias

    query, key, value = dense_general(x, "q"), dense_general(x, "k"), dense_general(x, "v")
    query = query / np.sqrt(head_dim)
    attn_weights = np.einsum("...qhd,...khd->...hqk", query, key)
    if causal:
        mask = np.tril(np.ones((length, length), dtype=bool))[None]
        big_neg = np.finfo(attn_weights.dtype).min
        attn_weights = np.where(mask, attn_weights, big_neg)
    attn_weights = softmax(attn_weights, axis=-1)
    out = np.einsum("...hqk,...khd->...qhd", attn_weights, value)
    out_kernel = p["Wo"].reshape(heads, head_dim, features)
    return np.einsum("...qhd,hdf->...qf", out, out_kernel) + p["bo"]


def gelu(x):
    """Exact GELU, x * Phi(x), with math.erf (the tanh approximation is accepted too)."""
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[float])(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def mlp_block(x, p):
    x = np.einsum("...d,dm->...m", x, p["W1"]) + p["b1"]
    x = gelu(x)
    return np.einsum("...m,md->...d", x, p["W2"]) + p["b2"]


def encoder_block(x, p, heads):
    y = layer_norm(x, p["ln1_g"], p["ln1_b"])
    y = self_attention(y, p, heads)
    x = x + y
    y = layer_norm(x, p["ln2_g"], p["ln2_b"])
    y = mlp_block(y, p)
    x = x + y
    return x


def vit_forward(image, params):
    x = embed_image(image, params)
    for lyr, block in enumerate(params["blocks"]):
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = x[0]
    return np.einsum("d,dc->c", x, params["W_head"]) + params["b_head"]


ANSWERS = {
    "positions": "permutation",
    "medical": "pretrained",
    "causal_mask": "bidirectional",
}
