"""Blind round 55 (b55_05, issue 38): softmax ported from a `StableSoftmax` (find_string id
4634440452: `np.exp(Input - np.max(Input)) / np.sum(...)`), the student adding `axis` to the sum
only; attention_scores written by the student around the [CLS] row.

Mistakes:
1. softmax subtracts the global `np.max(x)` (no axis). Where slices along `axis` lie more than
   about 745 apart (a row near 1000 beside a row near 0, or rows at +500 / -500), the lower
   slice underflows to 0/0 and comes out nan. Batched inputs near 0, and 1-D inputs near 1000,
   are right.
2. attention_scores adds [CLS] again, `T = num_tokens + 1; return T * T`: 197 gives 39204, not
   38809. Wrong on every input.

Grader: at blind time (cdc1de9a) and now, both named. Mistake 1 on stable-softmax's "no overflow
near 1000" ("In `softmax`, your values are the model solution's with `np.max(x)` in place of
`np.max(x, axis=axis, keepdims=True)`: over the whole array instead of the axis `axis` it is
given."). Mistake 2 on attention-cost's "the lecture's sequences" and its hidden check ("In
`attention_scores`, `T * T` is computed as `(T + 1) * (T + 1)`, with `T` one too many (is
something counted twice?)."); the patch-size comparison tells its checklist. Every mistake named,
so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'attention-cost': 'op:count:attention_scores:T-plus-1',
          'stable-softmax': 'op:axis:softmax:max.axis=None'}


def attention_scores(num_tokens):
    """Scores in one attention map of one head: every token against every token."""
    T = num_tokens + 1
    return T * T


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`."""
    return np.exp(x - np.max(x)) / np.sum(np.exp(x - np.max(x)), axis=axis, keepdims=True)
