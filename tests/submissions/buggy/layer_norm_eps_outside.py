"""layer_norm adds eps outside the square root."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_eps_outside'}


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / (np.sqrt(var) + eps) * gamma + beta
