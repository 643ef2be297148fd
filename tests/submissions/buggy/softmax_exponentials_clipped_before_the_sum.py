"""The exponentials clipped to [1e-3, 1] before the sum (`np.clip(e, 1e-3, 1.0)`, a log-safe
guard copied from a cross-entropy): an entry about 6.9 below its row max or lower gets weight
1e-3 / sum instead of about 0. Another spelling of blind round 65's b65_15. Named: the
exponentials floored at 0.001 (the ceiling of 1 changes nothing).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:clamped:softmax:e_floor=0.001'}


def softmax(x, axis=-1):
    shifted = x - np.amax(x, axis=axis, keepdims=True)
    probs = np.clip(np.exp(shifted), 1e-3, 1.0)
    total = np.sum(probs, axis=axis, keepdims=True)
    return probs / total
