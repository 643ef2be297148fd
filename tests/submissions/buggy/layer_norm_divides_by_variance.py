"""layer_norm divides by the variance."""
EXPECT = {'layer-norm': 'layer_norm_divides_by_variance'}


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / (var + eps) * gamma + beta
