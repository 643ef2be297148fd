"""Blind round 41 (b41_14, issue 38): softmax after a numpy scratch file comparing softmax and
log_softmax on np.random.normal(size=(2, 3, 4)) (code-search file id 10550899165: def
softmax(x): y = np.exp(x); return y / y.sum(-1, keepdims=True)), with the exercise's `axis`.

Mistakes:
1. softmax: no max subtraction: exp overflows for inputs far from zero (all nan near 1000).

Grader: at blind time (6092674) and now, named on stable-softmax's overflow check and its hidden
check: "exp overflowed: exp(1000) is inf in floating point, and inf / inf is nan. Subtract the
maximum along the axis first". In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_without_max'}


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out."""
    y = np.exp(x)

    return y / y.sum(axis, keepdims=True)
