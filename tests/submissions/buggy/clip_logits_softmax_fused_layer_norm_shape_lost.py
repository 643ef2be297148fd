"""Blind round 11 (b11_04, issue 38): softmax and layer_norm ported from "avoid overflow" and fused-kernel code.

Sources:
 - softmax: the common Stack Overflow advice for "RuntimeWarning: overflow encountered in exp"
   (np.clip(x, -500, 500) before np.exp), as in many numpy MLP/logistic-regression posts.
 - layer_norm: apex/Megatron FusedLayerNorm style, which views the input as (-1, hidden)
   (x.view(-1, hidden_size)) and normalises rows.
Mistakes:
 1. softmax clips the logits to [-500, 500] instead of subtracting the max: shows only for
    inputs above 500 (near 1000 every entry is clipped to 500, so the output is uniform).
 2. layer_norm flattens to (-1, d) and never restores the shape: right for (T, d) input,
    wrong shape for a single token (d,) -> (1, d) and for (B, T, d) input.

Grader: the clipping is observed ("returns the same value, 0.3333, in every position"); the lost
shape was observed in the blind round as "right for inputs of one or two axes, wrong for one with
leading axes (3, 4, 2): work on the last axis", a wrong claim ((d,) gives (1, d)); it now says
"right for inputs of two axes (T, d), ... check what each step does with the axes before the
last".
Both named since (the error model: the shift written as a clip; the input viewed as rows and
the result left so).
Since the eleventh session its hidden layer-norm check (inputs with leading axes only, where the
input viewed as rows and the result flattened to rows are the same) is told the narrower: the result
comes back flattened to rows.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:clip:softmax:x-clipped=50',
          'layer-norm': 'op:result_flattened:layer_norm:result-flattened-to-rows'}


def softmax(x, axis=-1):
    """Clip the logits so np.exp cannot overflow (float64 overflows above ~709)."""
    x = np.clip(x, -500, 500)
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    """Row-wise layer norm on x viewed as (-1, hidden), as the fused kernels do."""
    hidden = x.shape[-1]
    rows = x.reshape(-1, hidden)
    mu = rows.mean(axis=1, keepdims=True)
    var = ((rows - mu) ** 2).mean(axis=1, keepdims=True)
    return (rows - mu) / np.sqrt(var + eps) * gamma + beta
