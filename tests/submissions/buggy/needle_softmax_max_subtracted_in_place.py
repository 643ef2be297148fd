"""Blind round 53 (b53_04, issue 38): softmax ported from roosephu/needle,
needle/helper/utils.py (`x -= np.max(x, axis=-1, keepdims=True)`), with `axis` added as the API
asks.

Mistakes:
1. `x -= max` writes into the caller's array: after `softmax(x)`, x holds the max-shifted values.
   The result is right, but every direct call with a numpy array changes its input (a read-only
   array raises). In self_attention the scores are a temporary, so nothing else changes.

Grader: at blind time (0ec6739e) and now, named on stable-softmax ("Change no array `softmax` is
given in place: compute into a new one (`x = x - m`, not `x -= m`), or copy first. Whoever calls
`softmax` may use the same array again (a residual adds x back)."). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'changes_input_in_place'}


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out.

    Numerically stable: subtracting the max along `axis` first changes nothing mathematically
    and keeps exp from overflowing for inputs near 1000.
    """
    x -= np.max(x, axis=axis, keepdims=True)
    x = np.exp(x)
    return x / np.sum(x, axis=axis, keepdims=True)
