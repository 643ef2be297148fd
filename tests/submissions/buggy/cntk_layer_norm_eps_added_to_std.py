"""Blind round 28 (b28_06, issue 38): layer_norm ported from Microsoft CNTK (cntk/layers/layers.py
LayerNormalization: mean = reduce_mean(x); x0 = x - mean; std = sqrt(reduce_mean(x0 * x0));
if epsilon != 0: std += epsilon; x_hat = x0 / std; x_hat * scale + bias).

Mistakes:
1. layer_norm adds eps to the standard deviation, outside the square root: shows on tokens whose
   variance is tiny, or with a large eps.

Grader: at blind time and now, named: eps outside the square root (layer_norm_eps_outside) on
layer-norm. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_eps_outside'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """CNTK LayerNormalization's layer_normalize, reducing over the (static) feature axis."""
    x = np.asarray(x, dtype=float)
    mean = np.mean(x, axis=-1, keepdims=True)   # normalize w.r.t. actual sample statistics
    x0 = x - mean
    std = np.sqrt(np.mean(x0 * x0, axis=-1, keepdims=True))
    if eps != 0:
        std += eps
    x_hat = x0 / std
    return x_hat * gamma + beta
