"""Two mistakes in one layer_norm: the unbiased variance and eps outside the square root."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_unbiased+layer_norm_eps_outside'}


def layer_norm(x, gamma, beta, eps=1e-6):
    std = x.std(axis=-1, ddof=1, keepdims=True)       # torch.std's default
    return (x - x.mean(axis=-1, keepdims=True)) / (std + eps) * gamma + beta
