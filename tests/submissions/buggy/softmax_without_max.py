"""softmax does not subtract the max."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_without_max'}


def softmax(x, axis=-1):
    shifted = np.exp(x)
    return shifted / np.sum(shifted, axis=axis, keepdims=True)
