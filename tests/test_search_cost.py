"""What the error model's search costs a class (issue 38's speed target): it runs only for a
check's final verdict, never for a first verdict that the regrade around broken helpers
replaces (dependencies.py), and once for every submission whose check returned the same values
(checks/kinds/mistakes.py `SEARCHED`), and each rewrite's value on the same inputs once a process
(reference/error_model/runs.py)."""
from __future__ import annotations

import numpy as np
import pytest
from buggy_submissions import build_submission

from grader.checks import SubmissionGrading
from grader.checks.cases import CasePlans
from grader.checks.compare import Compare, agrees
from grader.checks.kinds import CallCheck, mistakes
from grader.checks.results import FAILED, PASSED, CheckResult
from grader.reference import REFERENCE, error_model
from grader.reference.error_model import runs
from grader.reference.error_model.tree import compile_with
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


def _softmax_calls(student, seed: int):
    rng = np.random.default_rng(seed)
    softmax = error_model.model(REFERENCE_SOFTMAX)[0].function
    cases = [(rng.normal(size=(3, 4)),), (rng.normal(size=(2, 5)),), (np.array([1.0, 2.0]),)]
    return [error_model.Call(a, {}, student(*a), softmax(*a)) for a in cases]


REFERENCE_SOFTMAX = REFERENCE["softmax"]


def _same(value, target) -> bool:
    return agrees(value, target, Compare("allclose", rtol=1e-5, atol=1e-6), equal_nan=True)


def _sum_over_all(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum()


def _no_max(x, axis=-1):
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True) * 1.5  # no operator makes it: nothing found


def test_a_rewrites_value_on_the_same_inputs_is_computed_once_a_process(monkeypatch):
    """A class's students fail the same cases: the second search on the same inputs runs and
    compiles no rewrite again, and names what a first search would (runs.py)."""
    root = error_model.model(REFERENCE_SOFTMAX, frozenset())[0]  # the search's own (the same
    root.values.clear()                                       # arguments: the same cache entry)
    root.rewritten.clear()
    alone = error_model.search(REFERENCE_SOFTMAX, _softmax_calls(_sum_over_all, 1), 0, _same)
    assert alone.name == "op:axis:softmax:sum.axis=None"
    root.values.clear()
    root.rewritten.clear()
    compiled = []
    monkeypatch.setattr(runs, "compile_with", lambda *a: compiled.append(a) or compile_with(*a))
    assert error_model.search(REFERENCE_SOFTMAX, _softmax_calls(_no_max, 1), 0, _same) is None
    first = len(compiled)
    assert first > 10
    again = error_model.search(REFERENCE_SOFTMAX, _softmax_calls(_sum_over_all, 1), 0, _same)
    assert again == alone
    assert len(compiled) == first  # every single's value on these inputs was known
    other = error_model.search(REFERENCE_SOFTMAX, _softmax_calls(_sum_over_all, 2), 0, _same)
    assert other == alone  # other inputs: computed, same name


def test_inputs_are_looked_up_by_type_shape_and_bytes_and_plain_data_only():
    x = np.arange(6.0).reshape(2, 3)
    assert runs.inputs_key((x,), {}) == runs.inputs_key((x.copy(),), {})
    different = [((x.astype(np.float32),), {}), ((x.reshape(3, 2),), {}), ((x + 1e-12,), {}),
                 ((x, 1), {}), ((x, 1.0), {}), ((x, True), {}), ((x,), {"axis": 1}),
                 ((x,), {"dim": 1}), (([x],), {}), ((x.T,), {})]
    keys = {runs.inputs_key(*call) for call in different} | {runs.inputs_key((x,), {})}
    assert len(keys) == len(different) + 1
    assert runs.inputs_key((np.array([object()]),), {}) is None
    assert runs.inputs_key((x, object()), {}) is None


def test_the_values_kept_are_bounded(monkeypatch):
    root, singles = error_model.model(REFERENCE_SOFTMAX)
    root.values.clear()
    monkeypatch.setitem(runs.kept, "elements", 0)
    monkeypatch.setitem(runs.kept, "values", 0)
    monkeypatch.setattr(runs, "KEPT_ELEMENTS", 25)
    calls = _softmax_calls(_sum_over_all, 3)
    for edit in singles[:5]:
        for call in calls:
            runs.run(root, [edit], call, copies=True)
    assert 0 < runs.kept["elements"] <= 25
    assert 0 < len(root.values) < 15
    root.values.clear()
    monkeypatch.setitem(runs.kept, "values", 0)
    monkeypatch.setattr(runs, "KEPT_ELEMENTS", 10**9)
    monkeypatch.setattr(runs, "KEPT_VALUES", 3)  # the count is bounded too (raises, counts)
    for edit in singles[:5]:
        for call in calls:
            runs.run(root, [edit], call, copies=True)
    assert len(root.values) == runs.kept["values"] == 3
    root.values.clear()


def test_a_kept_raise_keeps_its_type_and_message_and_no_frames(monkeypatch):
    # the process's bounds with room left, whatever the tests before it in this process kept
    monkeypatch.setitem(runs.kept, "values", 0)
    monkeypatch.setitem(runs.kept, "elements", 0)
    root, singles = error_model.model(REFERENCE_SOFTMAX)
    call = error_model.Call((np.ones(3),), {"axis": 1}, None, None)  # axis 1 of a 1-D array
    first = runs.run(root, [singles[0]], call, copies=True)
    second = runs.run(root, [singles[0]], call, copies=True)
    assert first[0] is False and second is first
    assert type(first[1]).__name__ == "AxisError" and "axis 1" in str(first[1])
    assert first[1].__traceback__ is None
