"""A numpy-tutorial LayerNorm whose variance is written by hand without an axis: the mean is
per token, the variance is over the whole array."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:spread:layer_norm:var.deviations-averaged-over-all'}


def layer_norm(x, gamma, beta, eps=1e-6):
    mu = x.mean(axis=-1, keepdims=True)
    sigma2 = ((x - mu) ** 2).mean()
    return gamma * (x - mu) / np.sqrt(sigma2 + eps) + beta
