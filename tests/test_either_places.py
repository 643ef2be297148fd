"""An `either` hint ("One slip, at one or more of these places", error_model._either) lists
places the cases could not tell apart; a place whose rewrite is not the code's must not be
offered. Blind round 76's b76_11 (HackerRank's Softmax.py): `e = np.exp(x - x.max())` (the
whole array's max) and `e / np.sum(e, axis=axis)` (no keepdims). A 2-D case raises at the sum,
as the max without keepdims would, so "no overflow near 1000" alone offered the max's keepdims
too; the other checks' values show the whole array's max beside the sum (plain_forms.py, and
kinds/mistakes.py weighing an `either` on the function's other failed cases)."""
from __future__ import annotations

import pytest
from buggy_submissions import build_submission

from grader.checks import SubmissionGrading
from grader.checks.results import MISTAKE
from grader.worker import StudentWorker

WHOLE_ARRAY_MAX_SUM_WITHOUT_KEEPDIMS = '''
"""softmax: the max over the whole array, the sum without keepdims."""
import numpy as np

EXPECT = {"stable-softmax": None}


def softmax(x, axis=-1):
    shifted = np.exp(x - np.max(x))
    return shifted / shifted.sum(axis=axis)
'''

MAX_WITHOUT_KEEPDIMS = "np.max(x, axis=axis, keepdims=True)` is computed without keepdims"


@pytest.fixture(scope="module")
def graded(catalogue, tmp_path_factory):
    folder = tmp_path_factory.mktemp("either")
    (folder / "snippet.py").write_text(WHOLE_ARRAY_MAX_SUM_WITHOUT_KEEPDIMS)
    exercises = [e for e in catalogue if e.id == "stable-softmax"]
    with StudentWorker(build_submission(folder / "snippet.py", folder)) as worker:
        return SubmissionGrading(worker, catalogue=exercises).exercise(exercises[0])


def test_a_place_whose_rewrite_is_not_the_codes_is_not_offered(graded):
    assert graded.score < graded.max_score
    hints = [c.hint or "" for c in graded.checks if not c.passed]
    assert hints and not any(MAX_WITHOUT_KEEPDIMS in h for h in hints), hints
    assert not any("taken over axis 0" in h for h in hints), hints  # its values, not its max


def test_the_whole_array_max_is_named_beside_the_sum(graded):
    named = [c.hint for c in graded.checks if not c.passed and c.hint_kind == MISTAKE]
    assert any("taken over the whole array" in h and "np.sum(e, axis=axis, keepdims=True)` is "
               "computed without keepdims" in h for h in named), named
