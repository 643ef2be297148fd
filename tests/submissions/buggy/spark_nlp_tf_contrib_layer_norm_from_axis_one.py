"""Blind round 36 (b36_12, issue 38): layer_norm ported from JohnSnowLabs/spark-nlp-workshop,
legal-nlp/data/tf2_contrib.py (tf_contrib_layer_norm, the TF1 contrib layer_norm for TF2, with
moments over `range(begin_norm_axis, rank)` and begin_norm_axis=1).

Mistakes:
1. layer_norm normalises over every axis from 1 on, not over the last one: the same for a (T, d)
   sequence (encoder_block and vit_forward agree), but a batched (2, 5, 8) input is normalised
   over (T, d) jointly, and a 1-D vector raises ValueError.

Grader: at blind time (9ebbf4a) and now, named on the hidden batched check ("the mean and variance
are taken over every axis but the first ... a batch is normalised per sample instead of per
token"); no visible check fails. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:norm_axes:layer_norm:over-sample'}


def layer_norm(x, gamma, beta, eps=1e-6, begin_norm_axis=1):
    """tf_contrib_layer_norm with center/scale, moments over the axes from begin_norm_axis."""
    inputs = np.asarray(x, dtype=float)
    inputs_rank = inputs.ndim
    if begin_norm_axis < 0:
        begin_norm_axis = inputs_rank + begin_norm_axis
    if begin_norm_axis >= inputs_rank:
        raise ValueError('begin_norm_axis (%d) must be < rank(inputs) (%d)' % (begin_norm_axis, inputs_rank))
    # By default, compute the moments across all the dimensions except the one with index 0.
    norm_axes = tuple(range(begin_norm_axis, inputs_rank))
    mean = inputs.mean(axis=norm_axes, keepdims=True)
    variance = inputs.var(axis=norm_axes, keepdims=True)
    # tf.nn.batch_normalization(inputs, mean, variance, offset=beta, scale=gamma, variance_epsilon)
    inv = 1.0 / np.sqrt(variance + eps)
    return (inputs - mean) * inv * gamma + beta
