"""Blind round 72 (b72_12, issue 38): num_tokens and softmax ported from oelin/attention
`attention/scaled_dot_product_attention.py` (typed functions with docstrings, torch.softmax
written out).

Mistakes:
1. num_tokens (line 28 of the file as delivered): `return num_patches(H, W, P) + 1` ignores
   `cls_token=False` (197 for 224/16 without [CLS]). Wrong with cls_token=False only.
2. softmax (lines 104-105): `np.exp(x)` with no max subtracted, so inputs near 1000 overflow
   to inf and nan. Right on ordinary inputs (attention is unaffected).

Grader: at blind time (2df48139) and now, 103/110. Mistake 1 named on token-count ("With
cls_token=False there is no [CLS] row: the sequence is just the N patches."); mistake 2 named on
stable-softmax ("exp overflowed: exp(1000) is inf in floating point, and inf / inf is nan.
Subtract the maximum along the axis first"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'cls_always',
          'stable-softmax': 'softmax_without_max'}


def num_tokens(H: int, W: int, P: int, cls_token: bool = True) -> int:
    """Sequence length (patches + [CLS])."""

    return num_patches(H, W, P) + 1


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """Softmax."""

    exponent = np.exp(x)
    return exponent / np.sum(exponent, axis=axis, keepdims=True)
