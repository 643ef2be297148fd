"""An `axis` the error model says is "taken as its default, -1, whatever is given" is said as the
fixed axis the student's function reduces over, where that function never reads `axis` and
its reductions name another (blind round 72's b72_09: `z.max(axis = 1)`, the same as -1 on the
2-D inputs that returned values only): report/fixed_axis.py, applied by the grading session."""
from __future__ import annotations

import pytest

from grader.checks.results import FAILED, MISTAKE, CheckResult, ExerciseResult
from grader.report.fixed_axis import fixed_axis
from grader.report.quotes import Source
from grader.report.spelled import finished

DEFAULT = "In `softmax`, `axis` is taken as its default, -1, whatever is given."
PAIRED = ("2 mistakes at once: (1) In `softmax`, an `x` that is not a 2-D matrix is refused. "
          "(2) " + DEFAULT)
ROWS = ("def softmax(z, axis=-1):\n"
        "    z = z - np.expand_dims(z.max(axis = 1), axis=-1)\n"
        "    e = np.exp(z)\n"
        "    return e / np.sum(e, 1, keepdims=True)\n")


def test_an_axis_never_read_is_said_as_the_one_its_reductions_name():
    said = fixed_axis(DEFAULT, Source([ROWS]))
    assert said == ("In `softmax`, `axis` is never read: your code reduces over axis 1 "
                    "(`z.max(axis = 1)`) whatever `axis` is given."), said
    assert fixed_axis(PAIRED, Source([ROWS])).endswith("(2) " + said)


@pytest.mark.parametrize("code", [
    ROWS.replace("z.max(axis = 1)", "z.max(axis=axis)"),  # `axis` read: its default said
    ROWS.replace("axis = 1", "axis = -1").replace("e, 1,", "e, -1,"),  # the default itself
    "def softmax(z, axis=-1):\n    e = np.exp(z - z.max())\n    return e / e.sum()\n",  # none
])
def test_an_axis_read_or_the_default_itself_or_none_named_leaves_the_sentence(code):
    assert fixed_axis(DEFAULT, Source([code])) == DEFAULT
    assert fixed_axis(DEFAULT, None) == DEFAULT


def test_several_fixed_axes_are_said_without_a_number():
    code = ROWS.replace("e, 1,", "e, 0,")
    assert fixed_axis(DEFAULT, Source([code])) == (
        "In `softmax`, `axis` is never read: your code reduces over fixed axes whatever `axis` "
        "is given.")


def test_the_session_says_the_fixed_axis():
    check = CheckResult("random shapes", 2, 0, FAILED, "case 1 of 16", hint=PAIRED,
                        hint_kind=MISTAKE, misconception="op:default:softmax:axis-as-default")
    result = ExerciseResult("stable-softmax", "softmax", "", (check,))
    said = finished(result, Source([ROWS])).checks[0].hint
    assert "its default, -1" not in said and "reduces over axis 1" in said, said


IGNORED = ("In `softmax`, the model solution's `e / np.sum(e, axis=axis, keepdims=True)` is "
           "written `(e.T / np.sum(e, axis=-1)).T`, the transpose trick for the rows of a 2-D "
           "array: the sum ignores `axis` (it is always over the last axis, as if `axis` were "
           "-1), and `.T` reverses every axis of the array, not only the last two.")
MAX_READS_AXIS = ("def softmax(x, axis=-1):\n"
                  "    e = np.exp(x - np.max(x, axis=axis, keepdims=True))\n"
                  "    return (e.T / np.sum(e, axis=-1)).T\n")
NEVER_READS_AXIS = ("def softmax(x, axis=-1):\n"
                    "    return (np.exp(x).T / np.sum(np.exp(x), axis=-1)).T\n")


def test_a_step_that_ignores_axis_is_said_as_axis_never_read_only_where_no_step_reads_it():
    """Blind round 73's b73_03: its max reads `axis`, only its sum ignores it: the step said
    as the sentence has it; a function that never reads `axis` is told so."""
    assert fixed_axis(IGNORED, Source([MAX_READS_AXIS])) == IGNORED
    assert fixed_axis(IGNORED, None) == IGNORED
    said = fixed_axis(IGNORED, Source([NEVER_READS_AXIS]))
    assert said == IGNORED.replace(
        "the sum ignores `axis` (it is always", "`axis` is never read (the sum is always"), said
    assert fixed_axis("2 mistakes at once: (1) x. (2) " + IGNORED,
                      Source([NEVER_READS_AXIS])).endswith(said)
