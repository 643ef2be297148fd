"""Blind round 3 (b3_10, issue 38), a port with two mistakes: softmax subtracts the global max,
np.max(x), not the max along `axis`, so rows far below the global max underflow to 0 / 0 = nan
(named); layer_norm normalises its input in place "to save memory" (x -= mean; x /= std), so the
caller's array is overwritten. The in-place mistake was said exactly, but until session 13 as an observation with
no misconception name ("`layer_norm` changed `x` in place", tests/test_in_place.py), which an
EXPECT of buggy/ could not name.
Since session 13 the in-place write is named (changes_input_in_place: the worker sees the
argument change; the same hint, now a named mistake): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:max.axis=None',
          'layer-norm': 'changes_input_in_place'}


def softmax(x, axis=-1):
    """Stable softmax: subtract the max, exponentiate, normalise."""
    e_x = np.exp(x - np.max(x))
    return e_x / e_x.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm over the last axis, in place to save memory."""
    x -= x.mean(axis=-1, keepdims=True)
    x /= np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps)
    return x * gamma + beta
