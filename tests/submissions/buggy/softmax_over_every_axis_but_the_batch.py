"""The max and the sum over every axis but the first, `axes = tuple(range(1, x.ndim)) or None`
(a batch softmax over each sample's every value, the whole array when there is no batch axis),
`axis` never read. Another spelling of blind round 65's b65_03 (darknet's groups softmax).
Named: every axis of each first-axis entry, a 1-D array as one entry.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:all_but_first:softmax:max.axis-each-entry'
                            '+op:all_but_first:softmax:sum.axis-each-entry'}


def softmax(x, axis=-1):
    axes = tuple(range(1, x.ndim)) or None
    e = np.exp(x - np.max(x, axis=axes, keepdims=True))
    return e / np.sum(e, axis=axes, keepdims=True)
