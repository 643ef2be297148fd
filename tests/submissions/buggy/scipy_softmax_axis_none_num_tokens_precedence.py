"""Blind round 11 (b11_15, issue 38): softmax ported from scipy.special.softmax; num_tokens one-liner.

Sources: scipy.special.softmax(x, axis=None) (https://github.com/scipy/scipy/blob/main/scipy/special/_logsumexp.py:
x_max = np.amax(x, axis=axis, keepdims=True); exp_x_shifted = np.exp(x - x_max);
return exp_x_shifted / np.sum(exp_x_shifted, axis=axis, keepdims=True)), signature copied;
num_tokens from timm's `num_prefix_tokens = 1 if class_token else 0` folded into one line.
Mistakes:
 1. softmax keeps scipy's default axis=None, so softmax(x) without an axis normalises over the
    WHOLE array (right for 1-D input, wrong for 2-D and more when the axis is not given).
 2. num_tokens returns `num_patches(...) + 1 if cls_token else 0`, which Python reads as
    `(num_patches + 1) if cls_token else 0`: 0 tokens without [CLS] (and no ValueError then).

Grader: in the blind round axis=None got the checklist "Pass `axis` and keepdims=True ..." and
the observation "returns the expected values except in 1 of 2 rows (row 1)"; the precedence slip
got no hint. Both are named since (names.default_changed's None, sequence.precedence).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'op:precedence:num_tokens:cls_token-unbracketed',
          'stable-softmax': 'op:default_changed:softmax:axis-default-None'}


def softmax(x, axis=None):
    """scipy.special.softmax."""
    x = np.asarray(x, dtype=float)
    x_max = np.amax(x, axis=axis, keepdims=True)
    exp_x_shifted = np.exp(x - x_max)
    return exp_x_shifted / np.sum(exp_x_shifted, axis=axis, keepdims=True)


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P) + 1 if cls_token else 0
