"""A triangle one diagonal off told with "Fix this first ... these cases cannot tell" (the error
model's UNSURE_NOTE: a finite fill the cases cannot tell from a -10000 one) is told with
"Fixing this is enough" (QUIET_NOTE) where the student's code fills with its dtype's minimum,
whose exp underflows to 0 as -inf's does on every row with a visible key (blind round 73's
b73_14: `np.finfo(attn_scores.dtype).min`): report/minimum_fill.py, applied by the session."""
from __future__ import annotations

import pytest

from grader.checks.results import FAILED, MISTAKE, CheckResult, ExerciseResult
from grader.reference import error_model as em
from grader.report.minimum_fill import minimum_fill
from grader.report.quotes import Source
from grader.report.spelled import finished

SLIP = ("In `self_attention`, `np.tril(np.ones((T, T), dtype=bool))` is one diagonal off: "
        "write k=0 there (not k=-1).")
CODE = ("def self_attention(x, p, heads, causal=False):\n"
        "    scores = x @ x.T\n"
        "    if causal:\n"
        "        mask = np.tril(np.ones(scores.shape, dtype=bool), k=-1)\n"
        "        scores = np.where(mask, scores, FILL)\n"
        "    return softmax(scores) @ x\n")


@pytest.mark.parametrize("fill", ["np.finfo(scores.dtype).min", "-np.finfo(np.float64).max"])
def test_a_dtype_minimum_fill_is_told_as_enough(fill):
    code = Source([CODE.replace("FILL", fill)])
    assert minimum_fill(SLIP + em.UNSURE_NOTE, code) == SLIP + em.QUIET_NOTE


@pytest.mark.parametrize("fill", ["-1e6", "-10000", "float('-1e9')", "-10 ** 9",
                                  "np.finfo(np.float16).min",  # -65504: scores of 1e5 leak
                                  "np.finfo(scores.dtype).min if False else -1e4"])
def test_a_finite_fill_of_another_size_keeps_the_caveat(fill):
    hint = SLIP + em.UNSURE_NOTE
    assert minimum_fill(hint, Source([CODE.replace("FILL", fill)])) == hint
    assert minimum_fill(hint, None) == hint


def test_a_minimum_fill_in_a_helper_of_the_function_is_read():
    helper = ("def masked(scores, mask):\n"
              "    return np.where(mask, scores, np.finfo(scores.dtype).min)\n")
    code = Source([helper, CODE.replace("np.where(mask, scores, FILL)", "masked(scores, mask)")])
    assert minimum_fill(SLIP + em.UNSURE_NOTE, code) == SLIP + em.QUIET_NOTE


def test_the_session_tells_a_minimum_fill_as_enough():
    check = CheckResult("causal", 2, 0, FAILED, "case 4 of 4", hint=SLIP + em.UNSURE_NOTE,
                        hint_kind=MISTAKE, misconception="op:diagonal:self_attention/x:tri.k=-1")
    result = ExerciseResult("no-causal-mask", "self_attention", "", (check,))
    code = Source([CODE.replace("FILL", "np.finfo(scores.dtype).min")])
    said = finished(result, code).checks[0].hint
    assert said.endswith(em.QUIET_NOTE) and em.UNSURE_NOTE not in said, said
