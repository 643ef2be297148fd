"""Lab 4 submission tested only on single (T, d) sequences.

Mistakes (2), both only on inputs with more than two axes or a non-default axis:
- layer_norm takes the mean and variance over axis=1 (right for (T, d), wrong for a batch
  (B, T, d)).
- softmax ignores its axis argument and always normalises over the last axis.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_wrong_axis', 'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'}


def softmax(x, axis=-1):
    x = x - x.max(axis=-1, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=-1, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta
