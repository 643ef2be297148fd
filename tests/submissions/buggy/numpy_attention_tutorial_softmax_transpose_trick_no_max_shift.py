"""Blind round 40 (b40_06, issue 38): softmax ported from a numpy scaled dot-product
attention tutorial (code-search file id 23298726448: softmax(x) = (np.exp(x).T / np.sum(np.exp(x),
axis=-1)).T), the axis argument given to the sum.

Mistakes (both in softmax):
1. No max subtraction: inputs near 1000 overflow to inf / inf = nan.
2. The `.T ... .T` trick, right for a 2-D array along its last axis only: a batched 3-D input, or
   axis=0, fails with a broadcast error.

Grader: at blind time (b589706) and now, named: "the transpose trick ... (e.T / np.sum(e,
axis=axis)).T" on the small examples, "the max subtraction ... is left out" on the overflow check,
both in a "2 mistakes at once" on the hidden check; the property check observes the failure;
the exercises calling softmax are graded with the grader's; vit-checkpoint observes it. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:term:softmax:drop-np.max(xaxis=axiskeepdims=True)+op:divided_by_transpose:softmax:sum-by-transpose'}


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out."""
    return (np.exp(x).T / np.sum(np.exp(x), axis=axis)).T
