"""softmax whose max keeps the axis but whose sum forgets it: it normalises over the whole
array, so only a 1-D input is right."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:sum.axis=None'}


def softmax(x, axis=-1):
    exps = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return exps / np.sum(exps)
