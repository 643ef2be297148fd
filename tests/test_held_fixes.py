"""A fix quoted that the student's function already holds is said by its meaning, or not at all
(blind round 72's b72_07: "instead of sqrt(d_h) = `math.sqrt(q.shape[-1])`" to a student whose
line is `np.sqrt(q.shape[-1])` on a q taken before the head split): report/held_fixes.py,
applied by the grading session after quotes.attributed."""
from __future__ import annotations

from grader.checks.results import FAILED, MISTAKE, CheckResult, ExerciseResult
from grader.report.held_fixes import unheld_fixes
from grader.report.quotes import Source
from grader.report.spelled import finished

SCALE = ("In `self_attention` (where each head's attention weights are computed), the scores "
         "are divided by sqrt(d), the model width, instead of sqrt(d_h) = "
         "`math.sqrt(q.shape[-1])` (d_h = d // heads).")
WHOLE_WIDTH = ("def self_attention(x, p, heads):\n"
               "    q = x @ p['Wq']\n"
               "    scale = {root}(q.shape[-1])\n"
               "    return heads_of(q, heads) / scale\n")


def source(text: str) -> Source:
    return Source([text])


def test_a_fix_the_function_holds_is_said_by_its_meaning():
    for root in ("np.sqrt", "math.sqrt", "numpy.sqrt"):
        said = unheld_fixes(SCALE, source(WHOLE_WIDTH.format(root=root)))
        assert said == SCALE.replace(" = `math.sqrt(q.shape[-1])`", ""), said
    split = WHOLE_WIDTH.format(root="np.sqrt").replace("q.shape[-1]", "d // heads")
    assert unheld_fixes(SCALE, source(split)) == SCALE  # not theirs: the quote shows the fix
    other = "def other(q):\n    return np.sqrt(q.shape[-1])\n" + WHOLE_WIDTH.format(root="len")
    assert unheld_fixes(SCALE, source(other)) == SCALE  # another function's line is not theirs
    assert unheld_fixes(SCALE, None) == SCALE


def test_a_fix_given_as_code_alone_goes_with_its_clause_and_a_quote_of_theirs_stays():
    code = "def layer_norm(x, g, b, eps):\n    return g * (x - m) / np.sqrt(var + eps) + b\n"
    alone = "In `layer_norm`, eps is added twice, instead of `np.sqrt(var + eps)`."
    assert unheld_fixes(alone, source(code)) == "In `layer_norm`, eps is added twice."
    belongs = "In `layer_norm`, the root is taken where `np.sqrt(var + eps)` belongs twice."
    assert unheld_fixes(belongs, source(code)) == "In `layer_norm`, the root is taken twice."
    theirs = "In `layer_norm`, `np.sqrt(var + eps)` is taken of the unbiased variance."
    assert unheld_fixes(theirs, source(code)) == theirs  # their own code, said as theirs


def test_the_session_says_the_fix_by_its_meaning():
    check = CheckResult("several heads", 3, 0, FAILED, "case 1 of 5", hint=SCALE,
                        hint_kind=MISTAKE, misconception="op:constant:x:scale=sqrt(d)")
    result = ExerciseResult("multi-head-attention", "attention", "", (check,))
    said = finished(result, source(WHOLE_WIDTH.format(root="np.sqrt"))).checks[0].hint
    assert "sqrt(q.shape" not in said and "instead of sqrt(d_h) (d_h = d // heads)" in said, said
