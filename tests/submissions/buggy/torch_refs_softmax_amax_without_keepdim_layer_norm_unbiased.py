"""Blind round 26 (b26_01, issue 38): softmax and layer_norm ported from PyTorch's reference
decompositions (torch/_refs/__init__.py `softmax`: `a_max = amax(a, dim, keepdim=True)`,
`exp(a - a_max)` over its sum; torch/_decomp/decompositions.py `native_layer_norm` / `_normalize`:
the trailing normalized_shape dims reduced, var_mean, rstd).

Mistakes:
1. softmax drops the ref's keepdim=True, `a_max = np.amax(x, axis)`: the max broadcasts against
   the last axis (right for 1-D input and for axis=0 on a square array, wrong otherwise; a
   non-square array along its last axis raises a broadcast error).
2. layer_norm takes the unbiased variance, `np.var(..., ddof=1)` (torch.var's unbiased=True
   default), where LayerNorm's is biased.

Grader: at blind time and now, both named: the max computed without keepdims=True on
stable-softmax (its property check, which the broadcast error stops, observes that it could not
judge); the unbiased variance (ddof=1, torch.var's default) on layer-norm; vit-checkpoint
observes the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:keepdims:softmax:max.keepdims',
          'layer-norm': 'layer_norm_unbiased'}


def softmax(x, axis=-1):
    # torch/_refs softmax: a_max = amax(a, dim, keepdim=True); unnormalized = exp(a - a_max)
    x = np.asarray(x)
    if x.size == 0:
        return np.exp(x)
    a_max = np.amax(x, axis)
    unnormalized = np.exp(x - a_max)
    return unnormalized / np.sum(unnormalized, axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    # torch/_decomp native_layer_norm -> _normalize(input, reduction_dims, eps)
    x = np.asarray(x)
    gamma = np.asarray(gamma)
    axis = x.ndim - gamma.ndim
    reduction_dims = tuple(range(axis, x.ndim))
    mean = np.mean(x, axis=reduction_dims, keepdims=True)
    var = np.var(x, axis=reduction_dims, ddof=1, keepdims=True)   # torch.var(unbiased=True)
    rstd = 1.0 / np.sqrt(var + eps)
    out = (x - mean) * rstd
    return out * gamma + beta
