"""layer_norm normalises over the tokens (axis 0)."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_wrong_axis'}


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=0, keepdims=True)
    var = x.var(axis=0, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
