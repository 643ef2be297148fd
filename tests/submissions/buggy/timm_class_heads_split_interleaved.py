"""Blind round 6 (b6_02, issue 38): self_attention in the style of timm's Attention module (a small
class used internally, q/k/v split into heads with a reshape), ported to unbatched numpy.

Mistake:
1. self_attention: splits the heads with reshape(T, d_h, heads) and moves the last axis to the
   front, so head h takes the strided columns h, h+heads, h+2*heads, ... instead of the contiguous
   block h*d_h:(h+1)*d_h; the merge at the end is the right one (transpose(1, 0, 2).reshape(T, d)).
   Shows only with several heads (heads = 1 is right).

Grader: Named (the interleaved head split) on multi-head-attention and no-causal-mask, in the
words of the reference's split_heads; why-positions keeps full marks.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:split:self_attention/split_heads*:reshape-split-interleaved',
          'no-causal-mask': 'op:split:self_attention/split_heads*:reshape-split-interleaved'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d)."""
    class _Attention:
        """timm-style attention holding the weights of one layer."""

        def __init__(self, p, heads):
            self.p, self.heads = p, heads

        def _heads(self, y):
            T, d = y.shape
            return y.reshape(T, d // self.heads, self.heads).transpose(2, 0, 1)   # (heads, T, d_h)

        def __call__(self, x, causal=False):
            T, d = x.shape
            d_h = d // self.heads
            scale = d_h ** -0.5
            q = self._heads(x @ self.p["Wq"] + self.p["bq"])
            k = self._heads(x @ self.p["Wk"] + self.p["bk"])
            v = self._heads(x @ self.p["Wv"] + self.p["bv"])
            attn = (q @ k.transpose(0, 2, 1)) * scale
            if causal:
                attn = np.where(np.tril(np.ones((T, T), dtype=bool)), attn, -np.inf)
            attn = softmax(attn, axis=-1)
            out = (attn @ v).transpose(1, 0, 2).reshape(T, d)
            return out @ self.p["Wo"] + self.p["bo"]

    if x.shape[1] % heads:
        raise ValueError(f"width {x.shape[1]} is not divisible by {heads} heads")
    return _Attention(p, heads)(x, causal)
