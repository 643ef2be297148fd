"""Flax's nn.LayerNorm(use_bias=False) ported: the scale is applied, the shift beta never is."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:term:layer_norm:drop-beta'}


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean(np.square(x - mean), axis=-1, keepdims=True)
    mul = 1.0 / np.sqrt(var + eps) * gamma
    return (x - mean) * mul
