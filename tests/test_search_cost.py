"""What the error model's search costs a class (issue 38's speed target): it runs only for a
check's final verdict, never for a first verdict that the regrade around broken helpers
replaces (dependencies.py), and once for every submission whose check returned the same values
(checks/kinds/mistakes.py `SEARCHED`)."""
from __future__ import annotations

import numpy as np
import pytest
from buggy_submissions import build_submission

from grader.checks import SubmissionGrading
from grader.checks.cases import CasePlans
from grader.checks.kinds import CallCheck, mistakes
from grader.checks.results import FAILED, PASSED, CheckResult
from grader.reference import error_model
from grader.worker import StudentWorker
from grader.worker.outcomes import CallOutcome

from conftest import SUBMISSIONS


@pytest.fixture
def searches(monkeypatch):
    """The reference functions searched, one entry a search; no verdict remembered from before."""
    searched, search = [], error_model.search

    def counted(function, *args, **kwargs):
        searched.append(function.__name__)
        return search(function, *args, **kwargs)
    monkeypatch.setattr(error_model, "search", counted)
    monkeypatch.setattr(mistakes, "SEARCHED", {})
    return searched


def test_the_search_runs_for_final_verdicts_only(searches, tmp_path, catalogue, zygote):
    """softmax over the wrong axis (a mistake the error model names) fails its callers' checks
    too, until they are graded again with the grader's softmax standing in: those first verdicts
    are not searched."""
    path = build_submission(SUBMISSIONS / "buggy" / "softmax_wrong_axis.py", tmp_path)
    with StudentWorker(path, zygote=zygote) as worker:
        grading = SubmissionGrading(worker, catalogue=catalogue)
        finals = [(e, c, r) for e in catalogue
                  for c, r in zip([c for c in e.checks], grading.exercise(e).checks, strict=True)]
        replaced = [c for e, c, r in finals
                    if r.status == PASSED and grading.dependencies.first(e, c).status == FAILED]
    assert replaced, "no first verdict was replaced by a regrade: the test shows nothing"
    searchable = [c.reference_name for _, c, r in finals if isinstance(c, CallCheck)
                  and r.status == FAILED and not c.integration]
    assert searches and len(searches) <= len(searchable)
    assert set(searches) <= set(searchable)
    assert "softmax" in searches


def softmax_check(catalogue):
    exercise = next(e for e in catalogue if e.id == "stable-softmax")
    check = next(c for c in exercise.checks if isinstance(c, CallCheck)
                 and c.reference_name == "softmax" and not c.hidden)
    return exercise, check


def wrong_axis(x, axis=-1):
    e = np.exp(x - x.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)


def graded_values(catalogue, student):
    """(check, (planned case, outcome) pairs with `student`'s values, the first failing one)."""
    exercise, check = softmax_check(catalogue)
    ran = []
    for planned in CasePlans().cases(exercise, check):
        value = student(*planned.args, **planned.kwargs)
        ran.append((planned, CallOutcome("ok", value=value)))
        if not np.allclose(value, planned.expectation()[0]):
            return check, ran, len(ran) - 1
    raise AssertionError("the student's softmax passed every case")


def test_one_search_for_every_submission_that_returned_the_same_values(searches, catalogue):
    check, ran, failing = graded_values(catalogue, wrong_axis)
    failed = CheckResult(check.name, 1, 0, FAILED, "m", hint="the checklist")
    first = mistakes.generated(failed, check, ran, failing)
    again = mistakes.generated(failed, check, [(p, CallOutcome("ok", value=np.array(o.value)))
                                               for p, o in ran], failing)  # a copy: equal values
    assert first == again and first.misconception and first.misconception.startswith("op:")
    assert searches == ["softmax"]

    def sums_over_all(x, axis=-1):
        e = np.exp(x - x.max())
        return e / e.sum()
    check, other, failing = graded_values(catalogue, sums_over_all)
    mistakes.generated(failed, check, other, failing)
    assert searches == ["softmax", "softmax"]  # other values: searched


def test_a_search_key_holds_every_value_exactly():
    def key(got, how=None, failing=0):
        call = error_model.Call((np.arange(4.0),), {"axis": -1}, got, np.zeros(4))
        return mistakes.search_key(wrong_axis, [call], failing, how, frozenset())

    assert key(np.ones(4)) == key(np.ones(4))
    assert key(np.ones(4)) != key(np.ones(4) + 1e-12)
    assert key(np.ones(4)) != key(np.ones(4, dtype=np.float32))
    assert key(np.ones(4)) != key(np.ones((1, 4)))
    assert key([1.0, 2.0]) != key((1.0, 2.0)) != key(np.array([1.0, 2.0]))
    assert key(np.ones(4)) != key(np.ones(4), failing=1)
    assert key(np.ones(4)) != key(np.ones(4), how="count")
    assert key(np.array([object()])) is None and key(object()) is None
