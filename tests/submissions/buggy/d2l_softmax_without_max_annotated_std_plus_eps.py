"""Blind round 6 (b6_03, issue 38): softmax as d2l.ai writes it
(`X_exp = exp(X); partition = X_exp.sum(...)`) and layer_norm as The Annotated Transformer's
LayerNorm (`a_2 * (x - mean) / (std + eps) + b_2`).

Mistakes:
1. softmax: no max subtraction (d2l's version). Overflows to nan for inputs near 1000 (exp(1000)
   = inf); right (to rounding) for small inputs.
2. layer_norm: divides by (std + eps), eps outside the square root. Shows when var is not large
   compared with eps (eps=0.5, or tokens of tiny spread); tiny error otherwise.

Grader: Both are named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_without_max', 'layer-norm': 'layer_norm_eps_outside'}


def softmax(x, axis=-1):
    """d2l.ai: X_exp / X_exp.sum(axis, keepdims=True)."""
    X_exp = np.exp(x)
    partition = X_exp.sum(axis=axis, keepdims=True)
    return X_exp / partition


def layer_norm(x, gamma, beta, eps=1e-6):
    """The Annotated Transformer's LayerNorm."""
    mean = x.mean(-1, keepdims=True)
    std = x.std(-1, keepdims=True)
    return gamma * (x - mean) / (std + eps) + beta
