"""A part of a pair that changes none of the values given the other part is not told as a
mistake (blind round 68's b68_05): a softmax with no max that sums over axis 0 was told "One
slip, made at 2 places: (1) ... `np.max(x, axis=axis, keepdims=True)` taken over axis 0 (2) ...
the sum over axis 0", a max the code does not have: once the sum is over axis 0, the max's axis
changes nothing, so the cases cannot tell what is there. The sum is told, and the max's place
as one the cases cannot tell (error_model/quiet_parts.py)."""
from __future__ import annotations

import numpy as np
import pytest
from buggy_submissions import build_submission

from grader.driver import Driver
from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.settings import GraderSettings

from conftest import EXERCISES

NO_MAX_OVER_COLUMNS = '''
def softmax(x, axis=-1):
    e = np.exp(np.asarray(x, dtype=float))
    return e / np.sum(e, axis=0)
'''
SUM = "`np.sum(e, axis=axis, keepdims=True)` taken over axis 0"
MAX_CLAIM = "`np.max(x, axis=axis, keepdims=True)` taken over"


def _same(a, b):
    return np.shape(a) == np.shape(b) and np.allclose(a, b, rtol=2e-4, atol=1e-6)


def test_the_max_a_sum_over_axis_0_makes_idle_is_not_told():
    softmax = REFERENCE["softmax"]

    def student(x, axis=-1):
        e = np.exp(np.asarray(x, dtype=float))
        return e / np.sum(e, axis=0)

    cases = [((np.array([1.0, 2, 3]),), {}), ((np.array([[1.0, 2, 3], [2, 4, 8], [0, 0, 5]]),), {}),
             ((np.array([[1.0, 2, 3], [0, 0, 0]]),), {}),
             ((np.array([[1.0, 2], [3, 5], [0, -1]]),), {"axis": 0})]
    calls = [em.Call(a, k, student(*a, **k), softmax(*a, **k)) for a, k in cases]
    found = em.search(softmax, calls, 1, _same)
    assert found is not None and found.name.startswith("op:axis:softmax:sum.axis=0"), found
    assert SUM in found.sentence and MAX_CLAIM not in found.sentence, found.sentence
    assert "may also differ at the model solution's `np.max(" in found.sentence


@pytest.fixture(scope="module")
def driver():
    driver = Driver(GraderSettings(None, EXERCISES))
    yield driver
    driver.close()


def test_a_softmax_with_no_max_is_never_told_of_its_maxs_axis(driver, tmp_path):
    path = tmp_path / "snippet.py"
    path.write_text('"""No max, a sum over axis 0."""\nEXPECT = {"stable-softmax": None}\n'
                    + NO_MAX_OVER_COLUMNS)
    report = driver.grade(build_submission(path, tmp_path)).report
    result = next(e for e in report.exercises if e.id == "stable-softmax")
    hints = [c.hint for c in result.checks if not c.passed and c.misconception]
    assert hints and any(SUM in h for h in hints)
    assert all(MAX_CLAIM not in h for h in hints), hints
