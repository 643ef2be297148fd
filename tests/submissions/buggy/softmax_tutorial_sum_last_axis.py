"""A numpy tutorial's softmax given an axis argument in one place only: the max is taken along
`axis`, the sum still along the last axis."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:sum.axis=-1'}
ALIASES = ('softmax_wrong_axis',)


def softmax(x, axis=-1):
    z = x - x.max(axis=axis, keepdims=True)
    numerator = np.exp(z)
    denominator = numerator.sum(axis=-1, keepdims=True)
    return numerator / denominator
