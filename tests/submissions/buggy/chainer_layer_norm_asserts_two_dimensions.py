"""Blind round 54 (b54_13, issue 38): layer_norm ported from chainer `LayerNormalization`
(chainer/functions/normalization/layer_normalization.py: `type_check.expect(... x_type.ndim == 2,
gamma_type.ndim == 1, beta_type.ndim == 1 ...)`, mean and variance over axis 1), with asserts.

Mistakes:
1. `assert x.ndim == 2`: batched (B, T, d) input and a single (d,) vector raise AssertionError
   where the API normalises over the last axis and returns. 2-D (T, d) input is right (with any
   eps); encoder_block and vit_forward (2-D tokens) are unaffected.

Grader: at blind time (5f4a3d53) and now, named on layer-norm's hidden check ("In `layer_norm`, an
`x` that is not a 2-D (T, d) matrix (a single (d,) token, a batched (B, T, d) input) is refused (an
error is raised for it), where the lecture's normalises each row along the last axis, whatever axes
come before it: accept every input the lecture's function accepts."). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:guarded:layer_norm:two-axes-only'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """Layer normalization of a minibatch x (N, D) with gamma (D,) and beta (D,)."""
    assert x.ndim == 2
    assert gamma.ndim == 1
    assert beta.ndim == 1
    mu = np.mean(x, axis=1, keepdims=True)
    x_mu = x - mu
    squ_x_mu = np.square(x_mu)
    var = np.mean(squ_x_mu, axis=1, keepdims=True)
    inv_std = 1.0 / np.sqrt(var + eps)
    x_hat = x_mu * inv_std
    return x_hat * gamma + beta
