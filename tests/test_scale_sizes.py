"""The attention scores divided by a power of another size than sqrt(d_h) (issue 38, blind round
63's b63_15: glide's `attn_ch = width // heads // 3`, a fused q, k, v width read as one head's,
in `1 / math.sqrt(math.sqrt(attn_ch))` on q and on k): named by the formula of the call's sizes
where it reproduces every call a check ran, a ZeroDivisionError where the share is 0 included
(error_model/scales.py), with the student's line that computes it; on a check whose calls only
show a scale of 1, the formula the function's other calls show, where it reproduces these too.
Each submission is the solution with self_attention replaced, graded in a worker."""
from __future__ import annotations

import pytest
from buggy_submissions import build_submission

from grader.checks import SubmissionGrading
from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.report.quotes import Source
from grader.report.steps import placed
from grader.worker import StudentWorker

ATTENTION = ("stable-softmax", "multi-head-attention", "no-causal-mask")
NAME = "op:constant:self_attention/attention:scale={}"
VISIBLE_CAUSAL = ("no-causal-mask", "causal=True gives GPT's mask")
HIDDEN = {"multi-head-attention": "random widths, head counts and lengths",
          "no-causal-mask": "random sequences with causal=True"}

GLIDE = '''
def self_attention(x, p, heads, causal=False):
    n_ctx, width = x.shape
    if width % heads:
        raise ValueError("width must be divisible by heads")
    q = (x @ p["Wq"] + p["bq"]).reshape(n_ctx, heads, -1)
    k = (x @ p["Wk"] + p["bk"]).reshape(n_ctx, heads, -1)
    v = (x @ p["Wv"] + p["bv"]).reshape(n_ctx, heads, -1)
    attn_ch = width // heads // 3
    scale = 1 / math.sqrt(math.sqrt(attn_ch))
    weight = np.einsum("thc,shc->hts", q * scale, k * scale)
    if causal:
        weight = np.where(np.tril(np.ones((n_ctx, n_ctx), dtype=bool)), weight, -np.inf)
    weight = softmax(weight, axis=-1)
    out = np.einsum("hts,shc->thc", weight, v).reshape(n_ctx, width)
    return out @ p["Wo"] + p["bo"]
'''

# one head at a time, the scale a power computed as a number (`** -0.5` of 0 raises)
LOOP = '''
def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    dh = d // heads
    scale = {scale}
    outs = []
    for h in range(heads):
        cols = slice(h * dh, (h + 1) * dh)
        q = x @ p["Wq"][:, cols] + p["bq"][cols]
        k = x @ p["Wk"][:, cols] + p["bk"][cols]
        v = x @ p["Wv"][:, cols] + p["bv"][cols]
        scores = {scores}
        if causal:
            scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
        outs.append(softmax(scores, axis=-1) @ v)
    return np.concatenate(outs, axis=-1) @ p["Wo"] + p["bo"]
'''


def _loop(scale: str, scores: str = "q @ k.T * scale") -> str:
    return LOOP.format(scale=scale, scores=scores)


@pytest.fixture(scope="module")
def grade(catalogue, tmp_path_factory):
    def run(snippet: str) -> dict:
        folder = tmp_path_factory.mktemp("snippet")
        (folder / "snippet.py").write_text('"""A self_attention."""\nEXPECT = {}\n' + snippet)
        exercises = [e for e in catalogue if e.id in ATTENTION]
        with StudentWorker(build_submission(folder / "snippet.py", folder)) as worker:
            grading = SubmissionGrading(worker, catalogue=exercises)
            return {e.id: grading.exercise(e) for e in exercises}
    return run


def _failed(results: dict) -> dict:
    return {(e, c.name): c for e, r in results.items() for c in r.checks if not c.passed}


def _check(results: dict, exercise: str, name: str):
    return next(c for c in results[exercise].checks if c.name.startswith(name))


def test_glides_third_of_the_head_width_is_named_on_every_failed_check(grade):
    """sqrt(d_h // 3): 1 where d_h is 3 to 5, sqrt(2) where it is 6 to 8, ZeroDivisionError
    where d_h < 3. Every attention check that fails names it, the visible causal one (d_h = 4
    on every call: the values of no scale) too, told the formula the other calls show."""
    results = grade(GLIDE)
    name = NAME.format("sqrt(d_h//3)")
    for exercise, check in [("multi-head-attention", "one head"), VISIBLE_CAUSAL,
                            *HIDDEN.items()]:
        assert _check(results, exercise, check).misconception == name, (exercise, check)
    told = [c for c in _failed(results).values() if c.hint_kind == "mistake"]
    assert all(c.misconception == name for c in told), [c.misconception for c in told]
    hint = _check(results, *VISIBLE_CAUSAL).hint
    assert "the scores are divided by sqrt(d_h // 3)" in hint and "unscaled" not in hint
    assert "d_h // 3 is 0 where d_h < 3" in hint


def test_the_sentence_quotes_the_students_line_that_takes_the_share():
    said = em.sentence(REFERENCE["self_attention"], NAME.format("sqrt(d_h//3)"))
    told = placed(said, Source([GLIDE]))
    assert "(at your line `attn_ch = width // heads // 3`)" in told, told
    assert "(at your line that divides by 3)" not in told
    told = placed(said, Source(["def self_attention(x, p, heads):\n    return x\n"]))
    assert "divided by sqrt(d_h // 3) where sqrt(d_h)" in told, told  # no line: no words


