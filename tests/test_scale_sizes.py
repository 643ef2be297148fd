"""The attention scores divided by a power of another size than sqrt(d_h) (issue 38, blind round
63's b63_15: glide's `attn_ch = width // heads // 3`, a fused q, k, v width read as one head's,
in `1 / math.sqrt(math.sqrt(attn_ch))` on q and on k): named by the formula of the call's sizes
where it reproduces every call a check ran, a ZeroDivisionError where the share is 0 included
(error_model/scales.py), with the student's line that computes it; on a check whose calls only
show a scale of 1, the formula the function's other calls show, where it reproduces these too.
Each submission is the solution with self_attention replaced, graded in a worker."""
from __future__ import annotations

import numpy as np
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


# the scores divided by the square root of the sequence length T (blind round 82's b82_01, the
# LLM book's CausalAttention: `softmax(scores / num_tokens ** 0.5)`), in two spellings: a factor
# on each head's scores in a loop, and the stacked heads' scores divided by `len(x) ** 0.5`
STACKED_T = '''
def self_attention(x, p, heads, causal=False):
    n, width = x.shape
    if width % heads:
        raise ValueError("heads must divide the width")
    q, k, v = (np.stack(np.split(x @ p["W" + c] + p["b" + c], heads, axis=1)) for c in "qkv")
    scores = np.einsum("hid,hjd->hij", q, k)
    if causal:
        scores = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)
    weights = softmax(scores / len(x) ** 0.5, axis=-1)
    return np.concatenate(list(weights @ v), axis=1) @ p["Wo"] + p["bo"]
'''
TOKEN_SCALES = {"loop": (_loop("T ** -0.5"), "multiplied", "scale = T ** -0.5"),
                "stacked": (STACKED_T, "divided", "weights = softmax(scores / len(x) ** 0.5, "
                                                  "axis=-1)")}
INDEX_T = "op:index:self_attention/attention:q.shape[-2]"
BY_T = INDEX_T  # q.shape[-2] is T (q is (heads, T, d_h)): a student who divides by sqrt(T)


@pytest.mark.parametrize("spelling", list(TOKEN_SCALES))
def test_scores_scaled_by_the_root_of_the_token_count_are_named_as_a_scale_not_an_index(
        grade, spelling):
    """sqrt(T) reproduces these calls as `q.shape[-2]` does (q is (heads, T, d_h)): the scale,
    said as the number of tokens at the student's line, not an expression of the model solution
    the code does not have, wherever the calls that show it read two lengths."""
    code, _, line = TOKEN_SCALES[spelling]
    results = grade(code)
    name = NAME.format("sqrt(T)")
    for exercise, check in [SEVERAL, VISIBLE_CAUSAL, *HIDDEN.items()]:
        assert _check(results, exercise, check).misconception == name, (exercise, check)
    told = {c.misconception for c in _failed(results).values() if c.hint_kind == "mistake"}
    assert told <= {name, INDEX_T} and name in told, told  # the index: one length shown only
    said = placed(_check(results, *SEVERAL).hint, Source([code]))
    assert "the scores are divided by sqrt(T) (at your line `" + line + "`), the square root " \
           "of the number of tokens T (the sequence length), where sqrt(d_h)" in said, said
    assert "index" not in said and "q.shape[-2]" not in said


def _token_calls(shapes: list[tuple[int, int, int]], student: str) -> list[em.Call]:
    """The calls of self_attention on inputs (T, d, heads) with the values of the rewrite
    `student` (a scale's formula, or BY_T: the scores divided by sqrt(T))."""
    rng = np.random.default_rng(82)
    reference = REFERENCE["self_attention"]
    rewritten = em.rewrite(reference, student if student.startswith("op:") else NAME.format(
        student))
    cases = [(rng.normal(size=(T, d)), {n: rng.normal(size=(d, d) if n[0] == "W" else d)
                                        for n in ("Wq", "bq", "Wk", "bk", "Wv", "bv", "Wo", "bo")},
              heads) for T, d, heads in shapes]
    return [em.Call(args, {}, rewritten(*args), reference(*args)) for args in cases]


def _same(value, target) -> bool:
    return np.allclose(value, target, rtol=1e-4, atol=1e-5)


def test_a_token_scale_shown_at_one_length_only_is_not_said_as_the_token_count():
    """T == d_h = 4 on the second call (the lecture's values): the scale shows at T = 5 only, a
    constant of that value alike, so today's reading stays; a third length tells it."""
    one = _token_calls([(5, 8, 2), (4, 8, 2)], BY_T)
    found = em.search(REFERENCE["self_attention"], one, 0, _same)
    assert found is not None and found.name == INDEX_T, found
    assert found.unseparated  # a formula reproduced these too: other checks' calls may tell it
    two = _token_calls([(5, 8, 2), (4, 8, 2), (3, 12, 3)], BY_T)
    assert em.search(REFERENCE["self_attention"], two, 0, _same).name == NAME.format("sqrt(T)")


@pytest.mark.parametrize(("other", "shapes"), [
    ("sqrt(d)", [(8, 8, 2), (6, 6, 3), (12, 12, 2)]),  # T == d on every call
    ("sqrt(heads)", [(2, 8, 2), (3, 12, 3), (4, 8, 4)]),  # T == heads on every call
])
def test_a_token_count_equal_to_another_size_on_every_call_is_said_as_neither(other, shapes):
    """The scale by T and the scale by d (or heads) give these calls the same values: neither
    formula is said alone, for the student may have written either."""
    for student in (BY_T, other):
        calls = _token_calls(shapes, student)
        found = em.search(REFERENCE["self_attention"], calls, 0, _same)
        said = {found.name} if found is not None and not found.either else set()
        assert not said & {NAME.format("sqrt(T)"), NAME.format(other)}, (student, found)


def test_a_scale_by_another_size_on_calls_that_separate_it_keeps_its_name():
    """Controls: sqrt(d) and sqrt(heads) where T differs from them are told as they are."""
    shapes = [(5, 8, 2), (3, 12, 3), (7, 12, 4)]
    for student in ("sqrt(d)", "sqrt(heads)"):
        found = em.search(REFERENCE["self_attention"], _token_calls(shapes, student), 0, _same)
        assert found is not None and found.name == NAME.format(student), (student, found)
        assert not found.unseparated


def test_an_index_slip_outside_the_scale_keeps_its_index_sentence():
    """Control: [CLS] read at row 1 in vit_forward, whose search holds the attention's scale
    formulas too: the index is told, and not as one a formula could replace."""
    from grader.reference.error_model import Call

    rng = np.random.default_rng(8)
    d, P = 4, 2
    params = {"P": P, "heads": 2, "W_e": rng.normal(size=(P * P * 3, d)), "b_e": rng.normal(
        size=d), "cls": rng.normal(size=d), "pos": rng.normal(size=(5, d)), "ln_g": rng.normal(
        size=d), "ln_b": rng.normal(size=d), "W_head": rng.normal(size=(d, 3)), "b_head":
        rng.normal(size=3), "blocks": []}
    reference = REFERENCE["vit_forward"]
    student = em.rewrite(reference, "op:index:vit_forward:x[1]")
    images = [rng.normal(size=(4, 4, 3)) for _ in range(2)]
    calls = [Call((image, params), {}, student(image, params), reference(image, params))
             for image in images]
    found = em.search(reference, calls, 0, _same)
    assert found is not None and found.name == "op:index:vit_forward:x[1]", found
    assert not found.unseparated
