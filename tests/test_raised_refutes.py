"""A listed mistake is named only where it reproduces the student's code on every call the check
ran: a call where the code raised and the mistake returns a value refutes it (issue 38, blind
round 63's b63_15: glide's QKVMultiheadAttention scale `width // heads // 3`, read off a fused
qkv width, is 1 where d_h is 3 to 5, so those values are unscaled attention's, but it raises
ZeroDivisionError where d_h < 3: "The scores are not scaled" was named on code that scales).
Each submission is the solution with self_attention replaced, graded in a worker."""
from __future__ import annotations

import pytest
from buggy_submissions import build_submission

from grader.checks import SubmissionGrading
from grader.worker import StudentWorker

ATTENTION = ("stable-softmax", "multi-head-attention", "no-causal-mask")
HIDDEN = {"multi-head-attention": "random widths, head counts and lengths",
          "no-causal-mask": "random sequences with causal=True"}


def _self_attention(scale: str) -> str:
    """The solution's self_attention with `scale` (of d and heads) on q and k, as glide does."""
    return f'''
"""self_attention whose q and k are each multiplied by `scale`."""
EXPECT = {{"multi-head-attention": None}}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    dh = d // heads
    scale = {scale}
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, dh).transpose(1, 0, 2) * scale
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, dh).transpose(1, 0, 2) * scale
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, dh).transpose(1, 0, 2)
    scores = q @ k.transpose(0, 2, 1)
    if causal:
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    out = softmax(scores, axis=-1) @ v
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
'''


@pytest.fixture(scope="module")
def grade(catalogue, tmp_path_factory):
    def run(snippet: str) -> dict:
        folder = tmp_path_factory.mktemp("snippet")
        (folder / "snippet.py").write_text(snippet)
        exercises = [e for e in catalogue if e.id in ATTENTION]
        with StudentWorker(build_submission(folder / "snippet.py", folder)) as worker:
            grading = SubmissionGrading(worker, catalogue=exercises)
            return {e.id: grading.exercise(e) for e in exercises}
    return run


def _check(results: dict, exercise: str, name: str):
    return next(c for c in results[exercise].checks if c.name.startswith(name))


def test_a_scale_that_raises_where_d_h_is_small_is_not_called_no_scale(grade):
    """(d_h // 3) ** -0.25 on q and k: 1 where d_h is 3 to 5 (unscaled attention's values),
    ZeroDivisionError where d_h < 3. The hidden checks ran both kinds of call: "not scaled"
    reproduces the first and not the second, so it is not named there."""
    results = grade(_self_attention("(d // heads // 3) ** -0.25"))
    for exercise, name in HIDDEN.items():
        check = _check(results, exercise, name)
        assert not check.passed
        assert check.misconception != "attention_no_scale", (exercise, check.hint)
        assert "are not scaled" not in (check.hint or ""), (exercise, check.hint)


def test_a_scale_that_is_1_on_every_call_is_told_by_the_values_it_gives(grade):
    """The visible causal check's calls all have d_h = 4: there sqrt(d_h // 4) is 1, the values
    are unscaled attention's, and "not scaled" reproduces every call; but the code has a scale,
    and no formula the error model makes gives the hidden causal check's ZeroDivisionError where
    d_h < 4 too. The hint says what the values show (the scores come out unscaled on these
    calls), not that the code has no scale. (Of sqrt(d_h // 3), which the error model makes, the
    formula is told: test_scale_sizes.py.)"""
    results = grade(_self_attention("(d // heads // 4) ** -0.25"))
    check = _check(results, "no-causal-mask", "causal=True gives GPT's mask")
    assert not check.passed and check.misconception == "attention_no_scale"
    assert "are not scaled" not in check.hint
    assert "come out unscaled on these calls" in check.hint


def test_scores_left_unscaled_are_still_named_on_the_hidden_checks(grade):
    """The guard: scores with no scale at all (scale 1 on every call, none raises) are named."""
    results = grade(_self_attention("1.0"))
    for exercise, name in HIDDEN.items():
        check = _check(results, exercise, name)
        assert not check.passed
        assert check.misconception == "attention_no_scale", (exercise, check.hint)
