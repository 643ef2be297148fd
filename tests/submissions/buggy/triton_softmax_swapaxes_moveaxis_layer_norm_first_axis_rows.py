"""Blind round 18 (b18_02, issue 38): softmax and layer_norm in the style of the Triton
tutorials (02-fused-softmax, 05-layer-norm): the input flattened to (n_rows, n_cols), row-wise.

Mistakes:
1. softmax brings `axis` last with `np.swapaxes(x, axis, -1)` and puts it back with
   `np.moveaxis(y, -1, axis)`: the same for 1-D and 2-D input and whenever `axis` is one of the last
   two, permuted axes for 3-D input along a leading axis (axis=0 on (B, T, d)).
2. layer_norm's rows are `M = x.shape[0]; x.reshape(M, -1)` instead of
   `x.reshape(-1, x.shape[-1])`: right on (T, d); a (B, T, d) batch is normalised over T*d numbers
   per entry, and a 1-D token becomes d rows of one number (the result is beta).

Grader: at blind time and now, the statistics over every axis but the first are named (at blind
time with the side remark "right for one token", untrue of a 1-D token, which this file returns as
beta; now: "right for a (T, d) sequence, but a batch is normalised per sample instead of per
token"). The softmax was observed only ("right along the last two axes of its input, wrong along
axis 0 of one with 3 axes", only_last_two_axes); since session 17 the swapaxes/moveaxis pair is
named (results.py's moved_back_alike, `axis-swapped-then-moved-back`: a swap undone by a move).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:moved_back_alike:softmax:axis-swapped-then-moved-back',
          'layer-norm': 'op:norm_axes:layer_norm:over-sample'}


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    x_t = np.swapaxes(x, axis, -1)          # reduced axis last
    shape = x_t.shape
    x2d = x_t.reshape(-1, shape[-1])        # (n_rows, n_cols)
    # softmax_kernel, all rows at once
    row_minus_max = x2d - np.max(x2d, axis=1, keepdims=True)
    numerator = np.exp(row_minus_max)
    denominator = np.sum(numerator, axis=1, keepdims=True)
    y2d = numerator / denominator
    return np.moveaxis(y2d.reshape(shape), -1, axis)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    # reshape input data into 2D tensor
    M = x.shape[0]
    x_arg = x.reshape(M, -1)
    N = x_arg.shape[1]
    # _layer_norm_fwd_fused: mean, variance, rstd per row
    mean = np.sum(x_arg, axis=1, keepdims=True) / N
    xbar = x_arg - mean
    var = np.sum(xbar * xbar, axis=1, keepdims=True) / N
    rstd = 1 / np.sqrt(var + eps)
    x_hat = (xbar * rstd).reshape(x.shape)
    return x_hat * gamma + beta
