"""Blind round 46 (b46_10, issue 38): layer_norm ported from the mindspore-ai/mindspore nn.LayerNorm
docs (`nn.LayerNorm(x.shape[1:], begin_norm_axis=1, begin_params_axis=-1)`: the statistics over
every axis from begin_norm_axis on).

Mistakes:
1. The mean and variance are taken over every axis but the first: right for a (T, d) sequence and
   a (d,) vector, wrong on a batched (B, T, d) input (each sample normalised over T and d together).

Grader: at blind time (78229091) and now, named on layer-norm's hidden check only (no visible check
is batched): "the mean and variance are taken over every axis but the first,
`axis=tuple(range(1, np.ndim(x)))` (`F.layer_norm(x, x.shape[1:])`), instead of over the last
one". encoder-block, vit-forward and vit-checkpoint pass. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:norm_axes:layer_norm:over-sample'}


def layer_norm(x, gamma, beta, eps=1e-6):
    # mindspore.nn.LayerNorm(normalized_shape=x.shape[1:], begin_norm_axis=1, begin_params_axis=-1)
    x = np.asarray(x, dtype=float)
    begin_norm_axis = 1 if x.ndim > 1 else 0  # a single vector has no sample axis
    axes = tuple(range(begin_norm_axis, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
