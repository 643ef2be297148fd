"""Blind round 3 (b3_13, issue 38), a port with two mistakes: layer_norm from a generic numpy
"normalize" helper takes the mean and variance over the whole array (np.mean(x), np.var(x))
instead of over each token's features; the block's tanh GELU, written out by hand (BERT /
GPT-2 gelu), has sqrt(2 * pi) where sqrt(2 / pi) belongs. (The submission's module-level
`_gelu_tanh` is nested in encoder_block here: a fixture replaces only the solution's names.)
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=None+op:axis:layer_norm:var.axis=None',
          'encoder-block': 'op:activation_slip:encoder_block/mlp:act=gelu_tanh.math.pi-multiplied'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """Normalise, then scale and shift."""
    mean = np.mean(x)
    var = np.var(x)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def encoder_block(x, p, heads):
    """Pre-LN block with the tanh GELU."""
    def _gelu_tanh(x):
        """GELU, tanh approximation (BERT, GPT-2)."""
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 * np.pi) * (x + 0.044715 * x ** 3)))

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    y = layer_norm(x, p["ln2_g"], p["ln2_b"])
    y = _gelu_tanh(y @ p["W1"] + p["b1"])
    return x + y @ p["W2"] + p["b2"]
