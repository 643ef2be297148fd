"""Blind round 54 (b54_04, issue 38): NNlib.jl's `softmax(x; dims = 1)` (docstring and method as
stored in AtelierArith/DocStrBankExperimental.jl `NNlib/0.9/.../original.md`: max-subtracted exp,
`./ sum(...; dims)`), ported by a Julia user, with Julia's `^` kept for the square.

Mistakes:
1. softmax's default axis is 0 (Julia's `dims = 1`, the first axis) instead of -1. 2-D and
   batched input called without `axis` is normalised down the columns ([[0,1,2],[1000,1001,999]]
   -> [[0,0,0],[1,1,1]]). 1-D input and any explicit `axis` are right; self_attention passes
   axis=-1 so it is unaffected.
2. attention_scores returns `num_tokens ^ 2` (Julia's power operator, bitwise XOR in Python):
   197 -> 199, 5 -> 7, 50 -> 48, 1 -> 3 instead of T**2. Wrong for every T.

Grader: at blind time (5f4a3d53) both named. Mistake 1 on three stable-softmax checks: "In
`softmax`, `axis` defaults to 0 (`axis=0` in the signature): a call that leaves it out gets
axis=0, where the lecture's default is -1; a call that names it is right." Mistake 2 on "the
lecture's sequences" and the hidden "random lengths": "In `attention_scores`, the lecture's
`T * T` is written `T ^ 2` (MATLAB's power operator): in Python `^` is bitwise XOR, so this
computes `T` XOR 2, not the square of `T`. Write `T ** 2` (or `T * T`)", where the student wrote
`num_tokens ^ 2`; "a smaller patch versus a larger one" carries a [checklist].
Now named under the same names, the caret quoted in the student's names (report/spelled.py):
"In `attention_scores`, `num_tokens * num_tokens` is written `num_tokens ^ 2` (MATLAB's power
operator): in Python `^` is bitwise XOR, so this computes `num_tokens` XOR 2, not the square of
`num_tokens`. Write `num_tokens ** 2` (or `num_tokens * num_tokens`)."
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'attention-cost': 'op:caret:attention_scores:T-squared-as-xor',
          'stable-softmax': 'op:default_flipped:softmax:axis-defaults-0'}


def attention_scores(num_tokens):
    """Scores in one attention map of one head: T^2."""
    return num_tokens ^ 2


def softmax(x, axis=0):
    """softmax(x; dims = 1) = exp.(x) ./ sum(exp.(x), dims = dims), with the max subtracted first."""
    max_ = np.max(x, axis=axis, keepdims=True)
    out = np.exp(x - max_)
    out /= np.sum(out, axis=axis, keepdims=True)
    return out
