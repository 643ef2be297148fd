"""Known-wrong implementations, one per misconception students are known to have.

A spec's check says `misconceptions: [{like: NAME, hint: "..."}]`; when the student's answer
matches what the function registered under NAME returns on the same inputs, the student sees that
hint. Each takes the same arguments as the student-API name it imitates (and its name starts with
it: `patchify_...`), and is the reference's own pieces with exactly one step changed, so that it
differs from the right answer only by that mistake. Most are options of one wrong implementation
(`alone`, `variant`); variants compose (`attention_no_scale+attention_causal`), so that several
bugs in one function are all named (`combinations`, checks/mistakes.py). A mistake the error
model generates from the reference (grader/reference/error_model) is registered as that
rewrite, by its name (`instance`): an instance of an operator, not an implementation of its own.

The list follows lecture 4.2's "where students get stuck" and the issue's catalogue, in the
order of section 3: counting, patches, the sequence, softmax and LayerNorm, attention, the
block, the whole model. A misconception that needs no code (a wrong multiple-choice option,
such as training from scratch on 800 scans) lives in its exercise spec instead.
"""
from __future__ import annotations

import functools
import inspect
import itertools
import math
import warnings
from collections.abc import Callable

import numpy as np

from .attention import causal_mask, merge_heads, self_attention, split_heads
from .counting import check_tiling
from .encoder import mlp
from .layers import gelu, layer_norm, linear, softmax
from .patches import as_hwc, conv_patch_embed, linear_patch_embed

MISCONCEPTIONS: dict[str, Callable] = {}
OPTIONS: dict[str, tuple[Callable, dict]] = {}  # a variant's name -> (implementation, options)
COMBINATION_LIMIT = 40  # combinations tried per check: a few dozen outputs per case at most
JOIN = "+"  # "attention_no_scale+attention_causal": both mistakes at once


def misconception(name: str):
    def register(fn):
        MISCONCEPTIONS[name] = fn
        return fn
    return register


class Rewritten:
    """The reference function `function` rewritten as the error model's mistake `mistake`
    ("op:term:softmax:drop-..."), compiled on its first call: the error model is imported only
    when a listed mistake's output is computed (a case failed, or `vitgrade compile`)."""

    def __init__(self, function: str, mistake: str):
        self.function, self.mistake, self._compiled = function, mistake, None

    @property
    def __signature__(self):  # a rewrite takes the reference's arguments (inspect.signature)
        from . import REFERENCE

        return inspect.signature(REFERENCE[self.function])

    def __call__(self, *args, **kwargs):
        if self._compiled is None:
            from . import REFERENCE
            from .error_model import rewrite

            self._compiled = rewrite(REFERENCE[self.function], self.mistake)
        return self._compiled(*args, **kwargs)


def instance(name: str, function: str, mistake: str) -> None:
    """Register `name` as the error model's `mistake` of the reference `function`, a mistake
    that composes with no other (as `alone`)."""
    MISCONCEPTIONS[name] = Rewritten(function, mistake)


def alone(name: str, implementation: Callable, **options) -> None:
    """Register `name` as `implementation` with `options` set (its keyword-only parameters), a
    mistake that composes with no other."""
    MISCONCEPTIONS[name] = functools.partial(implementation, **options)


def variant(name: str, implementation: Callable, **options) -> None:
    """`alone`, and composing with the other variants of `implementation` (`combined`)."""
    alone(name, implementation, **options)
    OPTIONS[name] = (implementation, options)


def combined(names) -> Callable | None:
    """The one wrong implementation with every variant of `names` set, or None when they do not
    compose (not all variants of one implementation, or two set the same option)."""
    parts = [OPTIONS.get(name) for name in names]
    if None in parts or len({id(impl) for impl, _ in parts}) != 1:
        return None
    merged = {}
    for _, options in parts:
        if merged.keys() & options.keys():
            return None
        merged.update(options)
    return functools.partial(parts[0][0], **merged)


def wrong_implementation(like: str) -> Callable:
    """The function registered as `like`, or the combination `a+b[+c]`; KeyError otherwise."""
    if JOIN not in like:
        return MISCONCEPTIONS[like]
    function = combined(like.split(JOIN))
    if function is None:
        raise KeyError(like)
    return function


