"""Blind round 18 (b18_08, issue 38): softmax ported from the ONNX reference implementation of
Softmax for opsets 1-11 (onnx/reference/ops).

Mistake:
1. The input is coerced to 2-D at `axis`, `X.reshape(prod(shape[:axis]), -1)`, and each row
   normalised: the ordinary softmax along the last axis, but along any other axis it normalises over
   `axis` and every later axis together (axis=0 of a matrix: the whole matrix).

Grader: at blind time and now, checklists only ("Pass `axis` and keepdims=True to both np.max and
np.sum", the probabilities' checklist) and one hidden check with no hint; the coercion not named.
Since the eleventh session it is named (a reduction over its axis and every later one, one slip
made at the max and the sum): every mistake is. Since blind round 68 by the sum's, the max's
place said as one the cases cannot tell (over the same axes it changes none of the values).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:later_axes:softmax:sum.axis-and-later'
                            '+~op:later_axes:softmax:max.axis-and-later'}


def softmax(x, axis=-1):
    X = np.asarray(x, dtype=float)
    if axis < 0:
        axis += X.ndim
    new_shape = (int(np.prod(X.shape[:axis])), -1)
    Y = X.reshape(new_shape)
    tmp = Y - Y.max(axis=1, keepdims=True)
    Y = np.exp(tmp)
    Y = Y / Y.sum(axis=1, keepdims=True)
    return Y.reshape(X.shape)
