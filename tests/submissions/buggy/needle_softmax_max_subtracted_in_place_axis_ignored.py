"""Blind round 41 (b41_01, issue 38): roosephu/needle, needle/helper/utils.py (the numpy helper
`def softmax(x): x -= np.max(x, axis=-1, keepdims=True); x = np.exp(x); return x / np.sum(x,
axis=-1, keepdims=True)`), as softmax.

Mistakes:
1. softmax subtracts the max in place (`x -= np.max(...)`): the caller's array is overwritten
   (the returned values are right).
2. softmax ignores `axis`: always the last axis (the source's one-argument helper).

Grader: at blind time (6092674) and now, both named: 1 on the near-1000 check ("Change no array
`softmax` is given in place", changes_input_in_place), 2 on the small examples (axis=0) and the
hidden check ("In `softmax`, `axis` is taken as its default, -1, whatever is given."). The
sum-to-1 check has the true checklist. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default:softmax:axis-as-default'}
ALIASES = ('changes_input_in_place', 'softmax_wrong_axis')


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out.

    Numerically stable: subtracting the max along `axis` first changes nothing mathematically
    and keeps exp from overflowing for inputs near 1000.
    """
    # same helper as needle/helper/utils.py
    x -= np.max(x, axis=-1, keepdims=True)
    x = np.exp(x)
    return x / np.sum(x, axis=-1, keepdims=True)
