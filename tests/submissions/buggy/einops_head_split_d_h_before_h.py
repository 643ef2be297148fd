"""Blind round 17 (b17_09, issue 38): self_attention written in the style of the einops tutorial,
each `rearrange` emulated by a reshape/transpose.

Mistakes:
1. self_attention splits the heads as `rearrange(q, 't (d h) -> h t d', h=heads)`, i.e.
   `q.reshape(T, d_h, heads).transpose(2, 0, 1)`: head h takes the strided columns h, h + heads,
   ... instead of the block h*d_h:(h+1)*d_h (shows only with several heads).

Grader: at blind time and now, named (the split's reshape the other way round, in each of the 3
calls). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:split:self_attention/split_heads*:reshape-split-interleaved',
          'no-causal-mask': 'op:split:self_attention/split_heads*:reshape-split-interleaved'}


def self_attention(x, p, heads, causal=False):
    """einops tutorial attention, each rearrange emulated by a reshape/transpose."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"Shape mismatch, can't divide axis of length {d} in chunks of {heads}")
    dh = d // heads
    q, k, v = (x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"])
    # q, k, v = map(lambda t: rearrange(t, 't (d h) -> h t d', h=heads), (q, k, v))
    q, k, v = (t.reshape(T, dh, heads).transpose(2, 0, 1) for t in (q, k, v))
    dots = np.einsum("hid,hjd->hij", q, k) * dh ** -0.5
    if causal:
        mask = np.triu(np.ones((T, T), dtype=bool), 1)
        dots = np.where(mask, -np.finfo(dots.dtype).max, dots)
    attn = softmax(dots, axis=-1)
    out = np.einsum("hij,hjd->hid", attn, v)
    out = out.transpose(1, 0, 2).reshape(T, d)  # rearrange(out, 'h t d -> t (h d)')
    return out @ p["Wo"] + p["bo"]
