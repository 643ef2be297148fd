"""Blind round 27 (b27_12, issue 38): softmax ported from Victor Zhou's cnn-from-scratch
(softmax.py, Softmax.forward: `exp = np.exp(totals)`, `exp / np.sum(exp, axis=0)` on a 1-D
vector). The student's correct conv_patch_embed (conv.py's iterate_regions, with a stride) is left
out: it grades as the solution's.

Mistakes:
1. softmax takes no max away before exp: NaN on inputs near 1000.
2. softmax sums over `axis` without keepdims: the division broadcasts along the wrong axis (right
   along axis 0 and on 1-D inputs; wrong or an error elsewhere, the default axis included).

Grader: at blind time and now, not named: the keepdims checklist line (which does cover (2)), the
overflow observed as NaN or inf rows, the property's "your code failed" observation; the hidden
random check has no hint line; vit-checkpoint observes the broken softmax.
Since session 14 (port27): both named as a pair on the three value checks, the sum without
keepdims=True and the max subtraction left out (the search now pairs a single that returns
where the student's code raised on a later call: the max left out alone reproduces the overflow,
not the broadcast errors): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:keepdims:softmax:sum.keepdims'
                            '+op:term:softmax:drop-np.max(xaxis=axiskeepdims=True)'}


def softmax(x, axis=-1):
    exp = np.exp(x)
    return exp / np.sum(exp, axis=axis)
