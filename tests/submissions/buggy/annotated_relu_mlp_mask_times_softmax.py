"""Blind round 6 (b6_09, issue 38): encoder_block with The Annotated Transformer's
PositionwiseFeedForward (ReLU), and self_attention that masks the probabilities after the softmax
(multiplying by the lower triangle, as forum questions on causal masks do).

Mistakes:
1. encoder_block: the MLP uses ReLU instead of GELU. Shows whenever some pre-activation is
   negative (every realistic input).
2. self_attention: with causal=True, zeroes the upper triangle of the softmax output (no
   renormalisation) instead of masking the scores with -inf before the softmax. Shows only with
   causal=True; the default (no mask) is right.

Grader: both named (the mask by steps.mask_after_step; before it, only observed: "returns the
expected values only in 1 of 4 rows (row 3)").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_relu',
          'no-causal-mask': 'op:mask_after:self_attention/attention:mask-after-softmax'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d), heads in a loop."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    outs = []
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        weights = softmax(q[:, cols] @ k[:, cols].T / np.sqrt(d_h), axis=-1)
        if causal:
            weights = weights * np.tril(np.ones((T, T)))
        outs.append(weights @ v[:, cols])
    return np.concatenate(outs, axis=1) @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    """Pre-LN block with a position-wise feed-forward."""
    def feed_forward(h):
        return np.maximum(0, h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    return x + feed_forward(layer_norm(x, p["ln2_g"], p["ln2_b"]))
