"""Blind round 79 (b79_09, issue 38): softmax and layer_norm ported from
Hyan1ce/AVX-LLM-kernel-accel `tests/test_layernorm.py` (the reference LayerNorm of its kernel test,
written with `dim=1`).

Mistakes:
1. layer_norm (lines 76-77 of the file as delivered): mean and variance over axis 1, the
   source's 2-D `dim=1`: right on (T, d) input, wrong on batched input (..., T, d).
2. softmax (line 69): the max taken over axis 1 while the sum uses `axis`: right on 2-D input
   (and with axis=1), wrong on 3-D input with the default axis=-1; an AxisError on 1-D input.
The delivered file's `gelu`, the tanh approximation (which the API accepts, and which cost no
points), is left out here.

Grader: at blind time (50c6c808) and now, 101/110 (this file, with the solution's
`self_attention`, which gives `softmax` (heads, T, T) scores, 96: vit-checkpoint fails too).
Mistake 1 named on layer-norm ("One slip, made at 2 places: (1) In `layer_norm`, ...
`np.mean(x, axis=-1, keepdims=True)` taken over axis 1 ... (2) ..." the same of the variance),
mistake 2 on stable-softmax ("In `softmax`, ... `np.max(x, axis=axis, keepdims=True)` taken over
axis 1 ... instead of over the axis `axis` it is given"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:max.axis=1',
          'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'}


def softmax(x, axis=-1):
    x_max = np.max(x, axis=1, keepdims=True)
    e = np.exp(x - x_max)
    return e / np.sum(e, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm over the hidden dimension."""
    mean = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True)   # unbiased=False
    result = (x - mean) / np.sqrt(var + eps)
    result = result * gamma + beta
    return result
