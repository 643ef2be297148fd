"""Blind round 48 (b48_06, issue 38): layer_norm ported from explosion/thinc,
thinc/layers/layer_norm.py (`_get_moments`: `X.mean(axis=1, keepdims=True)`, `X.var(axis=1,
keepdims=True) + 1e-08`, then `Xhat = (X - mu) * var ** (-1.0 / 2.0)`;
`_begin_update_scale_shift`: `Y = X * G; Y += b`).

Mistakes:
1. `axis=1` hard-coded (thinc works on 2-D batches): batched (B, T, d) input is normalised over
   T (wrong values); 1-D (d,) input raises AxisError. (T, d) input is right.
2. `eps` ignored, a fixed 1e-8 added to the variance: eps=0.1 changes nothing; rows of tiny
   spread come out far off with the default.

Grader: at blind time (4b7c886d) and now, named: "In `layer_norm`, `eps` is fixed at 1e-08 (a
library's usual default) whatever is given: use the `eps` the caller passes (its default is
1e-06)." on layer-norm's visible checks, and on its hidden check "2 mistakes at once (one of them
made at several places): (1) In `layer_norm`, your values are the lecture's with `np.mean(x,
keepdims=True, axis=1)` in place of `np.mean(x, axis=-1, keepdims=True)`: over axis 1 instead of
axis -1 ... (2) ... `np.var(x, keepdims=True, axis=1)` ... (3) ... `eps` is fixed at 1e-08 ...".
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'
                        '+op:default:layer_norm:eps-as-1e-08'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """thinc's _get_moments and _begin_update_scale_shift on one array."""
    X = np.asarray(x, dtype=float)
    G, b = gamma, beta
    mu = X.mean(axis=1, keepdims=True)
    var = X.var(axis=1, keepdims=True) + 1e-08
    Xhat = (X - mu) * var ** (-1.0 / 2.0)
    Y = Xhat * G
    Y += b
    return Y
