"""Blind round 12 (b12_02, issue 38): Source style ported: a StackOverflow answer that avoids overflow in
exp by clipping the input (`np.exp(np.clip(x, -500, 500))`), and a cs231n-style layer norm that
computes the standard deviation as the Euclidean norm of the centred vector over sqrt(width).

Mistake 1 (softmax): no max subtraction; the input is clipped to [-500, 500] before exp. Right:
subtract the max along `axis` (a shift changes nothing). Shows when values exceed 500 (every
value near 1000 is clipped to 500, so the result is uniform instead of peaked); exact for
small inputs.
Mistake 2 (layer_norm): the width used to turn the norm into a standard deviation is read as
x.shape[1] instead of x.shape[-1]: std = ||x - mean|| / sqrt(x.shape[1]). Right for 2-D (T, d)
input; wrong for 3-D / leading-axis input (..., T, d) where shape[1] is T, not d; 1-D input
raises IndexError.

Grader: softmax observed (constant: "returns the same value, 0.3333, in every position"); layer_norm
observed (only_2d_inputs: "right for inputs of two axes (T, d), wrong for one with leading
axes"). Nothing named.
Since session 14 the width from shape[1] is named (norms.width_from_second_axis: the variance
by hand over `x.shape[1]`): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:clip:softmax:x-clipped=50', 'layer-norm': 'op:width_from_second_axis:layer_norm:var-over-shape1'}


def softmax(x, axis=-1):
    e = np.exp(np.clip(x, -500, 500))   # clip so exp cannot overflow
    return e / np.sum(e, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    mu = np.mean(x, axis=-1, keepdims=True)
    xc = x - mu
    n = x.shape[1]
    sigma = np.linalg.norm(xc, axis=-1, keepdims=True) / np.sqrt(n)
    return gamma * xc / np.sqrt(sigma ** 2 + eps) + beta
