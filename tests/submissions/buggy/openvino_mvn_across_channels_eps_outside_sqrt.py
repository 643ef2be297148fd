"""Blind round 25 (b25_09, issue 38): layer_norm ported from OpenVINO's MVN operation (MVN-1 with
`across_channels=true`, which reduces over every axis but the first, and MVN-6's
`eps_mode="outside_sqrt"`, `(i - mean) / (sqrt(variance) + eps)`), then gamma and beta.

Mistakes:
1. layer_norm takes its statistics over `tuple(range(1, x.ndim))`: the last axis for a (T, d)
   sequence, each whole (T, d) slice of a batched (B, T, d) input (and no axis at all for a 1-D
   token, whose output is beta).
2. eps is added outside the square root, `/ (np.sqrt(var) + eps)`.

Grader: at blind time and now, both named: eps outside the square root on the eps check, and both
at once (eps outside the square root, the statistics over every axis but the first) on the hidden
random check. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:root:layer_norm:eps-outside-sqrt+op:norm_axes:layer_norm:over-sample'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """MVN(across_channels=True, normalize_variance=True, eps_mode='outside_sqrt') * gamma + beta."""
    x = np.asarray(x, dtype=float)
    axes = tuple(range(1, x.ndim))
    mean = np.mean(x, axis=axes, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=axes, keepdims=True)
    return (x - mean) / (np.sqrt(var) + eps) * gamma + beta
