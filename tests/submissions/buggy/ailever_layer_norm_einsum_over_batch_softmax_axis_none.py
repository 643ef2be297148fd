"""Blind round 79 (b79_15, issue 38): softmax and layer_norm ported from ailever/ailever
`ailever/machine/torch/recurrent/layernorm.md` (a layer norm by einsum 'ijk,k->jk').

Mistakes:
1. layer_norm (lines 72-78 of the file as delivered): the input taken as (batch, T, d) and the
   source's einsum 'ijk,k->jk' applied, which sums over the batch axis and returns (T, d):
   right on 2-D (T, d) input, wrong on batched input.
2. softmax (line 65): `axis=None` by default, the whole array at once: right whenever `axis` is
   given (self_attention passes -1), wrong on more than one row without it.

Grader: at blind time (50c6c808), 102/110. Mistake 2 named on stable-softmax ("In `softmax`,
`axis` defaults to None ... instead of -1"). Mistake 1 then only observed, on layer-norm's hidden
check: "Your `layer_norm` is right for inputs of two axes (T, d), wrong for an input with leading
axes (3, 4, 2): check what each step does with the axes before the last". Since a9794873
(error_model/leading_axes.py, `batch_summed`) named there: "In `layer_norm`, the model solution's
`(x - mean) / np.sqrt(var + eps) * gamma` is summed over the input's leading (batch) axes, as an
einsum whose output leaves out the batch letter does (`np.einsum('ijk,k->jk', ...)` sums over
`i`): right for an input of two axes (T, d), but for a batch (B, T, d) it returns (T, d): the sum
over its B slices, ...". Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default_changed:softmax:axis-default-None',
          'layer-norm': 'op:batch_summed:layer_norm:gamma-batch-summed'}


def softmax(x, axis=None):
    y = x - x.max(axis=axis, keepdims=True)
    y = np.exp(y)
    y /= y.sum(axis=axis, keepdims=True)
    return y


def layer_norm(x, gamma, beta, eps=1e-6):
    embedding = x.reshape(-1, *x.shape[-2:]) if x.ndim > 1 else x.reshape(1, 1, -1)
    mean = embedding.mean(axis=-1, keepdims=True)
    var = embedding.var(axis=-1, keepdims=True)
    norm = (embedding - mean) / np.sqrt(var + eps)
    norm = np.einsum('ijk,k->jk', norm, gamma) + beta
    return norm.reshape(x.shape[-2:]) if x.ndim > 1 else norm.reshape(-1)
