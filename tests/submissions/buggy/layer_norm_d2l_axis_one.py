"""A LayerNorm ported from d2l.ai's from-scratch batch norm, its reductions over axis 1 of a
(T, d) matrix: right for one sequence, wrong for a batch (B, T, d), where axis 1 is the tokens."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'}


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    x_hat = (x - mean) / np.sqrt(var + eps)
    return gamma * x_hat + beta
