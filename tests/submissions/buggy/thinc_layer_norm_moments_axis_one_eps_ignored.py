"""Blind round 38 (b38_09, issue 38): explosion/thinc, thinc/layers/layer_norm.py (forward,
_get_moments): the same source as b31_05 (thinc_layer_norm_moments_over_axis_one_eps_fixed),
written again by another blind helper.

Mistakes:
1. layer_norm: the moments over `axis=1` (thinc's 2-D (N, D) convention): right for a (T, d)
   matrix, a batched (B, T, d) input is normalised over its tokens.
2. layer_norm: the `eps` argument is ignored, `var + 1e-08` hard-coded.

Grader: at blind time (60400f1) and now, both named: 2 "`eps` is fixed at 1e-08 ... whatever is
given" on the visible check; 1 and 2 together on the hidden check ("your values are the
lecture's with `np.mean(x, keepdims=True, axis=1)` ..."), the only one with batched input.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1+op:default:layer_norm:eps-as-1e-08'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """thinc's LayerNorm forward: Xhat = (X - mu) * var ** (-1/2), then scale and shift."""
    def _get_moments(X):
        mu = X.mean(axis=1, keepdims=True)
        var = X.var(axis=1, keepdims=True) + 1e-08
        return X.shape[1], mu, var

    N, mu, var = _get_moments(x)
    Xhat = (x - mu) * var ** (-1.0 / 2.0)
    return Xhat * gamma + beta
