"""Blind round 38 (b38_12, issue 38): a course's loglinear softmax (code-search file id
18159089855: `x = np.exp(x - np.max(x)); x /= np.sum(x)`), with the sum along `axis`.

Mistakes:
1. softmax: the max is the whole array's, not along `axis`: the same values while the rows are
   of similar size, but a row far below the others underflows to 0/0 = nan.

Grader: at blind time (60400f1) and now, named: "your values are the lecture's with
`np.max(x, keepdims=True)` in place of `np.max(x, axis=axis, keepdims=True)`" on the visible
overflow check (the hidden checks pass). In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:max.axis=None'}


def softmax(x, axis=-1):
    """Compute the softmax vector; vectorized, with the max subtracted for numeric stability."""
    x = np.exp(x - np.max(x))
    x /= np.sum(x, axis=axis, keepdims=True)
    return x
