"""Blind round 58 (b58_13, issue 38): layer_norm ported from NVIDIA/TensorRT
`plugin/common/common.cuh` (layerNorm: a cub::KeyValuePair of the sums of x/ld and x*x/ld,
`rsigma = rsqrt(sumKV.value - mu * mu + epsilon)`) and
`plugin/skipLayerNormPlugin/skipLayerNormKernel.cu`.

Mistakes:
20. layer_norm (lines 94-97 of the file as delivered) computes the variance in one pass,
    E[x^2] - mean^2. It cancels catastrophically for values far from zero: rows offset by ~1e6
    or more with unit spread are wrong, and at 1e8 the variance goes negative (NaN). Values near
    zero are right.

Grader: at blind time (ba46f523) and now, 109/110: layer-norm's "adding a constant to a token
changes nothing" property fails (layer_norm(x + 1e+07, ...) differs, by up to 0.136) and gives the
checklist only ("LayerNorm subtracts each token's mean and divides by its standard deviation
about that mean, so x + c and x normalise to the same thing: check both statistics (taken about
the mean, not about zero) and that they are computed in float64 ..."). A named hint would say the
variance is mean(x^2) - mean^2, which cancels for values far from zero. Not named, so in
unnamed/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': None}


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm over the last axis of x."""
    x = np.asarray(x, dtype=float)
    ld = x.shape[-1]
    rld = 1.0 / ld
    key = np.sum(x * rld, axis=-1, keepdims=True)
    value = np.sum(x * x * rld, axis=-1, keepdims=True)
    mu = key
    rsigma = 1.0 / np.sqrt(value - mu * mu + eps)
    return gamma * (x - mu) * rsigma + beta
