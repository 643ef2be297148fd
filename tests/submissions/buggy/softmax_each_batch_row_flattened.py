"""darknet's groups softmax written with a reshape: each first-axis entry flattened to one row,
`x.reshape(len(x), -1)`, normalised whole and reshaped back, `axis` never read (a 1-D input made
a batch of one by `np.atleast_2d`). Another spelling of blind round 65's b65_03. Named: every
axis of each first-axis entry, a 1-D array as one entry.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:all_but_first:softmax:max.axis-each-entry'
                            '+op:all_but_first:softmax:sum.axis-each-entry'}


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    rows = np.atleast_2d(x).reshape(len(np.atleast_2d(x)), -1)
    e = np.exp(rows - rows.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).reshape(x.shape)
