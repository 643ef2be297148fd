"""Known-wrong implementations, one per misconception students are known to have.

A spec's check says `misconceptions: [{like: NAME, hint: "..."}]`; when the student's
answer matches what the function registered under NAME returns on the same inputs,
the student sees that hint. Each function takes the same arguments as the student-API
name it imitates (its name starts with what it imitates: `patchify_...`, `attention_...`),
and is built from the reference's own pieces with exactly one step changed, so that it
differs from the right answer only by that mistake.

The list follows lecture 4.2's "where students get stuck" and the issue's catalogue, in the
order of section 3: counting, patches, the sequence, softmax and LayerNorm, attention, the
block, the whole model. A misconception that needs no code (a wrong multiple-choice option,
such as training from scratch on 800 scans) lives in its exercise spec instead.
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from .attention import causal_mask, merge_heads, self_attention, split_heads
from .counting import check_tiling, num_patches
from .encoder import encoder_block, mlp
from .layers import gelu, layer_norm, linear, softmax
from .patches import as_hwc, conv_patch_embed, embed_image, linear_patch_embed, patchify

MISCONCEPTIONS: dict[str, Callable] = {}


def misconception(name: str):
    def register(fn):
        MISCONCEPTIONS[name] = fn
        return fn
    return register


# --- counting (section 4 step 1; Practice 1, 4, 5) ----------------------------------------------

@misconception("overlapping_windows_count")
def overlapping_windows_count(H, W, P):
    """Counting stride-1 CNN windows: (H - P + 1)(W - P + 1)."""
    return (H - P + 1) * (W - P + 1)


@misconception("pixels_over_patch_area")
def pixels_over_patch_area(H, W, P):
    """N = HW / P^2 as a float, without checking that the patches tile."""
    return H * W / P ** 2


@misconception("floor_division_count")
def floor_division_count(H, W, P):
    """(H // P)(W // P): silently drops the pixels that do not tile."""
    return (H // P) * (W // P)


@misconception("tokens_floor_division")
def tokens_floor_division(H, W, P, cls_token=True):
    """num_tokens with floor division: no ValueError when the patches do not tile."""
    return (H // P) * (W // P) + (1 if cls_token else 0)


@misconception("cls_forgotten")
def cls_forgotten(H, W, P, cls_token=True):
    """The patches only: [CLS] not counted even when cls_token is true."""
    return num_patches(H, W, P)


@misconception("cls_always")
def cls_always(H, W, P, cls_token=True):
    """[CLS] counted even when cls_token is false."""
    return num_patches(H, W, P) + 1


@misconception("scores_linear")
def scores_linear(num_tokens):
    """T scores instead of T**2: one score per token, not per pair."""
    return num_tokens


@misconception("channels_forgotten")
def channels_forgotten(P, C=3):
    """P*P: the channels left out of the flatten."""
    return P * P


# --- patches (Lab 4; section 4 step 2; Practice 7) ----------------------------------------------

def _grid(image, P):  # [H, W, C] -> [rows, P, cols, P, C]
    image = as_hwc(image)
    H, W, P = check_tiling(image.shape[0], image.shape[1], P)
    return image.reshape(H // P, P, W // P, P, image.shape[2])


@misconception("patchify_bare_reshape")
def patchify_bare_reshape(image, P):
    """image.reshape(N, P*P*C): consecutive pixels of a row, not P x P tiles."""
    image = as_hwc(image)
    H, W, P = check_tiling(image.shape[0], image.shape[1], P)
    return image.reshape((H // P) * (W // P), -1)


@misconception("patchify_grid_transposed")
def patchify_grid_transposed(image, P):
    """Patches numbered down the columns first (top to bottom, then left to right)."""
    grid = _grid(image, P).transpose(2, 0, 1, 3, 4)  # [cols, rows, p1, p2, C]
    return grid.reshape(-1, np.prod(grid.shape[2:]))


@misconception("patchify_channel_first")
def patchify_channel_first(image, P):
    """Each patch flattened in (c, p1, p2) order: torch's (C, P, P) weight layout."""
    grid = _grid(image, P).transpose(0, 2, 4, 1, 3)  # [rows, cols, C, p1, p2]
    return grid.reshape(-1, np.prod(grid.shape[2:]))


@misconception("patchify_patch_transposed")
def patchify_patch_transposed(image, P):
    """Each patch flattened column by column: (p2, p1, c) instead of (p1, p2, c)."""
    grid = _grid(image, P).transpose(0, 2, 3, 1, 4)  # [rows, cols, p2, p1, C]
    return grid.reshape(-1, np.prod(grid.shape[2:]))


@misconception("patchify_floor_crop")
def patchify_floor_crop(image, P):
    """Patches that do not tile: the leftover pixels silently cropped instead of a ValueError."""
    image = as_hwc(image)
    H, W = image.shape[0] // P * P, image.shape[1] // P * P
    return patchify(image[:H, :W], P)


PATCH_ORDERS = {"bare_reshape": patchify_bare_reshape,
                "grid_transposed": patchify_grid_transposed,
                "channel_first": patchify_channel_first,
                "patch_transposed": patchify_patch_transposed}


def _linear_embed_with(wrong_patchify):
    def embed(image, W_e, b_e, P):
        return linear(wrong_patchify(image, P), W_e, b_e)
    embed.__doc__ = f"linear_patch_embed on {wrong_patchify.__name__}'s patches."
    return embed


for _order, _wrong in PATCH_ORDERS.items():  # linear_embed_bare_reshape, ..._channel_first, ...
    misconception(f"linear_embed_{_order}")(_linear_embed_with(_wrong))


@misconception("linear_embed_bias_forgotten")
def linear_embed_bias_forgotten(image, W_e, b_e, P):
    """patchify(image, P) @ W_e without + b_e."""
    return patchify(image, P) @ np.asarray(W_e)


@misconception("conv_stride_ignored")
def conv_stride_ignored(image, K, b, stride):
    """Stride 1 whatever the stride: overlapping windows, (H - k + 1) x (W - k + 1) outputs."""
    return conv_patch_embed(image, K, b, 1)


@misconception("conv_bias_forgotten")
def conv_bias_forgotten(image, K, b, stride):
    """The convolution without its bias."""
    return conv_patch_embed(image, K, np.zeros_like(np.asarray(b)), stride)


@misconception("conv_kernel_flipped")
def conv_kernel_flipped(image, K, b, stride):
    """A textbook convolution (kernel flipped) instead of the cross-correlation layers compute."""
    return conv_patch_embed(image, np.asarray(K)[::-1, ::-1], b, stride)


@misconception("conv_equivalent_stride_one")
def conv_equivalent_stride_one(P):
    """(P, 1): a sliding kernel, i.e. overlapping windows."""
    return (P, 1)


# --- the sequence: [CLS] and positions (section 3 steps 3-4; Practice 2) ------------------------

@misconception("embed_positions_forgotten")
def embed_positions_forgotten(image, params):
    """[CLS] and patch tokens, no positions: a bag of tiles."""
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    return np.concatenate([np.asarray(params["cls"])[None], tokens])


@misconception("embed_cls_appended")
def embed_cls_appended(image, params):
    """[CLS] appended as the last row instead of prepended as row 0."""
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    return np.concatenate([tokens, np.asarray(params["cls"])[None]]) + params["pos"]


@misconception("embed_cls_forgotten")
def embed_cls_forgotten(image, params):
    """No [CLS] row: the patch tokens plus the patches' positions pos[1:]."""
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    return tokens + np.asarray(params["pos"])[1:]


@misconception("embed_bias_forgotten")
def embed_bias_forgotten(image, params):
    """embed_image whose patch embedding forgets b_e."""
    return embed_image(image, {**params, "b_e": np.zeros_like(np.asarray(params["b_e"]))})


# --- softmax and LayerNorm (section 3 step 5) ---------------------------------------------------

def _other_axis(x, axis):  # the last axis when `axis` is not it, else the first
    ndim = np.ndim(x)
    return 0 if axis % ndim == ndim - 1 else ndim - 1


@misconception("softmax_wrong_axis")
def softmax_wrong_axis(x, axis=-1):
    """Softmax normalised along another axis than `axis` (columns instead of rows)."""
    return softmax(x, axis=_other_axis(x, axis))


@misconception("softmax_without_max")
def softmax_without_max(x, axis=-1):
    """exp(x) / sum(exp(x)) without subtracting the max: exp(1000) overflows to inf, then nan."""
    x = np.asarray(x, dtype=np.result_type(np.asarray(x).dtype, np.float32))
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(x)
        return e / np.sum(e, axis=axis, keepdims=True)


@misconception("softmax_without_keepdims")
def softmax_without_keepdims(x, axis=-1):
    """max and sum without keepdims=True: on a square matrix they broadcast along the wrong axis."""
    x = np.asarray(x, dtype=np.result_type(np.asarray(x).dtype, np.float32))
    e = np.exp(x - np.max(x, axis=axis))
    return e / np.sum(e, axis=axis)


@misconception("layer_norm_unbiased")
def layer_norm_unbiased(x, gamma, beta, eps=1e-6):
    """The unbiased variance (ddof=1, torch.var's default) instead of the biased one."""
    x = np.asarray(x, dtype=float)
    var = x.var(axis=-1, ddof=1, keepdims=True)
    return (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(var + eps) * gamma + beta


@misconception("layer_norm_eps_outside")
def layer_norm_eps_outside(x, gamma, beta, eps=1e-6):
    """eps added to the standard deviation, outside the square root."""
    x = np.asarray(x, dtype=float)
    std = x.std(axis=-1, keepdims=True)
    return (x - x.mean(axis=-1, keepdims=True)) / (std + eps) * gamma + beta


@misconception("layer_norm_divides_by_variance")
def layer_norm_divides_by_variance(x, gamma, beta, eps=1e-6):
    """Divided by the variance instead of its square root."""
    x = np.asarray(x, dtype=float)
    var = x.var(axis=-1, keepdims=True)
    return (x - x.mean(axis=-1, keepdims=True)) / (var + eps) * gamma + beta


@misconception("layer_norm_wrong_axis")
def layer_norm_wrong_axis(x, gamma, beta, eps=1e-6):
    """Statistics over the tokens (axis 0) instead of each token's features (the last axis)."""
    x = np.asarray(x, dtype=float)
    mean, var = x.mean(axis=0, keepdims=True), x.var(axis=0, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


@misconception("layer_norm_no_affine")
def layer_norm_no_affine(x, gamma, beta, eps=1e-6):
    """Normalised, but gamma and beta never applied."""
    return layer_norm(x, np.ones_like(np.asarray(gamma)), np.zeros_like(np.asarray(beta)), eps)


# --- multi-head self-attention (section 3 step 5; Practice 6) -----------------------------------

def _split_interleaved(x, heads):  # [T, d] -> [heads, T, d_h], head h takes columns h::heads
    T, d = x.shape
    return x.reshape(T, d // heads, heads).transpose(2, 0, 1)


def _merge_interleaved(x):  # [heads, T, d_h] -> [T, d], the inverse of _split_interleaved
    heads, T, d_h = x.shape
    return x.transpose(1, 2, 0).reshape(T, d_h * heads)


def _attention(x, p, heads, causal=False, *, scale=None, interleaved=False, softmax_axis=-1,
               mask=None, project=True):
    """Single-image multi-head attention with one step changeable; the defaults: the reference."""
    x = np.asarray(x, dtype=float)
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} does not split into {heads} heads")
    split, merge = split_heads, merge_heads
    if interleaved:
        split, merge = _split_interleaved, _merge_interleaved
    q, k, v = (split(linear(x, p[f"W{n}"], p[f"b{n}"]), heads) for n in "qkv")  # [heads, T, d_h]
    scores = q @ k.swapaxes(-1, -2) * (1 / math.sqrt(d // heads) if scale is None else scale)
    if mask is None and causal:
        mask = causal_mask(T)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    out = merge(softmax(scores, axis=softmax_axis) @ v)  # [T, d]
    return linear(out, p["Wo"], p["bo"]) if project else out


@misconception("attention_causal")
def attention_causal(x, p, heads, causal=False):
    """GPT's causal mask on patches though causal is False: a patch sees only earlier patches."""
    return self_attention(x, p, heads, causal=True)


@misconception("attention_causal_ignored")
def attention_causal_ignored(x, p, heads, causal=False):
    """causal=True ignored: no mask at all."""
    return self_attention(x, p, heads)


@misconception("attention_mask_transposed")
def attention_mask_transposed(x, p, heads, causal=False):
    """The causal mask upside down: each token sees itself and the later tokens."""
    mask = causal_mask(np.shape(x)[0]).T if causal else None
    return _attention(x, p, heads, mask=mask)


@misconception("attention_no_scale")
def attention_no_scale(x, p, heads, causal=False):
    """Scores q k^T without the 1/sqrt(d_h) scale."""
    return _attention(x, p, heads, causal, scale=1.0)


@misconception("attention_scale_d")
def attention_scale_d(x, p, heads, causal=False):
    """Scores scaled by 1/sqrt(d), the model width, instead of 1/sqrt(d_h), the head width."""
    return _attention(x, p, heads, causal, scale=1 / math.sqrt(np.shape(x)[-1]))


@misconception("attention_heads_interleaved")
def attention_heads_interleaved(x, p, heads, causal=False):
    """Head h takes columns h, h + heads, h + 2*heads, ... instead of the block h*d_h:(h+1)*d_h."""
    return _attention(x, p, heads, causal, interleaved=True)


@misconception("attention_softmax_wrong_axis")
def attention_softmax_wrong_axis(x, p, heads, causal=False):
    """Softmax over the queries (axis -2) instead of over the keys (the last axis)."""
    return _attention(x, p, heads, causal, softmax_axis=-2)


@misconception("attention_no_output_projection")
def attention_no_output_projection(x, p, heads, causal=False):
    """The heads merged but never sent through Wo, bo."""
    return _attention(x, p, heads, causal, project=False)


# --- the encoder block (section 3 step 5) -------------------------------------------------------

def _block(x, p, heads, *, attention=self_attention, activation=gelu, post_ln=False,
           attention_residual=True, mlp_residual=True):
    """One encoder block with one step changeable; the defaults are the reference's pre-LN block."""
    x = np.asarray(x, dtype=float)

    def ln1(y):
        return layer_norm(y, p["ln1_g"], p["ln1_b"])

    def ln2(y):
        return layer_norm(y, p["ln2_g"], p["ln2_b"])

    if post_ln:
        x = ln1(x + attention(x, p, heads))
        return ln2(x + mlp(x, p, activation))
    a = attention(ln1(x), p, heads)
    x = x + a if attention_residual else a
    m = mlp(ln2(x), p, activation)
    return x + m if mlp_residual else m


@misconception("encoder_post_ln")
def encoder_post_ln(x, p, heads):
    """Post-LN (the 2017 Transformer): LayerNorm after each residual sum, not before each branch."""
    return _block(x, p, heads, post_ln=True)


@misconception("encoder_no_attention_residual")
def encoder_no_attention_residual(x, p, heads):
    """x = attention(LN1(x)): the residual around attention is missing."""
    return _block(x, p, heads, attention_residual=False)


@misconception("encoder_no_mlp_residual")
def encoder_no_mlp_residual(x, p, heads):
    """The block returns mlp(LN2(x)): the residual around the MLP is missing."""
    return _block(x, p, heads, mlp_residual=False)


@misconception("encoder_causal")
def encoder_causal(x, p, heads):
    """The block's attention uses GPT's causal mask."""
    return _block(x, p, heads, attention=lambda y, q, h: self_attention(y, q, h, causal=True))


@misconception("encoder_relu")
def encoder_relu(x, p, heads):
    """ReLU in the MLP instead of GELU."""
    return _block(x, p, heads, activation=lambda y: np.maximum(y, 0.0))


# --- the whole ViT (section 3 step 6) -----------------------------------------------------------

def _vit(image, params, *, embed=embed_image, block=encoder_block, final_ln=True, pool="cls",
         row=0):
    """vit_forward with one step changeable; the defaults are the reference."""
    x = embed(image, params)  # [N+1, d]
    for p in params["blocks"]:
        x = block(x, p, params["heads"])
    if final_ln:
        x = layer_norm(x, params["ln_g"], params["ln_b"])
    pooled = {"cls": lambda: x[row], "mean": lambda: x[1:].mean(axis=0),
              "mean_all": lambda: x.mean(axis=0)}[pool]()
    return linear(pooled, params["W_head"], params["b_head"])


@misconception("vit_mean_pool")
def vit_mean_pool(image, params):
    """The head reads the mean of the patch tokens instead of the [CLS] row."""
    return _vit(image, params, pool="mean")


@misconception("vit_mean_pool_all_tokens")
def vit_mean_pool_all_tokens(image, params):
    """The head reads the mean of every token, [CLS] included, instead of the [CLS] row."""
    return _vit(image, params, pool="mean_all")


@misconception("vit_last_row")
def vit_last_row(image, params):
    """The head reads the last token, not row 0 where [CLS] sits."""
    return _vit(image, params, row=-1)


@misconception("vit_final_ln_skipped")
def vit_final_ln_skipped(image, params):
    """The final LayerNorm (ln_g, ln_b) skipped before the head."""
    return _vit(image, params, final_ln=False)


@misconception("vit_positions_forgotten")
def vit_positions_forgotten(image, params):
    """The whole model on a bag of tiles: embed_image without positions."""
    return _vit(image, params, embed=embed_positions_forgotten)


@misconception("vit_cls_appended")
def vit_cls_appended(image, params):
    """[CLS] appended as the last token, while the head still reads row 0 (the first patch)."""
    return _vit(image, params, embed=embed_cls_appended)


def _vit_with_block(wrong_block):
    def forward(image, params):
        return _vit(image, params, block=wrong_block)
    forward.__doc__ = f"vit_forward whose blocks are {wrong_block.__name__}."
    return forward


for _name, _wrong_block in {"causal": encoder_causal, "post_ln": encoder_post_ln,
                            "no_attention_residual": encoder_no_attention_residual,
                            "no_mlp_residual": encoder_no_mlp_residual}.items():
    misconception(f"vit_{_name}")(_vit_with_block(_wrong_block))  # vit_causal, vit_post_ln, ...
