"""Blind round 14 (b14_09, issue 38): softmax_1 from Evan Miller's "Attention Is Off By One"
(2023), exp(x_i) / (1 + sum_j exp(x_j)), written stably.

Mistakes:
1. softmax adds 1 to the denominator (an implicit extra logit 0): exp(x - m) / (exp(-m) +
   sum exp(x - m)) with m = max(max(x), 0), so values along the axis sum to less than 1.
   Nearly right when the largest input is large. (self_attention inherits it.)
2. ANSWERS["positions"] = "permutation equivariance", the phrase, not the option key
   "permutation".

Grader: at blind time and now, the +1 is observed ("times 0.9679, everywhere: one scale factor
is off" (scaled); "except in 1 of 2 rows (row 1)" (some_rows_wrong), and the property's
"between 0 and 1, summing to 1" checklist); the answer is told "is not one of the options
'permutation', ..." with no misconception. Nothing named.
Since session 14 both are named: the answer (answer_phrase_not_key, the option 'permutation' among
other words) and the softmax (terms.extra_zero_logit: exp(-max) added to the shifted ratio's
denominator): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:extra_zero_logit:softmax:denominator-plus-exp-minus-shift',
          'why-positions': 'answer_phrase_not_key'}


def softmax(x, axis=-1):
    """softmax_1 ("Attention Is Off By One", Evan Miller): exp(x_i) / (1 + sum_j exp(x_j)).
    Stable: shift by m = max(max(x), 0); the 1 becomes exp(-m)."""
    x = np.asarray(x, dtype=float)
    m = np.maximum(np.max(x, axis=axis, keepdims=True), 0.0)
    e = np.exp(x - m)
    return e / (np.exp(-m) + np.sum(e, axis=axis, keepdims=True))


ANSWERS["positions"] = "permutation equivariance"
