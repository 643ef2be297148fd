"""HF's ViTConfig layer_norm_eps=1e-12 copied in as the default: right on most inputs, wrong
when a token's variance is tiny."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=below-1e-09'}


def layer_norm(x, gamma, beta, eps=1e-12):
    u = x.mean(-1, keepdims=True)
    s = ((x - u) ** 2).mean(-1, keepdims=True)
    return gamma * ((x - u) / np.sqrt(s + eps)) + beta
