"""Blind round 46 (b46_13, issue 38): layer_norm ported from a JAX from-scratch decoder
(code-search file id 5423183865: layer_norm, mlp, transformer_block).

Mistakes:
1. layer_norm: the mean and variance are taken over the whole array, `np.mean(x)` and
   `np.mean((x - mean) ** 2)`, not per token over the last axis.
2. layer_norm: gamma and beta are never applied: `(x - mean) / np.sqrt(var + eps)` is returned
   without `* gamma + beta`.

Grader: at blind time (78229091) and now, neither is named: the layer-norm checks gave
checklists only ("Each token (row) is normalised over the last axis by its own mean and variance
... * gamma + beta"), and the "eps inside the square root" check only the eps checklist, though
the file's eps is right. Not every mistake named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': None}


def layer_norm(x, gamma, beta, eps=1e-6):
    """
    Simple layer normalization.
    """
    mean = np.mean(x)
    var = np.mean((x - mean) ** 2)
    return (x - mean) / np.sqrt(var + eps)
