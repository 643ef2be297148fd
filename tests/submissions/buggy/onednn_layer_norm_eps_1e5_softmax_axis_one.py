"""Blind round 78 (b78_10, issue 38): softmax and layer_norm ported from oneapi-src/oneDNN
`doc/operations/LayerNorm_1.rst` (the operation's attributes: epsilon, begin_norm_axis,
use_affine) and a softmax with an axis attribute.

Mistakes:
1. layer_norm (line 82 of the file as delivered): the default `eps=1e-5`, the op spec's, not
   1e-6: shows at a tight tolerance and on low-variance rows; a caller's eps is right.
2. softmax (line 75): the default `axis=1`: right on 2-D input and inside attention (which
   passes axis=-1); wrong on 3-D input called without an axis, and an AxisError on 1-D input.

Grader: at blind time (ddfccf96) and now, 101/110. Mistake 1 named on layer-norm ("In
`layer_norm`, eps is 1e-05; the student API's is 1e-06."), mistake 2 on stable-softmax ("In
`softmax`, `axis` defaults to 1 (`axis=1` in the signature) ... the student API's default is
-1"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default_flipped:softmax:axis-defaults-1',
          'layer-norm': 'op:constant:layer_norm:eps=1e-05'}


def softmax(x, axis=1):
    x = np.asarray(x, dtype=float)
    m = np.max(x, axis=axis, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-5, begin_norm_axis=-1, use_affine=True):
    axes = tuple(range(begin_norm_axis % x.ndim, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    out = (x - mean) / np.sqrt(var + eps)
    if use_affine:
        out = out * gamma + beta
    return out
