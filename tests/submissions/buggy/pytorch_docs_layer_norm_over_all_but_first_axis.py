"""Blind round 29 (b29_10, issue 38): layer_norm ported from the PyTorch documentation of
torch.nn.LayerNorm / F.layer_norm (the "Image Example": nn.LayerNorm([C, H, W]), that is
normalized_shape = input.shape[1:], mean and biased variance over those dimensions).

Mistakes:
1. normalized_shape = x.shape[1:]: the statistics are taken over every axis but the first.
   Right for 2-D (T, d) inputs; wrong for 3-D inputs (T and d normalised together) and for 1-D
   (d,) inputs (no axis at all: returns beta).

Grader: at blind time and now, named: "the mean and variance are taken over every axis but the
first, `axis=tuple(range(1, np.ndim(x)))` (`F.layer_norm(x, x.shape[1:])`)" on layer-norm.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:norm_axes:layer_norm:over-sample'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """F.layer_norm(x, normalized_shape=x.shape[1:], weight=gamma, bias=beta, eps=eps)."""
    x = np.asarray(x, dtype=float)
    normalized_shape = x.shape[1:]
    dims = tuple(range(x.ndim - len(normalized_shape), x.ndim))
    mean = x.mean(axis=dims, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=dims, keepdims=True)   # biased, as the docs say
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