def combinations(names, limit: int = COMBINATION_LIMIT) -> list[str]:
    """The pairs, then the triples, of `names` (in their order) that compose: at most `limit`."""
    names = list(dict.fromkeys(n for n in names if n in OPTIONS))
    found = []
    for size in (2, 3):
        for group in itertools.combinations(names, size):
            if len(found) == limit:
                return found
            if combined(group) is not None:
                found.append(JOIN.join(group))
    return found


# --- counting (section 4 step 1; Practice 1, 4, 5) ----------------------------------------------

def _patches(H, W, P, *, count):
    """num_patches counted another way, sizes that do not tile never refused: "windows" (stride-1
    CNN windows, (H - P + 1)(W - P + 1)), "area" (HW / P^2, a float), "floor" ((H // P)(W // P):
    the pixels that do not tile dropped) or "ceiling" (a partial patch counted)."""
    counts = {"windows": lambda: (H - P + 1) * (W - P + 1), "area": lambda: H * W / P ** 2,
              "floor": lambda: (H // P) * (W // P), "ceiling": lambda: -(-H // P) * -(-W // P)}
    return counts[count]()


def _tokens(H, W, P, cls_token=True, *, count):
    """num_tokens with the patches counted as _patches(count=...) counts them."""
    return _patches(H, W, P, count=count) + (1 if cls_token else 0)


alone("overlapping_windows_count", _patches, count="windows")
alone("pixels_over_patch_area", _patches, count="area")
alone("floor_division_count", _patches, count="floor")
alone("tokens_floor_division", _tokens, count="floor")  # no ValueError when patches do not tile
alone("ceiling_count", _patches, count="ceiling")
alone("tokens_ceiling", _tokens, count="ceiling")
instance("cls_forgotten", "num_tokens",  # the patches only, even when cls_token is true
         "op:count_constant:num_tokens:1-as-0")
instance("cls_always", "num_tokens",  # [CLS] counted even when cls_token is false
         "op:condition_ignored:num_tokens:cls_token-ignored")
instance("scores_linear", "attention_scores", "op:term:attention_scores:drop-T")  # T, not T**2
instance("channels_forgotten", "patch_dim", "op:term:patch_dim:drop-C")  # P*P, no channels


# --- patches (Lab 4; section 4 step 2; Practice 7) ----------------------------------------------

def _patchify(image, P, *, axes=(0, 2, 1, 3, 4), crop=False):
    """patchify taking the pixels in another order: `axes` transposes the grid [rows, p1, cols,
    p2, C] (the reference's by default); None is a bare reshape to [N, P*P*C]. `crop`: patches
    that do not tile, the leftover pixels silently cropped instead of a ValueError."""
    image = as_hwc(image)
    if crop:
        image = image[:image.shape[0] // P * P, :image.shape[1] // P * P]
    H, W, P = check_tiling(image.shape[0], image.shape[1], P)
    if axes is None:  # consecutive pixels of a row, not P x P tiles
        return image.reshape((H // P) * (W // P), -1)
    grid = image.reshape(H // P, P, W // P, P, image.shape[2]).transpose(axes)
    return grid.reshape(-1, np.prod(grid.shape[2:]))


def _linear_embed(image, W_e, b_e, P, *, axes):
    """linear_patch_embed on _patchify's patches."""
    return linear(_patchify(image, P, axes=axes), W_e, b_e)


CHANNEL_FIRST = (0, 2, 4, 1, 3)  # (c, p1, p2): torch's (C, P, P) weight layout, two axes moved
alone("patchify_channel_first", _patchify, axes=CHANNEL_FIRST)
alone("linear_embed_channel_first", _linear_embed, axes=CHANNEL_FIRST)
alone("patchify_floor_crop", _patchify, crop=True)
PATCH_ORDERS = {  # the pixels in another order: image.reshape(N, P*P*C); the patches numbered
    "bare_reshape": "op:transpose:{}patchify:grid.transpose-removed",  # down the columns first;
    "grid_transposed": "op:axes_swapped:{}patchify:transpose-2-0-1-3-4",  # each patch read
    "patch_transposed": "op:axes_swapped:{}patchify:transpose-0-2-3-1-4"}  # column by column
for _order, _mistake in PATCH_ORDERS.items():  # patchify_bare_reshape, linear_embed_..., ...
    instance(f"patchify_{_order}", "patchify", _mistake.format(""))
    instance(f"linear_embed_{_order}", "linear_patch_embed",
             _mistake.format("linear_patch_embed/"))
instance("linear_embed_bias_forgotten", "linear_patch_embed",
         "op:term:linear_patch_embed/linear:drop-b")


def _conv(image, K, b, stride, *, stride_one=False, bias=True, flip=False, last_window=True):
    """conv_patch_embed with one step changed: `stride_one` (overlapping windows, (H - k + 1) x
    (W - k + 1) outputs), no `bias`, the kernel flipped (`flip`: a textbook convolution instead
    of the cross-correlation layers compute), or windows at range(0, H - k, stride) only (no
    `last_window`: one output row and column short when they fit)."""
    K = np.asarray(K)[::-1, ::-1] if flip else K
    b = b if bias else np.zeros_like(np.asarray(b))
    out = conv_patch_embed(image, K, b, 1 if stride_one else stride)
    if last_window:
        return out
    k = np.shape(K)[0]
    rows, cols = (len(range(0, side - k, int(stride))) for side in as_hwc(image).shape[:2])
    return out[:rows, :cols]


# options of one loop: a textbook convolution written from scratch often has two of them
variant("conv_stride_ignored", _conv, stride_one=True)
variant("conv_bias_forgotten", _conv, bias=False)
variant("conv_kernel_flipped", _conv, flip=True)
variant("conv_last_window_dropped", _conv, last_window=False)


@misconception("conv_equivalent_stride_one")
def conv_equivalent_stride_one(P):
    """(P, 1): a sliding kernel, i.e. overlapping windows."""
    return (P, 1)


# --- the sequence: [CLS] and positions (section 3 steps 3-4; Practice 2) ------------------------

def _embed(image, params, *, positions="after", cls="first", bias=True, cls_bias=False):
    """embed_image with one step changeable; the defaults are the reference. `positions`:
    "after" [CLS] is prepended, "before" (the patches get pos[1:], [CLS] none) or "none"; `cls`:
    "first", "last" or "none"; `cls_bias`: b_e added to [CLS] too."""
    b_e = np.asarray(params["b_e"])
    tokens = linear_patch_embed(image, params["W_e"], b_e if bias else 0 * b_e, params["P"])
    pos = np.asarray(params["pos"])
    if positions == "before":
        tokens = tokens + pos[1:]
    token = np.asarray(params["cls"]) + (b_e if cls_bias else 0)
    rows = {"first": [token[None], tokens], "last": [tokens, token[None]], "none": [tokens]}[cls]
    x = np.concatenate(rows)
    if positions == "after":
        x = x + (pos if cls != "none" else pos[1:])
    return x


variant("embed_positions_forgotten", _embed, positions="none")  # a bag of tiles
variant("embed_cls_appended", _embed, cls="last")  # [CLS] the last row, not row 0
variant("embed_cls_forgotten", _embed, cls="none")  # the patches and pos[1:] only
variant("embed_bias_forgotten", _embed, bias=False)  # the patch embedding forgets b_e
variant("embed_positions_before_cls", _embed, positions="before")  # [CLS] gets no position
variant("embed_cls_bias", _embed, cls_bias=True)  # cls + b_e: the patch bias on [CLS] too


# --- softmax and LayerNorm (section 3 step 5) ---------------------------------------------------

@misconception("softmax_wrong_axis")
def softmax_wrong_axis(x, axis=-1):
    """Softmax normalised along another axis than `axis` (columns instead of rows)."""
    ndim = np.ndim(x)  # the last axis when `axis` is not it, else the first
    return softmax(x, axis=0 if axis % ndim == ndim - 1 else ndim - 1)


# exp(x) / sum(exp(x)) without the max subtracted (exp(1000) overflows to inf, then nan); the max
# and the sum without keepdims=True (on a square matrix they broadcast along the wrong axis)
instance("softmax_without_max", "softmax",
         "op:term:softmax:drop-np.max(xaxis=axiskeepdims=True)")
instance("softmax_without_keepdims", "softmax",
         "op:keepdims:softmax:max.keepdims+op:keepdims:softmax:sum.keepdims")


def _layer_norm(x, gamma, beta, eps=1e-6, *, ddof=0, denominator="sqrt", axis=-1,
                affine="normal", one_pass=False):
    """layer_norm with one step changeable; the defaults are the reference. `denominator`:
    "sqrt" (sqrt(var + eps)), "std_plus_eps" (eps outside the root) or "var"; `affine`:
    "normal", "swapped" (x_hat * beta + gamma) or "none"; `one_pass`: the variance as
    mean(x**2) - mean(x)**2, in x's own float type (where it loses its digits: far from 0)."""
    x = np.asarray(x)
    x = x if one_pass and x.dtype.kind == "f" else x.astype(float)
    mean = x.mean(axis=axis, keepdims=True)
    with warnings.catch_warnings():  # ddof=1 on one number: nan, as torch.var gives
        warnings.simplefilter("ignore", RuntimeWarning)
        var = ((x * x).mean(axis=axis, keepdims=True) - mean * mean if one_pass
               else x.var(axis=axis, ddof=ddof, keepdims=True))
    scale = {"sqrt": lambda: np.sqrt(var + eps), "std_plus_eps": lambda: np.sqrt(var) + eps,
             "var": lambda: var + eps}[denominator]()
    x_hat = (x - mean) / scale
    gain, shift = {"normal": (gamma, beta), "swapped": (beta, gamma), "none": (1.0, 0.0)}[affine]
    return x_hat * gain + shift


variant("layer_norm_unbiased", _layer_norm, ddof=1)  # torch.var's default, not the biased one
variant("layer_norm_one_pass_variance", _layer_norm, one_pass=True)  # E[x^2] - E[x]^2
variant("layer_norm_eps_outside", _layer_norm, denominator="std_plus_eps")
variant("layer_norm_divides_by_variance", _layer_norm, denominator="var")
variant("layer_norm_wrong_axis", _layer_norm, axis=0)  # over the tokens, not each token's features
variant("layer_norm_no_affine", _layer_norm, affine="none")  # gamma and beta never applied
variant("layer_norm_affine_swapped", _layer_norm, affine="swapped")  # x_hat * beta + gamma


# --- multi-head self-attention (section 3 step 5; Practice 6) -----------------------------------

# how heads are split ([T, d] -> [heads, T, d_h]) and merged back
LAYOUTS = {"contiguous": (split_heads, merge_heads),
           # head h takes the columns h::heads
           "interleaved": (lambda x, heads: x.reshape(len(x), -1, heads).transpose(2, 0, 1),
                           lambda x: x.transpose(1, 2, 0).reshape(x.shape[1], -1)),
           # a bare reshape: rows mixed across heads
           "bare_reshape": (lambda x, heads: x.reshape(heads, len(x), -1),
                            lambda x: x.reshape(x.shape[1], -1))}


def _attention(x, p, heads, causal=False, *, scale=None, layout="contiguous", transposed=None,
               mask="causal", softmax_axis=-1, project=True, one_head=False):
    """Single-image multi-head attention with one step changeable; the defaults: the reference.
    `scale`: "none" or "d" (1/sqrt(d), the model width); `transposed`: "Wq" or "Wk" used as
    W.T; `mask`: "causal" (GPT's when causal=True), "always", "ignored", "upside_down" or
    "diagonal" (causal=True hides the diagonal too); `one_head`: `heads` checked, then ignored."""
    x = np.asarray(x, dtype=float)
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} does not split into {heads} heads")
    heads = 1 if one_head else heads
    split, merge = LAYOUTS[layout]
    weights = {n: np.asarray(p[n]).T if n == transposed else p[n] for n in ("Wq", "Wk", "Wv")}
    q, k, v = (split(linear(x, weights[f"W{n}"], p[f"b{n}"]), heads) for n in "qkv")
    factor = {None: 1 / math.sqrt(d // heads), "none": 1.0, "d": 1 / math.sqrt(d)}[scale]
    scores = q @ k.swapaxes(-1, -2) * factor  # [heads, T, T]
    hidden = {"causal": causal_mask(T) if causal else None, "ignored": None,
              "always": causal_mask(T), "upside_down": causal_mask(T).T if causal else None,
              "diagonal": np.tri(T, k=-1, dtype=bool) if causal else None}[mask]
    if hidden is not None:
        scores = np.where(hidden, scores, -np.inf)
    with np.errstate(invalid="ignore"):  # a row with every key hidden is nan: that is the point
        out = merge(softmax(scores, axis=softmax_axis) @ v)  # [T, d]
    return linear(out, p["Wo"], p["bo"]) if project else out


variant("attention_causal", _attention, mask="always")  # GPT's mask on patches, causal False
variant("attention_causal_ignored", _attention, mask="ignored")  # causal=True: no mask at all
variant("attention_mask_transposed", _attention, mask="upside_down")  # sees i..T-1
variant("attention_causal_diagonal", _attention, mask="diagonal")  # tril(k=-1): row 0 is nan
variant("attention_no_scale", _attention, scale="none")  # q k^T without 1/sqrt(d_h)
variant("attention_scale_d", _attention, scale="d")  # 1/sqrt(d), the model width
variant("attention_heads_interleaved", _attention, layout="interleaved")  # columns h::heads
variant("attention_heads_bare_reshape", _attention, layout="bare_reshape")  # no transpose
variant("attention_key_transposed", _attention, transposed="Wk")  # nn.Linear's habit: x @ Wk.T
variant("attention_query_transposed", _attention, transposed="Wq")
variant("attention_one_head", _attention, one_head=True)  # right for heads=1 only
variant("attention_softmax_wrong_axis", _attention, softmax_axis=-2)  # over the queries
variant("attention_no_output_projection", _attention, project=False)  # never through Wo, bo


# --- the encoder block (section 3 step 5) -------------------------------------------------------

def _block(x, p, heads, *, causal=False, relu=False, post_ln=False, attention_residual=True,
           mlp_residual=True):
    """One encoder block with one step changeable; the defaults are the reference's pre-LN block.
    `post_ln`: LayerNorm after each residual sum (the 2017 Transformer)."""
    x = np.asarray(x, dtype=float)
    activation = (lambda y: np.maximum(y, 0.0)) if relu else gelu

    def ln(y, n):
        return layer_norm(y, p[f"ln{n}_g"], p[f"ln{n}_b"])

    a = self_attention(x if post_ln else ln(x, 1), p, heads, causal=causal)
    x = x + a if attention_residual else a
    x = ln(x, 1) if post_ln else x
    m = mlp(x if post_ln else ln(x, 2), p, activation)
    x = x + m if mlp_residual else m
    return ln(x, 2) if post_ln else x


variant("encoder_post_ln", _block, post_ln=True)  # LayerNorm after each residual sum
variant("encoder_no_attention_residual", _block, attention_residual=False)
variant("encoder_no_mlp_residual", _block, mlp_residual=False)  # returns mlp(LN2(x))
variant("encoder_causal", _block, causal=True)  # the block's attention uses GPT's causal mask
variant("encoder_relu", _block, relu=True)  # ReLU in the MLP instead of GELU


# --- the whole ViT (section 3 step 6) -----------------------------------------------------------

def _vit(image, params, *, pool="cls", final_ln=True, positions="after", cls="first",
         **block_options):
    """vit_forward with one step changeable; the defaults are the reference. `pool`: "cls" (row
    0), "last" (the last row), "mean" (the patches' mean) or "mean_all" (every token's);
    `positions`, `cls`: as _embed's; `block_options`: _block's, for every block."""
    x = _embed(image, params, positions=positions, cls=cls)  # [N+1, d]
    for p in params["blocks"]:
        x = _block(x, p, params["heads"], **block_options)
    if final_ln:
        x = layer_norm(x, params["ln_g"], params["ln_b"])
    pooled = {"cls": lambda: x[0], "last": lambda: x[-1], "mean": lambda: x[1:].mean(axis=0),
              "mean_all": lambda: x.mean(axis=0)}[pool]()
    return linear(pooled, params["W_head"], params["b_head"])


variant("vit_mean_pool", _vit, pool="mean")  # the patches' mean instead of the [CLS] row
variant("vit_mean_pool_all_tokens", _vit, pool="mean_all")  # every token's mean, [CLS] included
variant("vit_last_row", _vit, pool="last")  # the last token, not row 0 where [CLS] sits
variant("vit_final_ln_skipped", _vit, final_ln=False)  # no final LayerNorm before the head
variant("vit_positions_forgotten", _vit, positions="none")  # a bag of tiles
variant("vit_cls_appended", _vit, cls="last")  # [CLS] last, while the head still reads row 0
variant("vit_causal", _vit, causal=True)  # every block's attention with GPT's causal mask
variant("vit_post_ln", _vit, post_ln=True)
variant("vit_no_attention_residual", _vit, attention_residual=False)
variant("vit_no_mlp_residual", _vit, mlp_residual=False)
