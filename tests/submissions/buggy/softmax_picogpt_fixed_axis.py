"""picoGPT's softmax ported as it is: it always normalises the last axis, whatever `axis` says."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_wrong_axis'}


def softmax(x, axis=-1):
    exp_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return exp_x / np.sum(exp_x, axis=-1, keepdims=True)
