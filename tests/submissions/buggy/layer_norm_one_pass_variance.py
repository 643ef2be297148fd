"""layer_norm takes the variance in one pass, mean(x**2) - mean(x)**2: right near zero, wrong on
float32 tokens far from it."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {"layer-norm": "layer_norm_one_pass_variance"}


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=-1, keepdims=True)
    var = (x * x).mean(axis=-1, keepdims=True) - mean * mean
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
