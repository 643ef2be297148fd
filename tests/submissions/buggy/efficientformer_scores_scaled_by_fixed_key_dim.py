"""Blind round 30 (b30_03, issue 38): self_attention ported from snap-research/EfficientFormer
(models/efficientformer.py Attention, key_dim=32, without its attention biases).

Mistakes:
1. The scores are scaled by key_dim ** -0.5 with key_dim fixed at 32 (an extra keyword with the
   repo's default), not 1 / sqrt(d_h). Right only when d_h = 32.

Grader: at blind time, observed only ("returns the expected values only in 1 of 4 rows",
true but not the cause). Now named by the error model's `fixed_head_width` (fixed.py): "the scores are
divided by sqrt(32) = 5.657 whatever the head width ... right only where d_h = 32" on
no-causal-mask and multi-head-attention (the checks' calls read several head widths, so a fixed
number is told apart from one derived from the width).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:fixed_head_width:self_attention/attention:scale-of-width-32',
          'multi-head-attention': 'op:fixed_head_width:self_attention/attention:scale-of-width-32'}


def self_attention(x, p, heads, causal=False, key_dim=32):
    """EfficientFormer's Attention (without the attention biases), one image, no batch axis."""
    N, C = x.shape
    if C % heads:
        raise ValueError(f"width {C} is not divisible by {heads} heads")
    num_heads = heads
    scale = key_dim ** -0.5

    def to_heads(t):                      # reshape(B, N, num_heads, -1).permute(0, 2, 1, 3)
        return t.reshape(N, num_heads, -1).transpose(1, 0, 2)

    q = to_heads(x @ p["Wq"] + p["bq"])
    k = to_heads(x @ p["Wk"] + p["bk"])
    v = to_heads(x @ p["Wv"] + p["bv"])
    attn = (q @ k.transpose(0, 2, 1)) * scale
    if causal:
        attn = np.where(np.tril(np.ones((N, N), dtype=bool)), attn, -np.inf)
    attn = softmax(attn, axis=-1)
    x = (attn @ v).transpose(1, 0, 2).reshape(N, -1)    # transpose(1, 2).reshape(B, N, self.dh)
    x = x @ p["Wo"] + p["bo"]                            # self.proj
    return x
