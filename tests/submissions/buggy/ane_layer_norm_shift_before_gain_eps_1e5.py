"""Blind round 24 (b24_01, issue 38): layer_norm and self_attention ported from Apple's
ml-ane-transformers (LayerNormANE on a channels-first BC1S tensor, `(out + bias) * weight`, eps
1e-5; multi-head attention on the (C, 1, S) layout, one einsum per head, keys on axis 0).

Mistakes:
1. layer_norm defaults eps to 1e-5 instead of the lecture's 1e-6.
2. layer_norm adds beta before the gain, `(x_hat + beta) * gamma`.

Grader: at blind time and now, both named on layer-norm: `beta` added before the product by
`gamma` on the small examples, eps 1e-05 on the eps check, both at once on the hidden random check;
vit-checkpoint observes the broken layer_norm. The student's self_attention, a correct port (a
softmax over the keys' axis 0), grades the same as the solution's: left out. Every mistake named,
so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05+op:shift_first:layer_norm:beta-before-gamma'}


def layer_norm(x, gamma, beta, eps=1e-5):
    """LayerNormANE: normalise over the channel axis of a channels-first (C, ..., S) tensor."""
    x = np.asarray(x)
    xc = np.moveaxis(x, -1, 0)                       # channels first, as in BC1S
    channels_mean = xc.mean(axis=0, keepdims=True)
    zero_mean = xc - channels_mean
    zero_mean_sq = zero_mean * zero_mean
    denom = (zero_mean_sq.mean(axis=0, keepdims=True) + eps) ** -0.5
    out = zero_mean * denom
    view = (-1,) + (1,) * (xc.ndim - 1)
    out = (out + np.asarray(beta).reshape(view)) * np.asarray(gamma).reshape(view)
    return np.moveaxis(out, 0, -1)


