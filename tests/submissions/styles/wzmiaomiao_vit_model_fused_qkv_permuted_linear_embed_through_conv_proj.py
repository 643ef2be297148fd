"""Blind round 60 (b60_04, issue 38): a CORRECT port in an unusual style (must get full marks),
after WZMIAOMIAO/deep-learning-for-image-processing
`pytorch_classification/vision_transformer/vit_model.py` (PatchEmbed, Attention, Mlp, Block,
VisionTransformer.forward_features / forward), the class-based PyTorch model flattened into
functions: a top-level `_grid_size` tiling check shared by num_patches and patchify;
linear_patch_embed through the conv `proj`, `conv_patch_embed(x, W_e.reshape(P, P, C, d), b_e, P)`
reshaped to (N, d); conv_patch_embed row by row with a `result_type` output; self_attention with the
fused qkv built by concatenating Wq | Wk | Wv, reshaped `(N, 3, heads, hd)` and permuted, an
additive `np.triu(np.full((N, N), -inf), k=1)` mask when causal; the source's shape comments kept;
`ANSWERS = dict(...)`.

tests/test_catalogue.py requires full marks.

No mistakes (the key's check also ran 30 extra randomised trials: non-square grids, C = 1/2/3, 2-D
and uint8 images, heads 1/2/4, causal masks, batched layer_norm / softmax).

Grader: full marks at blind time (528b2ec3, 110/110) and now.
"""
import math

import numpy as np


# ---------------------------------------------------------------- PatchEmbed
def _grid_size(H, W, patch_size):
    if patch_size <= 0 or H % patch_size != 0 or W % patch_size != 0:
        raise ValueError(f"Input image size ({H}*{W}) is not divisible by patch size {patch_size}.")
    return (H // patch_size, W // patch_size)


def num_patches(H, W, P):
    grid_size = _grid_size(H, W, P)
    return grid_size[0] * grid_size[1]


def num_tokens(H, W, P, cls_token=True):
    num_tokens_extra = 1 if cls_token else 0
    return num_patches(H, W, P) + num_tokens_extra


def patch_dim(P, C=3):
    in_c = C
    return in_c * P * P


def attention_scores(num_tokens):
    # [num_patches + 1, num_patches + 1] per head
    return num_tokens * num_tokens


def _to_hwc(x):
    x = np.asarray(x)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError(f"expected [H, W] or [H, W, C], got {x.shape}")
    return x


def patchify(image, P):
    x = _to_hwc(image)
    H, W, C = x.shape
    gh, gw = _grid_size(H, W, P)
    # [H, W, C] -> [gh, P, gw, P, C] -> [gh, gw, P, P, C] -> [gh*gw, P*P*C]
    x = x.reshape(gh, P, gw, P, C).transpose(0, 2, 1, 3, 4)
    return x.reshape(gh * gw, P * P * C)


def conv_patch_embed(image, K, b, stride):
    """self.proj = nn.Conv2d(in_c, embed_dim, kernel_size, stride), channels last."""
    x = _to_hwc(image)
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} larger than input ({H}*{W})")
    out_h = (H - k) // stride + 1
    out_w = (W - k) // stride + 1
    embed_dim = K.shape[-1]
    weight = K.reshape(k * k * C, embed_dim)
    out = np.empty((out_h, out_w, embed_dim), dtype=np.result_type(x.dtype, K.dtype, np.float64))
    for i in range(out_h):
        rows = x[i * stride:i * stride + k]
        for j in range(out_w):
            out[i, j] = rows[:, j * stride:j * stride + k, :].reshape(-1) @ weight + b
    return out


def linear_patch_embed(image, W_e, b_e, P):
    x = _to_hwc(image)
    H, W, C = x.shape
    _grid_size(H, W, P)
    embed_dim = W_e.shape[1]
    proj = W_e.reshape(P, P, C, embed_dim)
    # flatten: [gh, gw, embed_dim] -> [num_patches, embed_dim]
    return conv_patch_embed(x, proj, b_e, P).reshape(-1, embed_dim)


def conv_equivalent(P):
    patch_size = (P, P)
    return (patch_size[0], patch_size[1])


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])  # [196, 768]
    cls_token = params["cls"].reshape(1, -1)
    x = np.concatenate((cls_token, x), axis=0)  # [197, 768]
    return x + params["pos"]


# ---------------------------------------------------------------- Attention / Mlp / Block
def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    m = np.max(x, axis=axis, keepdims=True)
    y = np.exp(x - m)
    return y / np.sum(y, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    u = np.mean(x, axis=-1, keepdims=True)
    s = np.mean((x - u) ** 2, axis=-1, keepdims=True)
    x = (x - u) / np.sqrt(s + eps)
    return gamma * x + beta


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    num_heads = heads
    if C % num_heads != 0:
        raise ValueError(f"dim {C} is not divisible by num_heads {num_heads}")
    head_dim = C // num_heads
    scale = head_dim ** -0.5

    qkv_w = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    qkv_b = np.concatenate([p["bq"], p["bk"], p["bv"]])
    # qkv(): -> [N, 3 * C]; reshape: -> [N, 3, heads, head_dim]; permute: -> [3, heads, N, head_dim]
    qkv = (x @ qkv_w + qkv_b).reshape(N, 3, num_heads, head_dim).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]

    attn = (q @ k.transpose(0, 2, 1)) * scale  # [heads, N, N]
    if causal:
        attn = attn + np.triu(np.full((N, N), -np.inf), k=1)
    attn = softmax(attn, axis=-1)

    # @: -> [heads, N, head_dim]; transpose: -> [N, heads, head_dim]; reshape: -> [N, C]
    x = (attn @ v).transpose(1, 0, 2).reshape(N, C)
    return x @ p["Wo"] + p["bo"]


def _gelu(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


def mlp(x, p):
    x = x @ p["W1"] + p["b1"]   # fc1
    x = _gelu(x)                # act
    x = x @ p["W2"] + p["b2"]   # fc2
    return x


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
    return x


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    pre_logits = x[0]
    return pre_logits @ params["W_head"] + params["b_head"]


ANSWERS = dict(positions="permutation", medical="pretrained", causal_mask="bidirectional")
