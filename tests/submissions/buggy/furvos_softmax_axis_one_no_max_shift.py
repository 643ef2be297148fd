"""Blind round 37 (b37_05, issue 38): Furvos/self_attention, test_attention.py (softmax).

Mistakes:
1. `softmax`: the sum is always over `axis=1` whatever `axis` is passed: wrong for batched 3-D
   input, for axis=0, and for 1-D input (AxisError). self_attention's softmax(scores, axis=-1)
   on (heads, T, T) then normalises over the query axis (a consequence of this mistake).
2. `softmax`: no max subtraction, so inputs near 1000 overflow to nan.

Grader: at blind time (273cad6) and now, both named in one hint on stable-softmax: "2 mistakes
at once: (1) ... `np.sum(e, keepdims=True, axis=1)` in place of `np.sum(e, axis=axis,
keepdims=True)` ... (2) ... the max subtraction ... is left out"; the attention exercises are
graded with the grader's softmax standing in and pass. vit-checkpoint observes softmax. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:sum.axis=1'
                            '+op:term:softmax:drop-np.max(xaxis=axiskeepdims=True)'}


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    return np.exp(x) / np.sum(np.exp(x), axis=1, keepdims=True)
