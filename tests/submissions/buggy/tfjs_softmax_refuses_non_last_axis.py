"""Blind round 27 (b27_09, issue 38): softmax ported from TensorFlow.js (tfjs-core softmax_:
`if (dim !== logits.rank - 1) throw Error('Softmax along a non-last dimension is not yet
supported')`, then `logits - logSumExp(logits, dim)`). The student's top-level helper
`_log_sum_exp` is nested in softmax here: the builder replaces only the solution's own
definitions. The student's correct conv_patch_embed (computeConv2DInfo with pad 'valid') is left
out: it grades as the solution's.

Mistakes:
1. softmax raises ValueError for any axis but the last: wrong on 2-D and 3-D inputs along axis 0
   or 1.

Grader: at blind time and now, not named: the keepdims checklist line (which does not apply: the
code passes axis and keepdims to both reductions) and the property's "your code failed, see the
traceback" observation; the hidden random check has no hint line.
Since session 14 (port27): observed on the small examples and the hidden random check, "right
along the last axis of its input, not along axis 0 of one with 2 axes" (only_last_axis).
Since session 17 the refusal is named (op:guarded:softmax:last-axis-only, error_model/guards.py:
"`softmax` refuses every `axis` but the last one of `x`"): the guard raises on exactly the calls
the code raised on, the check's and every axis of 1-D, 2-D and 3-D probes, and returns the
reference's value on every other.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:guarded:softmax:last-axis-only'}


def softmax(x, axis=-1):
    def _log_sum_exp(x, axis):
        x_max = np.max(x, axis=axis, keepdims=True)
        return np.log(np.sum(np.exp(x - x_max), axis=axis, keepdims=True)) + x_max

    logits = np.asarray(x, dtype=float)
    dim = axis
    if dim == -1:
        dim = logits.ndim - 1
    if dim != logits.ndim - 1:
        raise ValueError("Softmax along a non-last dimension is not yet supported. "
                         f"Logits was rank {logits.ndim} and dim was {dim}")
    log_result = logits - _log_sum_exp(logits, dim)
    return np.exp(log_result)
