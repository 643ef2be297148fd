"""A multiple-choice answer that reads as no option says why when the reason is in what the
student wrote (checks/kinds/answer.py, issue 38): an option spelt another way, an option's words
around its key, the answer under a misspelt key. Each is a named mistake; an answer that names
no option, or two, or denies one ('not cls'), gets no cause."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from grader import load_specs
from grader.checks.kinds.answer import MISPLACED, PHRASE, SPELT, AnswerCheck
from grader.checks.results import MISTAKE, NOT_IMPLEMENTED

from conftest import EXERCISES


@pytest.fixture(scope="module")
def positions():
    exercises, errors = load_specs(EXERCISES)
    assert not errors
    return next((e, c) for e in exercises for c in e.checks
                if isinstance(c, AnswerCheck) and c.key == "positions")


def _graded(positions, answers: dict):
    exercise, check = positions
    worker = SimpleNamespace(get=lambda name: SimpleNamespace(status="ok", value=answers,
                                                              message=""))
    return check.grade(exercise, worker, plans=None)


@pytest.mark.parametrize("written, slip, option", [
    ("Permu-tation", SPELT, "permutation"),
    ("re_solution", SPELT, "resolution"),
    ("permutation equivariance", PHRASE, "permutation"),
    ("the CLS token", PHRASE, "cls"),
    ("res olution (larger images)", PHRASE, "resolution"),
])
def test_an_option_written_another_way_is_named_with_its_key(positions, written, slip, option):
    result = _graded(positions, {"positions": written})
    assert not result.passed and result.misconception == slip and result.hint_kind == MISTAKE
    assert repr(written) in result.hint and repr(option) in result.hint


@pytest.mark.parametrize("written", ["not cls", "speed or cls", "equivariance", "perm",
                                     "no idea"])
def test_an_answer_that_names_no_single_option_gets_no_cause(positions, written):
    result = _graded(positions, {"positions": written})
    assert not result.passed and result.misconception is None and not result.hint


def test_an_answer_under_a_misspelt_key_is_named_and_an_unanswered_one_is_not(positions):
    result = _graded(positions, {"position": "permutation"})
    assert result.status == NOT_IMPLEMENTED and result.misconception == MISPLACED
    assert result.hint_kind == MISTAKE and "'position'" in result.hint
    result = _graded(positions, {"positions": None, "medical": None})
    assert result.status == NOT_IMPLEMENTED and result.misconception is None and not result.hint
    assert _graded(positions, {"positions": "Permutation "}).passed  # the contract's leniency
