"""Blind round 31 (b31_05, issue 38): explosion/thinc, thinc/layers/layernorm.py (forward,
`_get_moments`, `_begin_update_scale_shift`, nested in layer_norm) and thinc/backends/ops.py
(Ops.softmax with `axis`, right: CORRECT).

Mistakes:
1. layer_norm: the moments are taken over `axis=1` (thinc works on 2-D batches): right for a
   (T, d) input, but a batched (B, T, d) input is normalised over its tokens.
2. layer_norm: eps is hard-coded as thinc's `var + 1e-08`; the caller's eps (default 1e-6) is
   never read. Shows when eps is passed, or on rows of small variance.

Grader: at blind time (fbf6cc7) and now, neither named: 2 is observed only ("[observation]
... returns the expected values times 1.183, everywhere: one scale factor is off", true for an
ignored eps=0.5: sqrt(1.75 / 1.25)), the `scaled` observation; 1 is not told at all: the hidden
check (its batched case) fails with no hint line.
Since session 17 (error_model/slips.py) 2 is named on the visible check ("`eps` is fixed at 1e-08
... whatever is given"); 1 was not: the hidden check got the checklist (its cases cannot tell eps
1e-8 from 0 or 1e-12, so no three-edit name was unique there). Since session 18 (slips.known)
the hidden check names both: of the three-edit rewrites that reproduce its cases, the one whose
eps part the visible check named (1e-8, told apart there by eps=0.5 and tiny variances). In
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1+'
                         'op:default:layer_norm:eps-as-1e-08'}
CORRECT = ('softmax',)  # thinc's Ops.softmax, right


def softmax(x, axis=-1):
    """thinc Ops.softmax(x, inplace=False, axis=-1)."""
    maxes = x.max(axis=axis, keepdims=True)
    shifted = x - maxes
    new_x = np.exp(shifted)
    new_x /= new_x.sum(axis=axis, keepdims=True)
    return new_x


def layer_norm(x, gamma, beta, eps=1e-6):
    """thinc's LayerNorm forward: moments, Xhat, then scale and shift."""

    def _get_moments(X):
        mu = X.mean(axis=1, keepdims=True)
        var = X.var(axis=1, keepdims=True) + 1e-08
        return X.shape[1], mu, var

    def _begin_update_scale_shift(X, G, b):
        return X * G + b

    N, mu, var = _get_moments(x)
    Xhat = (x - mu) * var ** (-1.0 / 2.0)
    return _begin_update_scale_shift(Xhat, gamma, beta)
