"""torch.nn.LayerNorm's default eps, 1e-5, copied into the signature: right on most inputs,
wrong when the variance is small."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05'}


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta
