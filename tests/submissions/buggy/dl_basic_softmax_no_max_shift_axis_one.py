"""Blind round 47 (b47_04, issue 38): softmax ported from dlrlgugu/dl_basic, softmax.py
(`x_exp = np.exp(x)`, `np.sum(x_exp, axis=1, keepdims=True)`).

Mistakes:
1. No max shift: `np.exp(x)` overflows for inputs near 1000 (nan rows).
2. The sum is over `axis=1`, hard-coded, the `axis` argument ignored: right for 2-D input with
   axis=-1; wrong for batched / (heads, T, T) scores and for another axis; 1-D input raises
   AxisError.

Grader: at blind time (a4c32119) and now, named: "2 mistakes at once": "your values are the
lecture's with `np.sum(e, keepdims=True, axis=1)` in place of `np.sum(e, axis=axis,
keepdims=True)` ..." and "In `softmax`, the max subtraction ... is left out ..." on stable-softmax
(small examples, overflow, hidden); the property check observes it; vit-checkpoint observes
softmax. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:sum.axis=1'
                            '+op:term:softmax:drop-np.max(xaxis=axiskeepdims=True)'}


def softmax(x, axis=-1):
    x_exp = np.exp(x)
    x_sum = np.sum(x_exp, axis=1, keepdims=True)
    s = x_exp / x_sum

    return s
