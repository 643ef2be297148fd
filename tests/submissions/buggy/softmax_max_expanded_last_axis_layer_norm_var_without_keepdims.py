"""Blind round 11 (b11_09, issue 38): softmax and layer_norm ported from reduce-then-expand code.

Sources: tinygrad/numpy ports that reduce without keepdims and re-insert the axis with
np.expand_dims (tinygrad Tensor.softmax uses keepdim; ports to numpy often write
np.expand_dims(x.max(axis), -1)); layer norm from "LayerNorm in numpy" blog code
mean/var = np.mean(..., axis=-1).
Mistakes:
 1. softmax re-inserts the max at the LAST axis (np.expand_dims(..., -1)) whatever `axis` is:
    right for axis=-1, wrong or a broadcast error for axis=0 on 2-D input.
 2. layer_norm's variance drops keepdims: right for a single token (d,), a broadcast error for
    (T, d) when T != d and silently wrong when T == d.

Grader: softmax's checklist ("Pass `axis` and keepdims=True to both np.max and np.sum ..."); the
variance without keepdims is named on the hidden check, told as mean-or-var on the small examples,
but told as the MEAN without keepdims on "eps inside the square root" (a wrong cause: the mean
keeps its axis). tests/test_catalogue.py marks this file xfail(strict) until that is fixed.
Since the twelfth session the softmax's re-inserted axis is named too (operators.kept_by_index:
`[..., None]` for keepdims, the same over the last axis only; on the small examples, where the
max and the sum cannot be told apart, as one slip at one or both places): wholly named, moved to
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:kept_by_index:softmax:max.keepdims-as-trailing-index',
          'layer-norm': 'op:keepdims:layer_norm:var.keepdims'}


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    m = np.expand_dims(np.max(x, axis=axis), -1)
    e = np.exp(x - m)
    return e / np.expand_dims(np.sum(e, axis=axis), axis)


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta
