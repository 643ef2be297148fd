"""Blind round 60 (b60_13, issue 38): softmax ported from rsnemmen/toy-transformer
`scaled-dot-p–clean.ipynb` (the notebook's `softmax2`, `exp(x) / sum(exp(x))`).

Mistakes:
20. softmax (lines 70-74 of the file as delivered) has no max shift. Wrong only for inputs far
    from zero: near +1000 exp overflows to inf (NaN), near -1000 it underflows (0/0 = NaN).
    Ordinary inputs are right.

Grader: at blind time (528b2ec3) and now, 106/110, named on stable-softmax's overflow and random
checks ("exp overflowed: exp(1000) is inf in floating point, and inf / inf is nan. Subtract the
maximum along the axis first ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_without_max'}


def softmax(x, axis=-1):
    exp_x = np.exp(x)  # Exponentiate the shifted input
    sum_exp_x = np.sum(exp_x, axis=axis, keepdims=True)  # Sum along the specified axis
    softmax_output = exp_x / sum_exp_x  # Normalize by the sum
    return softmax_output
