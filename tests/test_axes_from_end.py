"""An axis of an array the checked function makes itself is said counted from the end, or as
the model solution's array's (blind round 68's b68_05): an attention that normalises each head's
2-D (T, T) scores over axis 0 was told "`softmax(scores)` taken over axis 1", the axis of the
model solution's (heads, T, T) array; on its own array axis 1 is the right one. The error model
tries such an array's axes from the end first (error_model/operators.AXES_FROM_END), and says a
number from the start as the model solution's array's."""
from __future__ import annotations

import pytest
from buggy_submissions import build_submission

from grader.driver import Driver
from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.reference.error_model.operators import THEIRS
from grader.settings import GraderSettings

from conftest import EXERCISES

PER_HEAD_OVER_QUERIES = '''
def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    d_h = d // heads
    q, k, v = x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]
    outs = []
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        scores = q[:, cols] @ k[:, cols].T / np.sqrt(d_h)
        if causal:
            scores = np.where(np.tril(np.ones((T, T))) > 0, scores, -np.inf)
        e = np.exp(scores - scores.max(axis=0, keepdims=True))
        outs.append(e / e.sum(axis=0, keepdims=True) @ v[:, cols])  # over the queries
    return np.concatenate(outs, axis=1) @ p["Wo"] + p["bo"]
'''


@pytest.fixture(scope="module")
def driver():
    driver = Driver(GraderSettings(None, EXERCISES))
    yield driver
    driver.close()


def test_a_per_head_softmax_over_the_queries_is_told_axis_minus_two(driver, tmp_path):
    path = tmp_path / "snippet.py"
    path.write_text('"""Each head\'s scores normalised over the queries."""\n'
                    'EXPECT = {"multi-head-attention": None}\n' + PER_HEAD_OVER_QUERIES)
    report = driver.grade(build_submission(path, tmp_path)).report
    hints = [c.hint for e in report.exercises if e.id in ("multi-head-attention",
                                                          "no-causal-mask")
             for c in e.checks if not c.passed and c.misconception
             and c.misconception.startswith("op:axis:")]
    assert hints
    for hint in hints:
        assert "taken over axis -2," in hint and "axis 1" not in hint, hint


def test_a_number_from_the_start_of_a_made_array_is_said_as_the_model_solutions():
    edits = em.model(REFERENCE["self_attention"])[1]
    said = {e.detail: e.sentence for e in edits
            if e.operator == "axis" and e.site.path.endswith("attention")
            and e.detail.startswith("softmax.axis=")}
    assert THEIRS in said["softmax.axis=0"] and THEIRS not in said["softmax.axis=-2"]
    own = {e.detail: e.sentence for e in em.model(REFERENCE["softmax"])[1]
           if e.operator == "axis"}
    assert THEIRS not in own["sum.axis=0"]  # the caller's own array: its axes are the student's
