"""The error model's search failing (blind round 59, b59_13): a pair's rewrite that does not
apply after the other edit is refused (ValueError, runs.compiled), never a crash; a rewrite of
the heads (heads.py) that does apply after an edit of the step it wraps keeps that edit; and
whatever else goes wrong in the search names no mistake (checks/kinds/mistakes.generated), so
a student never reads "internal grader error" for it."""
from __future__ import annotations

import numpy as np
import pytest

from grader.checks.results import MISTAKE
from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.reference.attention import attention, merge_heads, split_heads
from grader.reference.error_model.tree import compile_with
from grader.report.quotes import ROOT_LINE

RNG = np.random.default_rng(59)
SWAPPED = "op:arguments:self_attention:q-and-k-swapped"
HEADS_OPERATORS = ("unchecked_heads", "heads_interleaved", "heads_elsewhere", "head_buffers",
                   "heads_uncut", "heads_wrong_pair")

# both of b59_13's mistakes, written another way: the scores' rows are the keys (k q^T, A[key,
# query]: queries and keys swap roles) and each head's scores are divided by sqrt(d), the model
# width, where the lecture divides by sqrt(d_h)
BOTH = '''
import numpy as np


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    d_h = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    out = np.empty((T, d))
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        s = k[:, cols] @ q[:, cols].T / np.sqrt({scale})
        if causal:
            s = np.where(np.tri(T, dtype=bool), s, -np.inf)
        out[:, cols] = softmax(s) @ v[:, cols]
    return out @ p["Wo"] + p["bo"]
'''


def attention_params(d):
    return {n: RNG.normal(size=(d, d) if n.startswith("W") else d)
            for n in ("Wq", "bq", "Wk", "bk", "Wv", "bv", "Wo", "bo")}


def student_function(scale: str):
    namespace = {}
    exec(BOTH.format(scale=scale), namespace)  # noqa: S102 - the test's own snippet
    return namespace["self_attention"]


def same(value, target) -> bool:
    return np.allclose(value, target, rtol=1e-5, atol=1e-6)


def test_every_heads_rewrite_composes_with_an_edit_of_the_step_it_wraps():
    """Before: heads.py found the merge call by its text, which the swap below it changed, and
    `next()` raised StopIteration out of the search (180 pairs of self_attention's edits)."""
    root, edits = em.model(REFERENCE["self_attention"])
    by_name = {e.name: e for e in edits}
    heads = [e for e in edits if e.operator in HEADS_OPERATORS]
    assert len(heads) >= 8
    for edit in heads:
        compile_with(root, [by_name[SWAPPED], edit])  # composes, or ValueError: never else
    # the composition keeps the swap: with heads dividing d, the unattended last columns are
    # none, so the pair is the swap alone
    x, p = RNG.normal(size=(5, 8)), attention_params(8)
    pair = compile_with(root, [by_name[SWAPPED], by_name[
        "op:unchecked_heads:self_attention:heads-unchecked-last-columns-unattended"]])
    q, k, v = (split_heads(x @ p[f"W{n}"] + p[f"b{n}"], 2) for n in "qkv")
    swapped = merge_heads(attention(k, q, v)) @ p["Wo"] + p["bo"]
    assert np.allclose(pair(x, p, 2), swapped)
    assert not np.allclose(swapped, REFERENCE["self_attention"](x, p, 2))


def test_a_heads_rewrite_whose_step_is_gone_does_not_compose():
    """The step `attention(...)` skipped: the merge wraps a name now, and the heads' rewrite has
    nothing to cut: refused as not composing (ValueError), not a crash."""
    root, edits = em.model(REFERENCE["self_attention"])
    by_name = {e.name: e for e in edits}
    for edit in (e for e in edits if e.operator in HEADS_OPERATORS):
        with pytest.raises(ValueError, match="no longer where"):
            compile_with(root, [by_name["op:skip:self_attention:skip-attention"], edit])


def test_an_edit_reading_a_keyword_another_edit_took_away_does_not_compose():
    """layer_norm's variance over all axes (`axis=None`) and the deviations averaged over all
    (which reads the variance's own `axis=`): before, StopIteration."""
    root, edits = em.model(REFERENCE["layer_norm"])
    by_name = {e.name: e for e in edits}
    with pytest.raises(ValueError, match="no `axis=`"):
        compile_with(root, [by_name["op:axis:layer_norm:var.axis=None"],
                            by_name["op:spread:layer_norm:var.deviations-averaged-over-all"]])


@pytest.mark.parametrize("scale", ["d", "d_h"])
def test_keys_as_the_scores_rows_and_the_width_scale_are_named_together(scale):
    """b59_13: both mistakes in one function, named as a pair on every call (before: the pair
    search raised StopIteration); with the scale right, the swap alone."""
    student = student_function(scale)
    reference = REFERENCE["self_attention"]
    cases = [(RNG.normal(size=(5, 8)), attention_params(8), 2),
             (RNG.normal(size=(4, 12)), attention_params(12), 3),
             (RNG.normal(size=(3, 4)), attention_params(4), 1)]
    calls = [em.Call(args, {}, student(*args), reference(*args)) for args in cases]
    found = em.search(reference, calls, 0, same)
    assert found is not None
    parts = set(found.name.split("+"))
    assert SWAPPED in parts
    if scale == "d":
        assert len(parts) == 2 and any("scale" in part for part in parts), found.name
        # the report says the student's line that takes the root where it finds one (root_line)
        said = found.sentence.replace(ROOT_LINE, "")
        assert "divided by sqrt(d), the model width, instead of sqrt(d_h)" in said, said
    else:
        assert parts == {SWAPPED}, found.name
    assert "`k` and `q` the other way round" in found.sentence


def _graded(catalogue, tmp_path, source: str):
    from buggy_submissions import build_submission

    from grader.checks import SubmissionGrading
    from grader.worker import StudentWorker

    chosen = [e for e in catalogue if e.id == "multi-head-attention"]
    snippet = tmp_path / "snippet.py"
    snippet.write_text(source)
    with StudentWorker(build_submission(snippet, tmp_path)) as worker:
        return SubmissionGrading(worker, catalogue=chosen).exercise(chosen[0])


def test_a_search_that_fails_names_no_mistake_and_costs_no_points(catalogue, tmp_path,
                                                                  monkeypatch):
    """The guard around the error model (mistakes.generated): a search that raises, whatever it
    raises, is "no mistake named": the checks keep their scores and other hints, no "internal
    grader error", and the failure is kept for the developers (FAILURES)."""
    from grader.checks.kinds import mistakes

    def broken(*args, **kwargs):
        raise StopIteration  # b59_13's: a bug of the search, not of the student's code

    (tmp_path / "named").mkdir()
    named = _graded(catalogue, tmp_path / "named", BOTH.format(scale="d"))
    monkeypatch.setattr(mistakes, "SEARCHED", {})  # no verdict kept from the run before
    monkeypatch.setattr(em, "search", broken)
    monkeypatch.setattr(em, "confirms", broken)
    monkeypatch.setattr(mistakes, "FAILURES", [])
    (tmp_path / "broken").mkdir()
    failed = _graded(catalogue, tmp_path / "broken", BOTH.format(scale="d"))
    # (the line that takes the root is said by the report: report/steps.py)
    assert any(c.hint_kind == MISTAKE and "sqrt(d), the model width" in c.hint.replace(
        ROOT_LINE, "") for c in named.checks), [c.hint for c in named.checks]
    assert failed.score == named.score < failed.max_score
    assert [c.passed for c in failed.checks] == [c.passed for c in named.checks]
    for check in failed.checks:
        assert "internal grader error" not in (check.message or "") + (check.hint or "")
        assert check.hint_kind != MISTAKE, check.hint
    assert mistakes.FAILURES and all("StopIteration" in f for f in mistakes.FAILURES)
    mistakes.FAILURES.clear()  # seen here: the conftest's check is for failures nobody expected

