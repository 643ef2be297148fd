"""Blind round 52 (b52_13, issue 38): self_attention ported from "Level 01: basic multi-head
attention shape logic" (split_heads, combine_heads, and `np.where(mask > 0, scores, -1e9)`, 1 =
keep), with the TF tutorial's look-ahead mask `1 - np.tril(np.ones((size, size)))` (1 = hide).
The module-level helpers are nested in self_attention here (a fixture replaces the solution's
functions only).

Mistakes:
1. With causal=True the TF convention (1 = hide) goes into a rule whose convention is 1 = keep.
   Each token then sees only later tokens: the diagonal and the past are hidden, and the last
   row, fully masked, averages uniformly. causal=False is exact.

Grader: at blind time (db53909c) and now, named on no-causal-mask (at blind time "In
`self_attention` (at the lecture's step `attention(q, k, v, mask)`), the mask hides the scores it
should keep and keeps the ones it should hide, `np.where(mask, -1e9, scores)` in effect, where
`np.where(mask, scores, -np.inf)` belongs, as when a mask that marks the hidden keys
(`np.triu(np.ones((T, T)), 1)`, 1 at the later tokens, PyTorch's convention) meets a rule that
reads 1 as "keep" (`np.where(mask == 0, -9e15, scores)`). Each query then sees only the later
tokens, never itself or the earlier ones, and the last query, with every key hidden, weighs all of
them alike. ..."; now: "In `self_attention` (where each head's attention weights are computed and
applied to its values), the mask hides the scores it should keep and keeps the ones it should hide
..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:mask_swapped:self_attention/attention:kept-and-hidden-swapped-finite-fill'}


def self_attention(x, p, heads, causal=False):
    """Self-attention with learned projections. x: (T, D), weights (D, D)."""
    def scaled_dot_product_attention(q, k, v, mask=None):
        """q/k/v: (B, T, D), mask: (T,T) or (B,T,T)."""
        d = q.shape[-1]
        scores = np.matmul(q, np.swapaxes(k, -1, -2)) / np.sqrt(d)

        if mask is not None:
            if mask.ndim == 2:
                mask = mask[None, :, :]
            scores = np.where(mask > 0, scores, -1e9)

        weights = softmax(scores, axis=-1)
        out = np.matmul(weights, v)
        return out, weights

    def split_heads(x, num_heads):
        """x: (T, D) -> (H, T, D_head)"""
        t, d = x.shape
        if d % num_heads != 0:
            raise ValueError("model dimension must be divisible by num_heads")
        d_head = d // num_heads
        return x.reshape(t, num_heads, d_head).transpose(1, 0, 2)

    def combine_heads(x):
        """x: (H, T, D_head) -> (T, D)"""
        h, t, d_head = x.shape
        return x.transpose(1, 0, 2).reshape(t, h * d_head)

    def look_ahead_mask(size):
        return 1 - np.tril(np.ones((size, size)))

    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]

    qh = split_heads(q, heads)
    kh = split_heads(k, heads)
    vh = split_heads(v, heads)

    mask = look_ahead_mask(x.shape[0]) if causal else None
    out, _ = scaled_dot_product_attention(qh, kh, vh, mask=mask)
    return combine_heads(out) @ p["Wo"] + p["bo"]
