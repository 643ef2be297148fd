"""Blind round 58 (b58_13, issue 38): layer_norm ported from NVIDIA/TensorRT
`plugin/common/common.cuh` (layerNorm: a cub::KeyValuePair of the sums of x/ld and x*x/ld,
`rsigma = rsqrt(sumKV.value - mu * mu + epsilon)`) and
`plugin/skipLayerNormPlugin/skipLayerNormKernel.cu`.

Mistakes:
20. layer_norm (lines 94-97 of the file as delivered) computes the variance in one pass,
    E[x^2] - mean^2. It cancels catastrophically for values far from zero: rows offset by ~1e6
    or more with unit spread are wrong, and at 1e8 the variance goes negative (NaN). Values near
    zero are right.

Grader: at blind time (ba46f523), 109/110: layer-norm's "adding a constant to a token changes
nothing" property fails (layer_norm(x + 1e+07, ...) differs, by up to 0.136) and gave the
checklist only: the property named a one-pass variance only where its own mean(x * x) - mean**2
gave the student's values, and this code adds its sums otherwise (each term scaled by 1/ld
first, then summed), which loses other digits. Since round 58 the property tries the ways
code adds the two sums (digits_lost.MOMENTS) and names the one-pass variance where one of them
gives the student's values on every call. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_one_pass_variance'}


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
