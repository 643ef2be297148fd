"""Blind round 10 (b10_11, issue 38): softmax ported from jax.nn's log_softmax (`shifted - log(sum(
exp(shifted)))`, the final exp of softmax missing) and layer_norm with the numpy idiom for
standardising rows, ((x.T - mean) / std).T.

Mistakes:
1. softmax returns the log-softmax. Every input.
2. layer_norm: right for 1-D and 2-D x; on 3-D x the statistics broadcast against the wrong axes.

Grader: in the blind round softmax got stable-softmax's checklists (and no hint on the hidden
check); the log is named since (results.OUTPUT_ACTIVATIONS' log). The transpose is observed
(only_2d_inputs).
Since session 14 the transposes are named (norms.by_transpose: `((x.T - mean) / std).T`, the
statistics without keepdims): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:output_activation:softmax:result-through-log',
          'layer-norm': 'op:by_transpose:layer_norm:standardised-by-transpose'}


def softmax(x, axis=-1):
    """Stable softmax the jax.nn way (shift by the max, logsumexp)."""
    x = np.asarray(x, dtype=float)
    x_max = np.max(x, axis=axis, keepdims=True)
    shifted = x - x_max
    shifted_logsumexp = np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))
    return shifted - shifted_logsumexp


def layer_norm(x, gamma, beta, eps=1e-6):
    """Standardise each row (token), then scale and shift."""
    mu = x.mean(axis=-1)
    sigma = np.sqrt(x.var(axis=-1) + eps)
    return ((x.T - mu) / sigma).T * gamma + beta
