"""Blind round 25 (b25_01, issue 38): softmax and layer_norm ported from OpenAI's Triton tutorials
(python/tutorials/02-fused-softmax.py: one program per row of `x.reshape(-1, n_cols)`,
`row_minus_max = row - tl.max(row, axis=0)`; 05-layer-norm.py: `_layer_norm_fwd_fused` on the rows
of `x.reshape(-1, x.shape[-1])`, eps=1e-5 in the tutorial's test).

Mistakes:
1. softmax normalises the rows of `x.reshape(-1, x.shape[-1])`: `axis` is accepted and ignored,
   the softmax is always over the last axis.
2. layer_norm defaults eps to 1e-5 (the tutorial's) instead of the lecture's 1e-6.

Grader: at blind time and now, both named: `axis` taken as its default, -1, whatever is given, on
stable-softmax (the probability property's checklist there too), and eps 1e-05 on layer-norm (the
float32 offset-100 small example only observed, "except in 1 of 4 rows (row 3)", the row with the
smallest variance). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default:softmax:axis-as-default',
          'layer-norm': 'op:constant:layer_norm:eps=1e-05'}
ALIASES = ('softmax_wrong_axis',)  # the probability property's verdict on the same axis


def softmax(x, axis=-1):
    """Row softmax as in the Triton fused-softmax tutorial (one 'program' per row)."""
    x = np.asarray(x, dtype=float)
    n_cols = x.shape[-1]
    rows = x.reshape(-1, n_cols)
    output = np.empty_like(rows)
    for row_idx in range(rows.shape[0]):
        row = rows[row_idx]
        # Subtract maximum for numerical stability
        row_minus_max = row - np.max(row, axis=0)
        numerator = np.exp(row_minus_max)
        denominator = np.sum(numerator, axis=0)
        output[row_idx] = numerator / denominator
    return output.reshape(x.shape)


def layer_norm(x, gamma, beta, eps=1e-5):
    """_layer_norm_fwd_fused from the Triton tutorial, one row at a time."""
    x = np.asarray(x, dtype=float)
    x_arg = x.reshape(-1, x.shape[-1])
    M, N = x_arg.shape
    y = np.empty_like(x_arg)
    for row in range(M):
        a = x_arg[row]
        mean = np.sum(a, axis=0) / N
        xbar = a - mean
        var = np.sum(xbar * xbar, axis=0) / N
        rstd = 1 / np.sqrt(var + eps)
        x_hat = xbar * rstd
        y[row] = x_hat * gamma + beta
    return y.reshape(x.shape)
