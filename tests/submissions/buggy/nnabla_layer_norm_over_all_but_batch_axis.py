"""Blind round 28 (b28_07, issue 38): layer_norm ported from Sony nnabla
(nnabla.parametric_functions.layer_normalization(inp, batch_axis=0): F.layer_normalization
normalises over every axis except the batch axis).

Mistakes:
1. layer_norm takes its statistics over every axis but the first: a (B, T, d) input is
   normalised over (T, d) jointly instead of per token. 1-D and 2-D inputs are right.

Grader: at blind time and now, named: the mean and variance over every axis but the first, a
batch normalised per sample instead of per token, on layer-norm's random check. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:norm_axes:layer_norm:over-sample'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """PF.layer_normalization(x, batch_axis=0): stats over all axes except batch_axis."""
    x = np.asarray(x, dtype=float)
    batch_axis = 0 if x.ndim > 1 else None
    axes = tuple(a for a in range(x.ndim) if a != batch_axis)
    mu = np.mean(x, axis=axes, keepdims=True)
    sigma2 = np.mean((x - mu) ** 2, axis=axes, keepdims=True)
    return gamma * (x - mu) / np.sqrt(sigma2 + eps) + beta
