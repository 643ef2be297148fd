"""softmax exponentiates and divides in place (np.exp(..., out=x), x /= ...): right values, and the
scores the caller passed are overwritten."""
# ruff: noqa: F821  (every other name is the solution's)


def softmax(x, axis=-1):
    x -= x.max(axis=axis, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=axis, keepdims=True)
    return x
