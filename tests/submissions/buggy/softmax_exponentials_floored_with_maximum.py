"""The exponentials floored before the sum with `np.maximum(e, 1e-5)` (a guard against a zero
sum, as C code writes `fmaxf(e, 1e-5f)`): an entry far below its row max gets weight 1e-5 / sum
instead of about 0. Another spelling of blind round 65's b65_15 (its clamp written with
np.where). Named: the exponentials floored at 1e-05.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:clamped:softmax:e_floor=1e-05'}


def softmax(x, axis=-1):
    z = x - x.max(axis=axis, keepdims=True)
    e = np.maximum(np.exp(z), 1e-5)
    return e / e.sum(axis=axis, keepdims=True)
