"""layer_norm writes the normalised tokens into the array it was given (a float x): right values,
and the caller's x is gone."""
# ruff: noqa: F821  (every other name is the solution's)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    x[...] = (x - mean) / np.sqrt(var + eps)
    return x * gamma + beta
