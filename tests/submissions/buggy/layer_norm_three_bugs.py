"""Three mistakes in one layer_norm: the unbiased variance, divided by the variance rather than
its square root, and the gain and shift swapped."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {
    'layer-norm': 'layer_norm_unbiased+layer_norm_divides_by_variance+layer_norm_affine_swapped',
}


def layer_norm(x, gamma, beta, eps=1e-6):
    centred = x - x.mean(axis=-1, keepdims=True)
    var = (centred ** 2).sum(axis=-1, keepdims=True) / (x.shape[-1] - 1)
    return beta * centred / (var + eps) + gamma
