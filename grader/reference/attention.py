"""Multi-head self-attention (lecture 4.2, section 3 step 5; the Week 3 block).

A classifier ViT uses no mask: every patch may look at every patch. `causal=True` gives GPT's
mask, which the grader needs to recognise that mistake. Any leading axes work ([T, d], [B, T, d]).
"""
import math

import numpy as np

from .layers import linear, softmax


def causal_mask(T):  # -> [T, T] bool
    """True where query i may see key j, i.e. j <= i (GPT hides later tokens)."""
    return np.tri(T, dtype=bool)  # [T, T], ones on and below the diagonal


def split_heads(x, heads):  # [..., T, d] -> [..., heads, T, d/heads]
    """Head h takes the contiguous columns h*d_h:(h+1)*d_h."""
    *lead, T, d = x.shape
    return x.reshape(*lead, T, heads, d // heads).swapaxes(-2, -3)  # [..., heads, T, d_h]


def merge_heads(x):  # [..., heads, T, d_h] -> [..., T, heads*d_h]
    """Inverse of split_heads: the heads' outputs side by side, head 0 first."""
    *lead, heads, T, d_h = x.shape
    return x.swapaxes(-2, -3).reshape(*lead, T, heads * d_h)  # [..., T, d]


def attention(q, k, v, mask=None):  # [..., T, d_h] x 3, [T, T] bool -> [..., T, d_h]
    """softmax(q k^T / sqrt(d_h)) v, scores hidden (-inf) where mask is False."""
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])  # [..., T, T]
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)  # [..., T, T]
    return softmax(scores) @ v  # [..., T, d_h]


def self_attention(x, p, heads, causal=False):  # [..., T, d] -> [..., T, d]
    """Multi-head self-attention; p keys Wq, bq, Wk, bk, Wv, bv ([d, d], [d]) and Wo, bo."""
    check_heads(x.shape[-1], heads)
    q = split_heads(linear(x, p["Wq"], p["bq"]), heads)  # [..., heads, T, d_h]
    k = split_heads(linear(x, p["Wk"], p["bk"]), heads)  # [..., heads, T, d_h]
    v = split_heads(linear(x, p["Wv"], p["bv"]), heads)  # [..., heads, T, d_h]
    mask = causal_mask(x.shape[-2]) if causal else None  # [T, T]
    out = merge_heads(attention(q, k, v, mask))  # [..., T, d]
    return linear(out, p["Wo"], p["bo"])  # [..., T, d]


def check_heads(d, heads):
    """ValueError unless `heads` is positive and splits the width d into equal heads."""
    if heads <= 0:
        raise ValueError(f"the number of heads must be positive, got {heads}")
    if d % heads:
        raise ValueError(f"width {d} does not split into {heads} heads: "
                         f"{d} % {heads} = {d % heads}")
