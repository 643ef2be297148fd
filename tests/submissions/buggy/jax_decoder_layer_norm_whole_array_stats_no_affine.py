"""Blind round 46 (b46_13, issue 38): layer_norm ported from a JAX from-scratch decoder
(code-search file id 5423183865: layer_norm, mlp, transformer_block).

Mistakes:
1. layer_norm: the mean and variance are taken over the whole array, `np.mean(x)` and
   `np.mean((x - mean) ** 2)`, not per token over the last axis.
2. layer_norm: gamma and beta are never applied: `(x - mean) / np.sqrt(var + eps)` is returned
   without `* gamma + beta`.

Grader: at blind time (78229091), neither was named: the layer-norm checks gave checklists only
("Each token (row) is normalised over the last axis by its own mean and variance ... * gamma +
beta"), and the "eps inside the square root" check only the eps checklist, though the file's eps
is right. Now both are named on every layer-norm check, the eps one included: the statistics over
the whole array (one slip at the mean and the variance, op:axis `axis=None`) with gamma and beta
left out together (op:affine_dropped, "the learned scale and shift are never applied"), a group
of three edits the search builds as a slip made twice and one other single. Every mistake named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=None+op:axis:layer_norm:var.axis=None'
                        '+op:affine_dropped:layer_norm:affine-dropped'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """
    Simple layer normalization.
    """
    mean = np.mean(x)
    var = np.mean((x - mean) ** 2)
    return (x - mean) / np.sqrt(var + eps)
