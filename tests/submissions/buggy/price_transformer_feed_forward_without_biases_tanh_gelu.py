"""Blind round 48 (b48_11, issue 38): encoder_block with its MLP ported from a numpy
price-transformer's `_feed_forward` (code-search file id 56040568853: `hidden = x @ w1`,
tanh-GELU, `output = hidden @ w2`, no biases). The tanh GELU is accepted by the API.

Mistakes:
1. `b1` and `b2` are dropped from the MLP: `gelu_tanh(h @ W1) @ W2` instead of `gelu(h @ W1 + b1)
   @ W2 + b2`. Wrong whenever b1 or b2 is non-zero.

Grader: at blind time (4b7c886d) and now, named: "In `encoder_block` (in each of the lecture's 2
calls of `linear` in `mlp`), the bias `b` is left out of `x @ W + b`." on encoder-block;
vit-checkpoint observes encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:term:encoder_block/mlp/linear*:drop-b'}


def encoder_block(x, p, heads):
    """The lecture's pre-LN block with the price transformer's _feed_forward (no biases, tanh GELU)."""
    def _feed_forward(x):
        """Feed-forward network with GELU activation."""
        w1, w2 = p["W1"], p["W2"]

        # GELU activation
        hidden = x @ w1
        hidden = 0.5 * hidden * (1 + np.tanh(np.sqrt(2 / np.pi) * (hidden + 0.044715 * hidden**3)))
        output = hidden @ w2

        return output

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + _feed_forward(layer_norm(x, p["ln2_g"], p["ln2_b"]))
    return x
