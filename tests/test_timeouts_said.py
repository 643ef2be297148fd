"""A call that ran out of time is never said to be the code's mistake (issue 38: no wrong hint).

Blind round 78's b78_15 was graded with 14 other files at once on a loaded machine: its right
`self_attention`, graded again around the grader's `softmax` (its own is wrong), did not return
within its share of the submission's time, and the regrade's note said "so this failure is in
`self_attention`'s own code", its hint "the mistake there may be what fails here too". A timeout
says nothing of what the code computes: a check whose failure is one is told the time ran out,
and what to do, never a cause. Here the time runs out without load: a `self_attention` that
sleeps only when a stand-in is bound (only a regrade meets it) under a small call timeout, or
under a small whole-submission deadline (a call then gets an eighth of the time left).
"""
from __future__ import annotations

import time
from dataclasses import replace
from types import SimpleNamespace

import pytest
from test_stand_ins import with_replaced

from grader.checks import SubmissionGrading
from grader.checks.dependencies import Dependencies
from grader.checks.results import (
    CHECKLIST,
    FAILED,
    MISTAKE,
    OBSERVATION,
    TIME_LIMIT,
    check_result,
)
from grader.checks.timed_out import TIME_HINT
from grader.worker import StudentWorker
from grader.worker.limits import Limits

TIMED_OUT = ("did not return within", "out of time")  # the worker's words (student_worker.py)
# a wrong `softmax` (a sum over the whole array: wrong wherever there are two rows) and a right
# `self_attention` that, once it called `softmax`, sleeps where that is not its own: a
# stand-in, bound by a regrade (a regrade's failure before any stand-in call is the first verdict)
SLEEPS_IN_A_REGRADE = '''
    def softmax(x, axis=-1):
        e = np.exp(x)
        return e / e.sum()


    def self_attention(x, p, heads, causal=False):
        T, d = x.shape
        if d % heads:
            raise ValueError(f"width {d} is not divisible by {heads} heads")
        d_h = d // heads

        def split(y):
            return y.reshape(T, heads, d_h).transpose(1, 0, 2)

        q, k, v = (split(x @ p[f"W{n}"] + p[f"b{n}"]) for n in "qkv")
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_h)
        if causal:
            scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
        out = softmax(scores, axis=-1) @ v
        if getattr(softmax, "__globals__", None) is not globals():
            __import__("time").sleep(30)
        return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
    '''
ATTENTION = ("stable-softmax", "no-causal-mask", "multi-head-attention")


def graded_in_time(path, catalogue, zygote, limits: Limits, seconds: float | None) -> dict:
    """exercise id -> its result, of the attention exercises, under `limits` and, when
    `seconds`, a whole-submission deadline that far ahead."""
    deadline = None if seconds is None else time.monotonic() + seconds
    with StudentWorker(path, limits=limits, zygote=zygote, deadline=deadline) as worker:
        grading = SubmissionGrading(worker, catalogue=catalogue)
        return {e.id: grading.exercise(e) for e in catalogue if e.id in ATTENTION}


@pytest.mark.parametrize("limits, seconds", [
    (Limits(call_timeout=1.0, retry_timeout=0.5), None),  # the call's own limit
    (Limits(), 40.0),  # an eighth of what is left of the submission's time: about 5 s
], ids=["call timeout", "submission deadline"])
def test_a_regrade_that_ran_out_of_time_names_no_cause(tmp_path, catalogue, zygote, limits,
                                                       seconds):
    path = with_replaced(tmp_path, SLEEPS_IN_A_REGRADE)
    results = graded_in_time(path, catalogue, zygote, limits, seconds)
    assert results["stable-softmax"].score < results["stable-softmax"].max_score
    failed = [c for e in ("no-causal-mask", "multi-head-attention")
              for c in results[e].checks if not c.passed]
    timed_out = [c for c in failed if any(words in c.message for words in TIMED_OUT)]
    # the case b78_15 met: graded again around the grader's `softmax`, out of time there
    assert any(c.stand_ins == ("softmax",) for c in timed_out), [c.message for c in failed]
    for check in timed_out:
        assert "this failure is in" not in check.message and "own code" not in check.message
        assert check.hint_kind not in (MISTAKE, OBSERVATION) and check.misconception is None
        assert check.hint and "time" in check.hint and "fix it there first" not in check.hint
        assert "may be what fails here" not in check.hint


def _check(name: str, function: str, hint: str | None = None):
    return SimpleNamespace(name=name, function=function, regradable=True, points=1.0,
                           hidden=False, visibility="visible", hint=hint,
                           names_read=lambda: (function,), names_tested=lambda: (function,))


@pytest.mark.parametrize("there_in_time", [True, False], ids=["wrong there", "out of time there"])
def test_a_check_is_sent_to_fix_its_function_elsewhere_only_where_it_failed_in_time(
        there_in_time):
    """A check of `f` told nothing but its checklist is sent to the exercise that tests `f`
    more, where `f` also loses points ("fix it there first, as the mistake there may be what
    fails here too"), only where a failure there is not a call that ran out of time: a timeout
    shows no mistake to fix (under load, b78_15's multi-head-attention could have been the one
    that ran out of time)."""
    checklist = "Mask the scores above the diagonal before the softmax."
    here = _check("mask", "f", checklist)
    there = [_check("one head", "f"), _check("two heads", "f")]
    exercises = {"mask": SimpleNamespace(path="mask", id="mask-exercise", checks=[here]),
                 "heads": SimpleNamespace(path="heads", id="heads-exercise", checks=there)}

    def grade(exercise, check, stand_ins, recorded_only=False):
        if check is here:
            return check_result(check, FAILED, "wrong", checklist), None, frozenset(), ""
        failed = check_result(check, FAILED, "wrong" if there_in_time else "did not return")
        return replace(failed, timed_out=not there_in_time), None, frozenset(), ""

    graded = [(exercises["mask"], here)] + [(exercises["heads"], c) for c in there]
    result = Dependencies(graded, grade).result(exercises["mask"], here)
    if there_in_time:
        assert "also loses points in heads-exercise: fix it there first" in result.hint
    else:
        assert result.hint == checklist and result.hint_kind == CHECKLIST


LOOPS = '''
    def self_attention(x, p, heads, causal=False):
        while True:
            pass
    '''


def test_every_check_of_a_function_that_never_returns_says_so_a_property_too(
        tmp_path, catalogue, zygote):
    """A property check whose call of the function ran out of time said "fix where it failed
    (the traceback says where ...)": there is no traceback, and nothing failed but the time.
    Every failed check of a function that never returns gets the time-limit hint instead."""
    path = with_replaced(tmp_path, LOOPS)
    limits = Limits(call_timeout=1.0, retry_timeout=0.5)
    results = graded_in_time(path, catalogue, zygote, limits, None)
    spec = next(e for e in catalogue if e.id == "no-causal-mask")
    properties = {c.name for c in spec.checks if getattr(c, "property_name", None)
                  and "self_attention" in c.names_read()}
    failed = {c.name: c for c in results["no-causal-mask"].checks if not c.passed}
    assert properties and properties <= set(failed)
    for check in failed.values():
        assert check.hint_kind == TIME_LIMIT and check.hint == TIME_HINT, check.name
