"""Blind round 49 (b49_04, issue 38): softmax from orris27/deeplearning-simple-implementation,
utils.py (`np.exp(x - np.max(x))`), the sum moved to `axis`; layer_norm from taesiri/MLBites,
db/layernorm_forward_backward_numpy (`layernorm_forward`: `if x.ndim != 2: raise
ValueError(...)`, mean and variance over axis 1).

Mistakes:
1. softmax subtracts the global max, not the max along `axis`: a slice far below the array's
   maximum underflows to 0/0 (softmax([[1000, 999], [0, 1]]) has a NaN row 1).
2. layer_norm accepts only 2-D input: ValueError on a (d,) vector, a batched (B, T, d) or a 4-D
   input, which the solution normalises over the last axis.

Grader: at blind time (7e618553), both named: mistake 1 on stable-softmax ("In `softmax`, your
values are the lecture's with `np.max(x, keepdims=True)` in place of `np.max(x, axis=axis,
keepdims=True)`: over the whole array instead of the axis `axis` it is given ..."), mistake 2 on
layer-norm's hidden check only ("In `layer_norm`, an `x` that is not a 2-D (T, d) matrix (a
single (d,) token, a batched (B, T, d) input) is refused (an error is raised for it), where the
lecture's normalises each row along the last axis, whatever axes come before it: accept every
input the lecture's function accepts."). The same names now; softmax's hint now ends at "...
instead of the axis `axis` it is given.". Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:max.axis=None',
          'layer-norm': 'op:guarded:layer_norm:two-axes-only'}


def softmax(x, axis=-1):
    e_x = np.exp(x - np.max(x))  # Same result as np.exp(x) while avoiding overflow
    return e_x / e_x.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    if x.ndim != 2:
        raise ValueError(f"x must be 2D (N,D), got shape={x.shape}")
    n, d = x.shape
    if d == 0:
        raise ValueError("D must be > 0")
    mu = x.mean(axis=1, keepdims=True)
    xmu = x - mu
    var = (xmu * xmu).mean(axis=1, keepdims=True)
    inv_std = 1.0 / np.sqrt(var + eps)
    x_hat = xmu * inv_std
    y = x_hat * gamma + beta
    return y
