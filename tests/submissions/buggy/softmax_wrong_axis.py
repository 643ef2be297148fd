"""softmax always normalises along axis 0."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_wrong_axis'}


def softmax(x, axis=-1):
    shifted = np.exp(x - np.max(x, axis=0, keepdims=True))
    return shifted / np.sum(shifted, axis=0, keepdims=True)
