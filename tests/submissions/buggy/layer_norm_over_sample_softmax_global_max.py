"""Blind round 7 (b7_10, issue 38): layer_norm over x.shape[1:] (nn.LayerNorm([T, d])), and softmax
shifted by the global max.

Mistakes:
1. layer_norm: normalises over every axis but the first, like F.layer_norm(x, x.shape[1:]) /
   nn.LayerNorm([T, d]) (karpathy/minGPT#113, huggingface/transformers#14385 comment). Same as
   the last axis for 1-D and 2-D input; for a batched (B, T, d) input each sample's whole (T, d)
   block is normalised together. Shows only on 3-D+ input.
2. softmax: shifts by the global max x.max() instead of the max along `axis`. Mathematically the
   same, but a slice whose values all lie ~750 or more below the global max underflows to 0/0 =
   NaN. Shows only on 2-D+ input with slices far apart (e.g. [[1000, 999], [0, 1]]).

Grader: the global max is named ("`np.max(x, axis=axis, keepdims=True)` runs over the whole
array"). layer_norm is named too (the statistics over every axis but the first, F.layer_norm(x,
x.shape[1:])).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:max.axis=None',
          'layer-norm': 'op:norm_axes:layer_norm:over-sample'}


def softmax(x, axis=-1):
    z = np.asarray(x, dtype=float)
    z = z - z.max()                          # shift by the largest score
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x, dtype=float)
    axes = tuple(range(1, x.ndim)) or (0,)   # F.layer_norm(x, x.shape[1:])
    mu = x.mean(axis=axes, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=axes, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * gamma + beta
