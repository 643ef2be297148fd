"""softmax takes max and sum without keepdims."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_without_keepdims'}


def softmax(x, axis=-1):
    shifted = np.exp(x - np.max(x, axis=axis))
    return shifted / np.sum(shifted, axis=axis)
