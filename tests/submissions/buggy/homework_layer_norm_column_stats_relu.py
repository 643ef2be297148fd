"""Blind round 4 (b4_12, issue 38), a course homework port with two mistakes: layer_norm makes its
statistics column vectors with np.mean(x, axis=-1).reshape(-1, 1) instead of keepdims=True, right
on 2-D (T, d) input (and on (1, T, d)), an exception on batched (B, T, d) input with B > 1, and
a (1, d) result for one 1-D token; encoder_block's MLP uses ReLU, the 2017 Transformer's FFN,
instead of GELU (named). The layer_norm mistake is named too, as one slip its cases cannot place
(the mean, the variance or both made a column with `.reshape(-1, 1)`).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_relu',
          'layer-norm': 'op:kept_by_index:layer_norm:mean.keepdims-as-column'
                        '+op:kept_by_index:layer_norm:var.keepdims-as-column'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm of a (T, d) matrix of tokens."""
    mu = np.mean(x, axis=-1).reshape(-1, 1)
    var = np.var(x, axis=-1).reshape(-1, 1)
    return gamma * ((x - mu) / np.sqrt(var + eps)) + beta


def encoder_block(x, p, heads):
    """Pre-LN encoder block with a position-wise feed-forward network."""
    def feed_forward(h):
        hidden = np.maximum(0, h @ p["W1"] + p["b1"])
        return hidden @ p["W2"] + p["b2"]

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + feed_forward(layer_norm(x, p["ln2_g"], p["ln2_b"]))
    return x
