"""Blind round 44 (b44_07, issue 38): layer_norm ported from a Keras layer-normalised LSTM
helper (code-search file id 36844852612: `layer_normalization(x, gain, bias, epsilon=1e-5)`,
`tf.nn.moments(x, [1], keep_dims=True)`).

Mistakes:
1. layer_norm: mean and variance over axis 1 (the source's 2-D (batch, features) convention)
   instead of the last axis: right for (T, d), wrong for a batched (B, T, d) input (normalised
   over tokens) and an AxisError for a single (d,) vector.

Grader: at blind time (0fc72e8) and now, named on layer-norm's hidden check only (the visible
checks are 2-D): "One slip, made at 2 places: (1) In `layer_norm`, your values are the
lecture's with `np.mean(x, keepdims=True, axis=1)` in place of `np.mean(x, axis=-1,
keepdims=True)` ... (2) ... `np.var(x, keepdims=True, axis=1)` ...". Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta, per token."""

    def moments(x, axes):
        # tf.nn.moments(x, axes, keep_dims=True)
        mean = np.mean(x, axis=tuple(axes), keepdims=True)
        variance = np.mean(np.square(x - mean), axis=tuple(axes), keepdims=True)
        return mean, variance

    def layer_normalization(x, gain, bias, epsilon=1e-6):
        mean, std = moments(x, [1])
        x_normed = (x - mean) / np.sqrt(std + epsilon) * gain + bias
        return x_normed

    return layer_normalization(np.asarray(x, dtype=float), gamma, beta, epsilon=eps)
