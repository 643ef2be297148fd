"""Blind round 11 (b11_05, issue 38): self_attention ported to einsum with a (T, heads, d_h) layout.

Sources: flax.linen.attention.dot_product_attention_weights
('...qhd,...khd->...hqk') and big_vision's MultiHeadDotProductAttention
(https://github.com/google/flax/blob/main/flax/linen/attention.py); the values shortcut from
"simplified self-attention without trainable weights" tutorials (Raschka, Build a Large
Language Model from Scratch ch. 3: context = attn_weights @ inputs); the mask from numpy
answers that use np.triu_indices to fill the upper triangle.
Mistakes:
 1. the values are the input itself (no Wv, no bv): every input, any head count.
 2. the causal mask writes scores[np.triu_indices(T, 1)] = -inf on the 3-D (heads, T, T)
    array, which indexes the head and query axes: causal=True only (IndexError when
    T - 2 >= heads, whole rows of -inf otherwise).

Grader: the missing value projection is named (op:skip ... skip-linear.3). The triu_indices
mask got only its IndexError and traceback at first; now no-causal-mask names both mistakes at
once: the search pairs a single that raises the student's very IndexError, message and all, on
the failing case (projections' mask_leading_axes) with every other single, and the missing
value projection completes it on the cases that returned.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:skip:self_attention:skip-linear.3',
          'no-causal-mask': 'op:skip:self_attention:skip-linear.3'
                            '+op:mask_leading_axes:self_attention/attention:'
                            'mask-indexes-leading-axes'}


def self_attention(x, p, heads, causal=False):
    """einsum attention in the flax layout: q, k, v are (T, heads, d_h)."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"{heads} heads do not divide {d}")
    d_h = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, d_h)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, d_h)
    v = x.reshape(T, heads, d_h)
    scores = np.einsum("qhd,khd->hqk", q, k) / np.sqrt(d_h)
    if causal:
        scores[np.triu_indices(T, k=1)] = -np.inf
    weights = softmax(scores, axis=-1)
    out = np.einsum("hqk,khd->qhd", weights, v).reshape(T, d)
    return out @ p["Wo"] + p["bo"]
