"""Blind round 16 (b16_08, issue 38): softmax and layer_norm ported from d2l (softmax's
`X.sum(1, keepdims=True)`, a layer norm written for a (tokens, d) matrix).

Mistakes:
1. softmax defaults to axis=1 instead of the last axis (an AxisError on 1-D input, the wrong axis
   on 3-D input).
2. layer_norm returns Y.reshape(len(x), -1): the wrong shape for 1-D and for 3-D input.

Grader: at blind time and now, the default axis gets only the softmax checklists (the AxisError
shown); the reshape is observed ("right for inputs of two axes (T, d), wrong for one with leading
axes", only_2d_inputs), the 1-D case not mentioned. Nothing named.
Since the twelfth session the default axis is named (choices.default_flipped: "`axis` defaults to
1"); the reshape is still observed.
Since session 16 the reshape is named too (layouts.reshaped_by_first_axis: "the result ... is
reshaped to `(len(x), -1)`, a shape written for a (T, d) matrix"): every mistake named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default_flipped:softmax:axis-defaults-1', 
          'layer-norm': 'op:reshaped_by_first_axis:layer_norm:result-reshaped-len-x'}


def softmax(x, axis=1):
    """d2l softmax: X_exp / X_exp.sum(1, keepdims=True), stabilised with the max."""
    X_exp = np.exp(x - np.max(x, axis=axis, keepdims=True))
    partition = X_exp.sum(axis=axis, keepdims=True)
    return X_exp / partition


def layer_norm(x, gamma, beta, eps=1e-6):
    """d2l-style layer norm on a (tokens, d) matrix."""
    x = np.asarray(x, dtype=float)
    X = x.reshape(-1, x.shape[-1])
    mu = X.mean(axis=1, keepdims=True)
    var = ((X - mu) ** 2).mean(axis=1, keepdims=True)
    Y = (X - mu) / np.sqrt(var + eps) * gamma + beta
    return Y.reshape(len(x), -1)
