"""Blind round 46 (b46_02, issue 38): softmax ported from gregclinton/murphy, softmax.py (numpy:
`e = np.exp(x).T; return (e / np.sum(e, axis=0)).T`, each row of w one set of scores).

Mistakes:
1. No max subtraction: np.exp(x) overflows near 1000 (softmax([1000., 1001.]) -> [nan, nan]).
2. The `axis` argument is ignored: the .T trick always normalises the last axis (axis=0 on a
   (4, 6) array, axis=1 on a (2, 3, 4) one are wrong; axis=-1 is right).

Grader: at blind time (78229091) and now, both named on stable-softmax: "the max subtraction
`np.max(x, axis=axis, keepdims=True)` is left out" (no overflow near 1000) and "`axis` is taken as
its default, -1, whatever is given" (small examples, axis=0), the hidden check both at once; the
"sum to 1" check (axis=1) a checklist. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:term:softmax:drop-np.max(xaxis=axiskeepdims=True)+op:default:softmax:axis-as-default'}
ALIASES = ('softmax_wrong_axis',)  # the probability property's verdict on it (axis=1 ignored)


def softmax(x, axis=-1):
    # murphy/softmax.py: each row of w is one set of scores
    e = np.exp(x).T
    return (e / np.sum(e, axis=0)).T
