"""Blind round 15 (b15_07, issue 38): LayerNorm written like CLIP's / PyTorch's F.normalize
(centre, then divide by the L2 norm clamped at eps); softmax from a blog post that shifts by the
minimum ("make every exponent non-negative").

Mistakes:
1. layer_norm divides the centred token by max(||x - mean||_2, eps), its L2 norm, instead of
   sqrt(var + eps): sqrt(d) times too small (before gamma and beta), eps a floor on the norm.
2. softmax subtracts the minimum along the axis instead of the maximum: exp overflows when the
   values span more than ~709, and a -inf entry makes the row NaN.

Grader: at blind time and now, the min shift is named ("takes the min where the lecture takes the
max"); the L2 norm is observed ("times 0.5 = 1/2, everywhere: one scale factor is off", d = 4),
its hidden case gets no hint.
Since session 14 the L2 norm is named (norms.unit_length: each token divided by its length
clamped at eps, F.normalize): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:reduction:softmax:max-as-min', 'layer-norm': 'op:unit_length:layer_norm:unit-length'}


def softmax(x, axis=-1):
    """Softmax shifted by the minimum (blog: keeps exponents >= 0, the shift cancels)."""
    e = np.exp(x - np.min(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    """Centre, then normalise like F.normalize(x, dim=-1, eps=eps) (CLIP), then scale and shift."""
    centred = x - x.mean(axis=-1, keepdims=True)
    norm = np.linalg.norm(centred, axis=-1, keepdims=True)
    return centred / np.maximum(norm, eps) * gamma + beta
