"""Blind round 5 (b5_04, issue 38): softmax and layer_norm written with explicit reductions and [:,
None] broadcasting, as in numpy-only ViT blog posts.

Mistakes:
1. softmax: the max is subtracted with keepdims=True but the sum is taken without keepdims:
   e / e.sum(axis=axis). Right on 1-D input; on a 2-D input the sum broadcasts along the wrong
   axis (silently wrong when square, raises when the shapes do not broadcast). Shows on any
   input with 2 or more dimensions.
2. layer_norm: mean and variance as x.mean(-1)[:, None]. Right on (T, d) input; on batched
   (B, T, d) input the [:, None] inserts the axis in the wrong place (raises, or is wrong when
   T == d). Shows only on batched (3-D) input.

Grader: Both are named (the layer_norm as keepdims written with [:, None], at its mean and var).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:keepdims:softmax:sum.keepdims', 'layer-norm': 'op:kept_by_index:layer_norm:mean.keepdims-as-index'
                        '+op:kept_by_index:layer_norm:var.keepdims-as-index'}


def softmax(x, axis=-1):
    """Stable softmax along axis."""
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis)


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm over features."""
    mean = x.mean(-1)[:, None]
    var = ((x - mean) ** 2).mean(-1)[:, None]
    return gamma * (x - mean) / np.sqrt(var + eps) + beta
