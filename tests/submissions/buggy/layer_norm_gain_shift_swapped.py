"""layer_norm with the gain and the shift swapped (weight and bias mixed up)."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_affine_swapped'}


def layer_norm(x, gamma, beta, eps=1e-6):
    weight, bias = beta, gamma
    mu = np.mean(x, axis=-1, keepdims=True)
    sigma2 = np.mean((x - mu) ** 2, axis=-1, keepdims=True)
    return weight * (x - mu) / np.sqrt(sigma2 + eps) + bias
