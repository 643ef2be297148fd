"""A function that writes into an array it was given loses the points of its own checks, with a
line that says so, and only those: its callers are graded around it (issue 38, item 5)."""
from __future__ import annotations

import pytest
from buggy_submissions import affected_exercises, build_submission

from grader.checks.kinds.in_place import IN_PLACE as NAMED
from grader.checks.results import MISTAKE
from grader.driver import Driver
from grader.settings import GraderSettings

from conftest import EXERCISES, SOLUTION, SUBMISSIONS

IN_PLACE = {"layer_norm_in_place.py": ("layer-norm", "`layer_norm` changed `x` in place"),
            "softmax_in_place.py": ("stable-softmax", "`softmax` changed `x` in place")}


@pytest.fixture(scope="module")
def driver():
    driver = Driver(GraderSettings(None, EXERCISES))
    yield driver
    driver.close()


def scores(report) -> dict[str, tuple[float, float]]:
    return {e.id: (e.score, e.max_score) for e in report.exercises}


@pytest.mark.parametrize("name", sorted(IN_PLACE))
def test_a_function_that_changes_its_input_loses_its_own_points_and_is_told(driver, name,
                                                                           tmp_path):
    exercise, said = IN_PLACE[name]
    snippet = SUBMISSIONS / "in_place" / name
    report = driver.grade(build_submission(snippet, tmp_path)).report
    lost = {i: s for i, s in scores(report).items() if s[0] < s[1]}
    affected = affected_exercises(snippet, driver.catalogue.exercises)
    assert exercise in lost and set(lost) <= affected, lost
    result = next(e for e in report.exercises if e.id == exercise)
    messages = [c.message for c in result.checks if not c.passed]
    assert any(said in message for message in messages), messages
    told = {c.name: (c.message, c.hint) for c in result.checks if not c.passed}
    assert all("in place" in m and "in place" in h for m, h in told.values()), told
    # the worker saw the write: a named mistake, not a guess, titled in the class report
    assert {(c.misconception, c.hint_kind) for c in result.checks if not c.passed} == {
        (NAMED, MISTAKE)}


def test_the_solution_changes_no_input(driver):
    report = driver.grade(SOLUTION).report
    assert all(score == most for score, most in scores(report).values())


def test_a_wrong_value_from_a_function_that_also_changes_its_input_says_both(driver, tmp_path):
    """timm's block with non-inverted drop path ported with `x +=`: the values are off by the
    keep probability, and the caller's `x` is overwritten too; the case says both."""
    snippet = tmp_path / "drop_path_in_place.py"
    snippet.write_text('''"""Residuals added in place, each branch times a keep probability."""
EXPECT = {"encoder-block": None}


def encoder_block(x, p, heads):
    x += 0.9 * self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    x += 0.9 * (gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"])
    return x
''')
    report = driver.grade(build_submission(snippet, tmp_path)).report
    result = next(e for e in report.exercises if e.id == "encoder-block")
    visible = [c for c in result.checks if not c.passed and "hidden" not in c.message]
    assert visible and all("first difference" in c.message for c in visible)
    assert all("`encoder_block` also changed `x` in place" in c.message for c in visible)


def test_a_write_in_place_is_told_where_the_verdict_is_another_case(driver, tmp_path):
    """A softmax that refuses 1-D input and writes into a 2-D one: the first failing case
    raises, a later call of the same request changed `x`; the check says both, what the worker
    saw after that call (the array holds the value returned), and a check whose calls changed
    nothing says no write."""
    snippet = tmp_path / "refuses_vectors_in_place.py"
    snippet.write_text('''"""Only matrices; the result computed into the caller's array."""
EXPECT = {"stable-softmax": None}


def softmax(x, axis=-1):
    if x.ndim != 2:
        raise ValueError("a matrix, please")
    x -= x.max(axis=axis, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=axis, keepdims=True)
    return x
''')
    report = driver.grade(build_submission(snippet, tmp_path)).report
    result = next(e for e in report.exercises if e.id == "stable-softmax")
    failed = [c for c in result.checks if not c.passed]
    told = [c for c in failed if "`softmax` also writes into the array it is given" in c.message]
    assert told, [c.message for c in failed]
    assert all("`x` holds the value it returned" in c.message for c in told), told
    assert all(c.misconception != NAMED for c in told)  # the verdict stays the failing case's


def test_no_write_is_told_where_no_call_changed_an_array(driver, tmp_path):
    snippet = tmp_path / "refuses_vectors.py"
    snippet.write_text('''"""Only matrices, computed into a new array."""
EXPECT = {"stable-softmax": None}


def softmax(x, axis=-1):
    if x.ndim != 2:
        raise ValueError("a matrix, please")
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
''')
    report = driver.grade(build_submission(snippet, tmp_path)).report
    result = next(e for e in report.exercises if e.id == "stable-softmax")
    failed = [c for c in result.checks if not c.passed]
    assert failed and not any("writes into" in c.message for c in failed)
