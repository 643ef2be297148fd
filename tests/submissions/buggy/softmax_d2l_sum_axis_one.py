"""d2l.ai's softmax (X_exp.sum(1, keepdims=True)) made stable with a max along `axis`, the sum
still along axis 1: right for the default last axis of a matrix, wrong for 3-D inputs."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:sum.axis=1'}


def softmax(x, axis=-1):
    X_exp = np.exp(x - x.max(axis=axis, keepdims=True))
    partition = X_exp.sum(1, keepdims=True)
    return X_exp / partition
