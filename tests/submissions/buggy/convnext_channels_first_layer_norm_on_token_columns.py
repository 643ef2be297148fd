"""Written for issue 38's error model (error_model/leading_axes.py), in the style of ConvNeXt's
`LayerNorm(data_format="channels_first")` (`u = x.mean(1, keepdim=True)` on (N, C, H, W)),
ported to tokens by putting the features first: `np.swapaxes(x, -2, -1)`, then the channels'
axis taken as axis 0 and the affine parameters as columns, `weight[:, None]`.

Mistakes:
1. layer_norm: the statistics over axis 0 of the swapped array: each token's features for a
   (T, d) input, the batch for a (B, T, d) one (and a 1-D token raises AxisError). Wrong on
   batched input only.

Grader: named on layer-norm's hidden check: "In `layer_norm`, the mean and variance are taken
over axis 0 of the input with its last two axes swapped, ... for a batch (B, T, d) axis 0 is the
batch, ...". Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:batch_axis:layer_norm:batch-axis'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """ConvNeXt's channels_first LayerNorm on (d, T) columns: one column per token."""
    h = np.swapaxes(np.asarray(x, dtype=np.float64), -2, -1)   # channels first
    u = h.mean(0, keepdims=True)
    s = ((h - u) ** 2).mean(0, keepdims=True)
    h = (h - u) / np.sqrt(s + eps)
    h = gamma[:, None] * h + beta[:, None]
    return np.swapaxes(h, -2, -1)
