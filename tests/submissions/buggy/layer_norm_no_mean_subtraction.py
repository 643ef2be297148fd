"""A hand-written LayerNorm that divides by the standard deviation without centring: x / std,
the mean never subtracted."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:term:layer_norm:drop-mean'}
ALIASES = ('mean_not_subtracted',)  # the shift-invariance property's name for it


def layer_norm(x, gamma, beta, eps=1e-6):
    var = np.var(x, axis=-1, keepdims=True)
    return x / np.sqrt(var + eps) * gamma + beta
