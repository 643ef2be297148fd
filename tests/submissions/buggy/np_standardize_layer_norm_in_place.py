"""Blind round 50 (b50_13, issue 38): layer_norm after an in-place numpy standardisation
(`np_standardize`: `x -= mean; x /= std; return x`), written as `x -= mean; x /= np.sqrt(var +
eps); return x * gamma + beta`.

Mistakes:
1. Writes into the caller's array: after `layer_norm(x, ...)` the caller's x holds the
   normalised values (every input). The returned value is right, but the solution's
   encoder_block computes `x + self_attention(layer_norm(x, ...))`, whose left operand is that
   same, now-normalised array (encoder_block and vit_forward are wrong on every input when they
   call this layer_norm).

Grader: at blind time (593126bb) and now, named on layer-norm (all three checks): "the value is
right, but `layer_norm` changed `x` in place, an array it was given" with "Change no array
`layer_norm` is given in place: compute into a new one (`x = x - m`, not `x -= m`), or copy
first. Whoever calls `layer_norm` may use the same array again (a residual adds x back)."; the
blocks are graded with the grader's layer_norm standing in, and vit-checkpoint observes
layer_norm. A wrong result that is only an in-place write is a named mistake
(changes_input_in_place, as b49_12's picoGPT residuals), so in buggy/, not in_place/ (whose two
files tests/test_in_place.py lists by name).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'changes_input_in_place'}


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)

    x -= mean
    x /= np.sqrt(var + eps)

    return x * gamma + beta
