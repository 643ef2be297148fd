"""A check whose failing call ran out of time is told so and what to do, never a cause.

A call that does not return within its limit (its own call timeout, or its share of what is
left of the submission's time: worker/student_worker.py) says nothing of what the code
computes: the code may loop, or the grading machine may have been busy. Blind round 78's
b78_15, graded with 14 other files at once on two cores: its right `self_attention`, graded
again around the grader's `softmax`, did not return within 7.5 s, and was told "so this failure
is in `self_attention`'s own code" and "the mistake there may be what fails here too". So a
check whose failing call timed out (`CheckResult.timed_out`) names no mistake and makes no
observation of the code (issue 38: never a wrong hint): its hint is TIME_HINT, a regrade's note
says only which stand-ins it ran with (regrade_notes.py), and no other check is sent to its
exercise to fix the function first (dependencies.py).
"""
from __future__ import annotations

from dataclasses import replace

from .results import FAILED, TIME_LIMIT, CheckResult

TIME_HINT = ("A call ran out of the time the grader gives it here, which says nothing of what "
             "your code computes. If it returns quickly on your machine, the grader ran short "
             "of time (a busy machine, or the submission's time running low): grade again, and "
             "tell your instructor if it happens again. If it does not return on your machine "
             "either, look for a loop that never ends.")


def marked(result: CheckResult | None, outcome) -> CheckResult | None:
    """`result`, a check's verdict on one call's `outcome` (a worker CallOutcome), marked
    `timed_out` when it failed because that call ran out of time; as it is otherwise."""
    if result is None or result.status != FAILED or outcome.status != "timeout":
        return result
    return replace(result, timed_out=True)


def deferred(result: CheckResult, outcome, explain) -> tuple:
    """(`result`, `explain`: what explains it) of a check that failed on `outcome`; where that
    call ran out of time, (`result` marked, None): a timeout has nothing to explain."""
    result = marked(result, outcome)
    return (result, None) if result.timed_out else (result, explain)


def told(result: CheckResult) -> CheckResult:
    """`result` as a check that ran out of time is told: TIME_HINT in place of any other hint,
    no mistake named, no broken function blamed (`blames`); as it is when it did not."""
    if result.status != FAILED or not result.timed_out:
        return result
    return replace(result, hint=TIME_HINT, hint_kind=TIME_LIMIT, misconception=None,
                   raised=None, blames=())
