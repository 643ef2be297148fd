"""Blind round 4 (b4_06, issue 38), a numpy-only "ViT from scratch" blog port with two mistakes:
layer_norm takes the mean and the variance over axis=1 (written for a (T, d) matrix), right on
2-D input, wrong on batched (B, T, d) input (it normalises over the tokens) and an exception on
one 1-D token; softmax is np.exp(x) / np.exp(x).sum(...) without subtracting the max, so it
overflows to nan for inputs near 1000.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1',
          'stable-softmax': 'softmax_without_max'}


def softmax(x, axis=-1):
    """e^x / sum(e^x) along axis."""
    e_x = np.exp(x)
    return e_x / e_x.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    """Normalise each token (row) of x: (T, d)."""
    mean = np.mean(x, axis=1, keepdims=True)
    var = np.var(x, axis=1, keepdims=True)
    x_norm = (x - mean) / np.sqrt(var + eps)
    return gamma * x_norm + beta
