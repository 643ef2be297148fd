"""A LayerNorm written with pandas habits: the sample standard deviation (ddof=1, pandas'
default) and eps added to it, outside the root. Two mistakes in one function."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_unbiased+layer_norm_eps_outside'}


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, ddof=1, keepdims=True)
    return (x - mean) / (std + eps) * gamma + beta
