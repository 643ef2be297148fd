"""Blind round 61 (b61_14, issue 38): softmax ported from Geneww/llm_tools `self_attention.py`
(its `soft_max`: `np.exp(z)` divided by its sum).

Mistakes:
22. softmax (line 77 of the file as delivered): `np.exp(z)` without subtracting the max first:
    exp overflows to inf and the result is nan for inputs near 1000 (values far from zero);
    exact otherwise.

Grader: at blind time (90d6c97e) and now, 106/110, named on stable-softmax's overflow and random
checks ("exp overflowed: exp(1000) is inf in floating point, and inf / inf is nan. Subtract the
maximum along the axis first ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_without_max'}


def softmax(z, axis=-1):
    t = np.exp(z)
    a = t / np.expand_dims(np.sum(t, axis=axis), axis)
    return a
