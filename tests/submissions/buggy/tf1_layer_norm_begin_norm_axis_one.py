"""Blind round 27 (b27_10, issue 38): layer_norm ported from TensorFlow 1's
tf.contrib.layers.layer_norm (begin_norm_axis=1: the moments over every axis from 1 on;
nn.batch_normalization's `inputs * inv + (offset - mean * inv)`). The student's correct
self_attention (tensor2tensor's split_heads / combine_heads) is left out: it grades as the
solution's.

Mistakes:
1. layer_norm takes the mean and variance over axes 1..ndim-1, not the last axis: right on (T, d)
   inputs, a 3-D batch is normalised per sample, a 1-D token over no axis.

Grader: at blind time and now, named: the mean and variance over every axis but the first
(`F.layer_norm(x, x.shape[1:])`) on layer-norm. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:norm_axes:layer_norm:over-sample'}


def layer_norm(x, gamma, beta, eps=1e-6, begin_norm_axis=1):
    inputs = np.asarray(x, dtype=float)
    inputs_rank = inputs.ndim
    norm_axes = tuple(range(begin_norm_axis, inputs_rank))
    # Calculate the moments on the last axis (layer activations).
    mean = np.mean(inputs, axis=norm_axes, keepdims=True)
    variance = np.mean(np.square(inputs - mean), axis=norm_axes, keepdims=True)
    # nn.batch_normalization(inputs, mean, variance, offset=beta, scale=gamma, variance_epsilon)
    inv = 1.0 / np.sqrt(variance + eps) * gamma
    return inputs * inv + (beta - mean * inv)