def test_half_the_head_width_written_as_a_power_is_named(grade):
    """(d // heads // 2) ** -0.5 on the scores of each head in a loop: sqrt(d_h // 2), and
    ZeroDivisionError (a power of 0) where d_h = 1."""
    results = grade(_loop("(d // heads // 2) ** -0.5"))
    name = NAME.format("sqrt(d_h//2)")
    for exercise, check in [("multi-head-attention", "one head"), *HIDDEN.items()]:
        assert _check(results, exercise, check).misconception == name, exercise
    told = {c.misconception for c in _failed(results).values() if c.hint_kind == "mistake"}
    assert not {m for m in told if "scale" in m} - {name}, told  # no other scale, no listed one


def test_a_fourth_root_of_the_head_width_put_on_the_scores_once_is_named(grade):
    """`scores / dh ** 0.25`: whisper's d_h ** -0.25, which belongs on q and on k, once."""
    results = grade(_loop("dh ** 0.25", "q @ k.T / scale"))
    name = NAME.format("d_h**0.25")
    for exercise, check in HIDDEN.items():
        assert _check(results, exercise, check).misconception == name, exercise
    said = _check(results, "multi-head-attention", HIDDEN["multi-head-attention"]).hint
    assert "the scores are divided by d_h ** 0.25" in said
    assert "(at your line `scale = dh ** 0.25`)" in placed(said, Source([_loop(
        "dh ** 0.25", "q @ k.T / scale")]))


@pytest.mark.parametrize(("scale", "listed", "generated"), [
    ("dh ** -0.5", None, None),  # the lecture's: every check passes
    ("1.0", "attention_no_scale", None),
    ("d ** -0.5", "attention_scale_d", NAME.format("sqrt(d)")),
])
def test_the_lectures_scale_no_scale_and_the_model_widths_keep_their_hints(
        grade, scale, listed, generated):
    results = grade(_loop(scale))
    failed = _failed(results)
    if listed is None:
        assert failed == {}
        return
    named = {c.misconception for c in failed.values() if c.hint_kind == "mistake"}
    assert listed in named and named <= {listed, generated}, named
    assert not any(c.misconception and "scale=" in c.misconception
                   and c.misconception != generated for c in failed.values())
    hint = _check(results, *VISIBLE_CAUSAL).hint
    assert _check(results, *VISIBLE_CAUSAL).misconception == (generated or listed), hint


# Junhojuno/vision-transfomer-tf2's Keras ViT (blind round 76's b76_04): `logits = Q @ K^T *
# (n_heads ** 0.5)`, the scores multiplied by sqrt(heads) where the lecture divides by sqrt(d_h)
TIMES_ROOT_HEADS = _loop("heads ** 0.5")
SEVERAL = ("multi-head-attention", "several head counts")


def test_scores_multiplied_by_the_root_of_the_head_count_are_named_in_the_lectures_sizes(grade):
    """Not as `q.shape[-1]` read at index 0 (q is (heads, T, d_h): its first size is the head
    count) and the division made a product, an expression the student's code does not have:
    as the factor it is, sqrt(heads), on every check whose calls show two head counts."""
    results = grade(TIMES_ROOT_HEADS)
    name = NAME.format("times-sqrt(heads)")
    for exercise, check in [SEVERAL, VISIBLE_CAUSAL, *HIDDEN.items()]:
        assert _check(results, exercise, check).misconception == name, (exercise, check)
    told = {c.misconception for c in _failed(results).values() if c.hint_kind == "mistake"}
    assert told == {name}, told  # no index read, no pair; one head: its scale is 1 (no scale)
    said = placed(_check(results, *SEVERAL).hint, Source([TIMES_ROOT_HEADS]))
    assert "the scores are multiplied by sqrt(heads) (at your line `scale = heads ** 0.5`), " \
           "the square root of the number of heads, where the lecture divides them by " \
           "sqrt(d_h)" in said, said
    assert "index" not in said and "q.shape[0]" not in said


def test_scores_divided_by_the_root_of_the_head_count_are_named_as_it_not_as_an_index(grade):
    """sqrt(heads) reproduces these calls as `q.shape[0]` does (q is (heads, T, d_h) on every
    one): the formula, not an expression of the model solution the code may not have, is said
    (nanoGPT's `k.size(-1)` ported as `k.shape[0]` is told sqrt(heads) too)."""
    results = grade(_loop("heads ** -0.5"))
    name = NAME.format("sqrt(heads)")
    for exercise, check in [SEVERAL, VISIBLE_CAUSAL, *HIDDEN.items()]:
        assert _check(results, exercise, check).misconception == name, (exercise, check)
    told = {c.misconception for c in _failed(results).values() if c.hint_kind == "mistake"}
    assert told == {name}, told
    assert "the scores are divided by sqrt(heads)" in _check(results, *SEVERAL).hint


@pytest.mark.parametrize(("scale", "formula", "said"), [
    ("1 / heads", "heads", "divided by heads, the number of heads"),
    ("heads", "times-heads", "multiplied by heads, the number of heads"),
    ("dh", "times-d_h", "multiplied by d_h, the head width"),
    ("d ** 0.5", "times-sqrt(d)", "multiplied by sqrt(d) (at your line `scale = d ** 0.5`), "
                                  "the square root of the model width"),
    ("d", "times-d", "multiplied by d, the model width"),
])
def test_every_other_factor_of_the_lectures_sizes_is_named(grade, scale, formula, said):
    """The lecture's candidates (1, sqrt(d_h), sqrt(d), d_h, d, sqrt(heads), heads) divided or
    multiplied: each one the other operators do not say already is a formula of this module."""
    results = grade(_loop(scale))
    name = NAME.format(formula)
    for exercise, check in [SEVERAL, *HIDDEN.items()]:
        assert _check(results, exercise, check).misconception == name, (exercise, check)
    told = {c.misconception for c in _failed(results).values() if c.hint_kind == "mistake"}
    assert told <= {name, "attention_no_scale"}, told
    assert f"the scores are {said}" in placed(_check(results, *SEVERAL).hint,
                                               Source([_loop(scale)]))
