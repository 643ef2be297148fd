"""Blind round 14 (b14_01, issue 38): softmax with PyTorch's implicit-dim rule
(torch.nn.functional._get_softmax_dim), and layer_norm after a blog post "LayerNorm is a
projection onto a sphere".

Mistakes:
1. softmax with no axis given picks torch's legacy axis: 0 for 0-D, 1-D and 3-D inputs, 1
   otherwise, so a 3-D input is normalised over axis 0 and a 4-D one over axis 1 (right: the
   last axis). 1-D and 2-D inputs and any explicit axis are right.
2. layer_norm divides the centred x by sqrt(sum((x - mean)**2) + eps) and multiplies by sqrt(d):
   (x - mean) / sqrt(var + eps / d), eps divided by the width. Shows when eps is not negligible
   against the variance.

Grader: both observed, at blind time and now: softmax "returns the expected values only in 1 of 5
rows (row 0)" (some_rows_wrong, hidden case); layer_norm "returns the expected values times
1.128, everywhere: one scale factor is off" (scaled), with no hint on its hidden case. Nothing
named.
Since session 15 the implicit axis is named (fused.torch_implicit_axis: torch's legacy
`_get_softmax_dim` when no axis is given), and the layer_norm's eps added to the sum of the
squared deviations (norms.eps_over_width: eps / d): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:torch_implicit_axis:softmax:axis-torch-implicit',
          'layer-norm': 'op:eps_over_width:layer_norm:eps-over-width'}


def softmax(x, axis=None):
    """Stable softmax, ported from torch.nn.functional.softmax.

    Like torch, `axis` (torch's `dim`) may be left out: then it is chosen the way
    torch.nn.functional._get_softmax_dim does it (0 for 0-D, 1-D and 3-D inputs, else 1).
    """
    x = np.asarray(x, dtype=float)
    if axis is None:
        axis = 0 if x.ndim in (0, 1, 3) else 1
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm as in the blog post "LayerNorm is a projection": centre each token, project it
    onto the unit sphere, then scale by sqrt(d) and apply the affine map."""
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    centred = x - x.mean(axis=-1, keepdims=True)
    norm = np.sqrt(np.sum(centred ** 2, axis=-1, keepdims=True) + eps)
    return centred / norm * np.sqrt(d) * gamma + beta
