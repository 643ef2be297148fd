"""Blind round 55 (b55_06, issue 38): layer_norm ported from a numpy `LayerNorm(y, C, eps=1e-5,
gamma, beta)` (find_string id 5735966121) that casts with `y.astype(np.float32)`; None gamma and
beta become ones and zeros, reshaped to broadcast over the last axis.

Mistakes:
1. The input is cast to float32 first (the source): values far from 0 lose their mantissa (for
   `1e4 + N(0, 1)` with eps=1e-6 passed, max |diff| 8.6e-4); near 0 the error is about 1e-7
   relative, still outside rtol 1e-7.
2. The default eps is the source's 1e-5, not the API's 1e-6: it shows when the caller passes no
   eps and the variance is small (`1e-3 * N(0, 1)`: max |diff| 0.78). encoder_block and
   vit_forward inherit both.

Grader: at blind time (cdc1de9a) and now, both named on layer-norm. Mistake 2 on "eps inside the
square root" and the hidden check ("In `layer_norm`, eps is 1e-05; the lecture's is 1e-06.").
Mistake 1 by the shift property's verdict on "adding a constant to a token changes nothing"
("Your `layer_norm` computes in float32: on every call here it returned what LayerNorm returns
with x cast to float32 first (Keras' and JAX's default compute dtype). ... The lecture computes
in the input's float64: drop the cast (or cast to np.float64)."). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05'}
ALIASES = ('layer_norm_float32',)  # the shift property's verdict on the float32 computation


def layer_norm(x, gamma, beta, eps=1e-5):
    """LayerNorm over the last axis: (..., C), (C,), (C,) -> (..., C)."""
    y = np.asarray(x)
    C = y.shape[-1]
    y = y.astype(np.float32, copy=False)
    mu = y.mean(axis=-1, keepdims=True)
    var = y.var(axis=-1, keepdims=True)
    yhat = (y - mu) / np.sqrt(var + eps)
    if gamma is None:
        gamma = np.ones(C, dtype=np.float32)
    if beta is None:
        beta = np.zeros(C, dtype=np.float32)
    shape = (1,) * (y.ndim - 1) + (C,)
    return yhat * np.reshape(gamma, shape) + np.reshape(beta, shape)
