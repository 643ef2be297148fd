"""Blind round 65 (b65_15, issue 38): softmax ported from OliverKandir/branch-predictor-simplescalar
`src/5.c` (a C "numerically stable softmax": subtract the row max, exponentiate, clamp the
exponentials, normalise), vectorised over the other axes with np.moveaxis.

Mistakes:
20. softmax (lines 127-128 of the file as delivered): the exponentials clamped to [1e-5, 1e3], as
    the C file does, `np.where(expv > 1e3, 1e3, expv)` then `np.where(expv < 1e-5, 1e-5, expv)`.
    Any entry more than about 11.5 below its row max gets weight 1e-5 / sum instead of about 0
    (`[[800, 0], [0, 800]]` gives 9.9999e-06 off the diagonal); with causal=True the -inf entries
    become 1e-5 too. The ceiling changes nothing (the exps are at most 1).

Grader: at blind time (d3fd340b) 106/110, nothing named: stable-softmax's overflow check gave the
checklist hint (subtract the max) and its hidden check the observation "returns the expected
values except in 1 of 4 rows". Now named: "In `softmax`, `e` is clamped to a floor of 1e-05,
`np.maximum(np.exp(x - np.max(x, axis=axis, keepdims=True)), 1e-05)` ...".
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:clamped:softmax:e_floor=1e-05'}


def softmax(x, axis=-1):
    """softmax_stable.c, row by row along `axis` (vectorised over the other axes)."""
    logits = np.moveaxis(np.asarray(x, dtype=float), axis, -1)

    max_val = np.max(logits, axis=-1, keepdims=True)

    expv = np.exp(logits - max_val)
    expv = np.where(expv > 1e3, 1e3, expv)
    expv = np.where(expv < 1e-5, 1e-5, expv)
    sum_ = np.sum(expv, axis=-1, keepdims=True)

    probs = expv / sum_
    return np.moveaxis(probs, -1, axis)
