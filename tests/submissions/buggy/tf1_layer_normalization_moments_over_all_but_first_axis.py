"""Blind round 43 (b43_03, issue 38): layer_norm ported from a TensorFlow 1.x
`LayerNormalization(tf.layers.Layer)` (code-search file id 41613311996: `axis =
list(range(1, len(inputs.shape)))` when no axis is given, `tf.nn.moments(inputs, axis,
keep_dims=True)`, `(inputs - mean) / tf.sqrt(variance + self._epsilon)`).

Mistakes:
1. The statistics are taken over every axis but the first, `axis = tuple(range(1,
   len(inputs.shape)))`, instead of the last one: right for a (T, d) sequence, wrong on a
   batched (B, T, d) input (each whole sequence normalised) and on a single 1-D token (no axis:
   returns beta). Every visible check is 2-D: it shows on the hidden check only.

Grader: at blind time (b20830f) and now, named on the hidden check: "In `layer_norm`, the mean
and variance are taken over every axis but the first, `axis=tuple(range(1, np.ndim(x)))` ...".
Every mistake named, so in buggy/. (The same
mistake as b27_10's tf1_layer_norm_begin_norm_axis_one.py, from another TF1 API.)
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:norm_axes:layer_norm:over-sample'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNormalization.call with axis=None, plus the lecture's gamma and beta."""
    inputs = np.asarray(x, dtype=float)
    axis = tuple(range(1, len(inputs.shape)))       # every axis but the first
    mean = inputs.mean(axis=axis, keepdims=True)
    variance = inputs.var(axis=axis, keepdims=True)
    outputs = (inputs - mean) / np.sqrt(variance + eps)
    return outputs * gamma + beta
