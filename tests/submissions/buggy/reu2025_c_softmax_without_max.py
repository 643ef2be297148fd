"""Blind round 66 (b66_08, issue 38): softmax ported from bcchen52/reu2025
`examples/softmax/softmax_og.c` (softmax_probe_x0).

Mistakes:
17. softmax (line 128 of the file as delivered): `exp(x)` with no max subtracted: nan for inputs
    near 1000. Wrong on large inputs only.

Grader: at blind time (f4776223) and now, 106/110, named on stable-softmax's overflow and random
checks ("exp overflowed: exp(1000) is inf ... Subtract the maximum along the axis first"). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_without_max'}


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out.

    As softmax_probe_x0: e_i = exp(x_i), sum = e_0 + e_1 + ..., y_i = e_i / sum.
    """
    e = np.exp(x)
    total = np.sum(e, axis=axis, keepdims=True)
    return e / total
