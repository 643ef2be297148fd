"""Blind round 12 (b12_10, issue 38): Source style ported: cs231n assignment 2 (layernorm_forward, with the
hint to transpose the input and reuse the batch-norm code that reduces over axis 0).

Mistake 1 (layer_norm): the student moves the features to axis 0 with x.swapaxes(0, 1),
normalises over axis 0 as batch norm does, and swaps back. For a 2-D (T, d) input that is the
transpose, so the result is right; for 3-D / leading-axis input (B, T, d) swapaxes(0, 1) gives
(T, B, d) and the statistics are taken over the T axis (tokens), not the features; a 1-D (d,)
input raises an AxisError. Right: mean and variance over the last axis for any shape.
Shows only on inputs that are not 2-D.

Grader: named (generated: "`np.mean(x, axis=-1, keepdims=True)` runs over axis 1 instead of axis -1",
the same for var), on the hidden check with leading axes.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'}


def layer_norm(x, gamma, beta, eps=1e-6):
    xt = x.swapaxes(0, 1)                 # features to the batch-norm axis (cs231n hint)
    sample_mean = xt.mean(axis=0)
    sample_var = xt.var(axis=0)
    xt_hat = (xt - sample_mean) / np.sqrt(sample_var + eps)
    x_hat = xt_hat.swapaxes(0, 1)
    return gamma * x_hat + beta
