"""Blind round 52 (b52_10, issue 38): softmax ported from a numpy `softmax(x, axis=-1)` that
subtracts the global max (`e_x = np.exp(x - np.max(x))`), summing along `axis`.

Mistakes:
1. It subtracts the max of the whole array, not the max along `axis`. Right on 1-D input (near
   1000 too); on multi-row inputs whose rows lie far apart (a row near 0 and one near -1000) the
   far-below rows underflow to 0/0 and give nan.

Grader: at blind time (db53909c) and now, named on stable-softmax ("In `softmax`, your values are
the lecture's with `np.max(x, keepdims=True)` in place of `np.max(x, axis=axis, keepdims=True)`:
over the whole array instead of the axis `axis` it is given."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:max.axis=None'}


def softmax(x, axis=-1):
    """Softmax along `axis`."""
    e_x = np.exp(x - np.max(x))
    return e_x / e_x.sum(axis=axis, keepdims=True)
