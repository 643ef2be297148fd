"""Blind round 77 (b77_08, issue 38): softmax ported from jackyfan/AI-Training
`LLMs-from-scratch/attention.py` (the source's softmax_naive).

Mistakes:
1. softmax (line 79 of the file as delivered): `np.exp(x) / np.exp(x).sum(...)` with no max
   subtracted: inputs near 1000 overflow to nan. Ordinary inputs are right (the axis is read).

Grader: at blind time (15b4065f) and now, 106/110, named on stable-softmax ("exp overflowed ...
Subtract the maximum along the axis first"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_without_max'}


def softmax(x, axis=-1):
    """
    exp(x) / sum(exp(x)) 沿 axis 归一化
    """
    return np.exp(x) / np.exp(x).sum(axis=axis, keepdims=True)
