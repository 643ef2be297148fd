"""kinds/exact.py: a listed mistake's `exact_hint` is said only where the student's values are
that mistake's exactly on every case the check ran (b66_07's mask built with `np.where` and
never assigned: the unmasked attention itself), never for a near miss the tolerance accepts
(fleet_compiler's fill of -1e-10 above the diagonal)."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from grader.checks.kinds.call_spec import Misconception
from grader.checks.kinds.exact import exact, exactly
from grader.checks.results import FAILED, MISTAKE, CheckResult
from grader.reference import REFERENCE

RNG = np.random.default_rng(6607)
HINT = "no mask is applied, or its fill is too small to matter"
EXACT = "causal=True returns exactly the unmasked result: no mask reaches the scores"


def _attention(x, p, heads, fill=None):
    """The reference's attention with causal=True, its hidden scores given `fill` added instead
    of -inf (None: no mask at all)."""
    if fill is None:
        return REFERENCE["self_attention"](x, p, heads, causal=False)
    T = x.shape[0]
    split = [(x @ p[f"W{n}"] + p[f"b{n}"]).reshape(T, heads, -1).transpose(1, 0, 2) for n in "qkv"]
    q, k, v = split
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(q.shape[-1]) + fill * np.triu(np.ones((T, T)), 1)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    out = (weights / weights.sum(-1, keepdims=True)) @ v
    return out.transpose(1, 0, 2).reshape(T, -1) @ p["Wo"] + p["bo"]


def _ran(student, scales=(1.0, 1.0)):
    """Two calls, tokens of the sizes `scales` (100: scores near 1e4, as no-causal-mask's)."""
    d = 8
    p = {n: RNG.normal(size=(d, d) if n.startswith("W") else d)
         for n in ("Wq", "bq", "Wk", "bk", "Wv", "bv", "Wo", "bo")}
    ran = []
    for T, scale in zip((4, 5), scales, strict=True):
        x = scale * RNG.normal(size=(T, d))
        wrong = _attention(x, p, 2)
        planned = SimpleNamespace(expectation=lambda: (None, None),
                                  wrong_output=lambda like, w=wrong: (True, w))
        ran.append((planned, SimpleNamespace(status="ok", value=student(x, p, 2))))
    return ran


CHECK = SimpleNamespace(misconceptions=(Misconception("attention_causal_ignored", HINT,
                                                      exact_hint=EXACT),))
NAMED = CheckResult("causal", 2, 0, FAILED, hint=HINT, misconception="attention_causal_ignored",
                    hint_kind=MISTAKE)


def test_the_exact_hint_is_said_where_the_values_are_the_unmasked_attention_itself():
    for scales in ((1.0, 1.0), (1.0, 100.0), (100.0, 100.0)):
        assert exactly(NAMED, CHECK, _ran(lambda x, p, h: _attention(x, p, h), scales)).hint \
            == EXACT
        # the same sum in another order: rounding only
        assert exactly(NAMED, CHECK, _ran(lambda x, p, h: _attention(x, p, h, 0.0),
                                          scales)).hint == EXACT


def test_a_tiny_fill_the_tolerance_cannot_see_keeps_the_hint_that_names_both_causes():
    """Where the scores reach 1e4, such a fill changes no bit (the hidden keys weigh nothing
    either way): the check's cases of unit size show it."""
    for fill in (-1e-10, -1e-9):
        for scales in ((1.0, 1.0), (1.0, 100.0)):
            ran = _ran(lambda x, p, h, f=fill: _attention(x, p, h, f), scales)
            assert np.allclose(ran[0][1].value, ran[0][0].wrong_output("")[1], rtol=1e-4,
                               atol=1e-5)
            assert exactly(NAMED, CHECK, ran).hint == HINT


def test_exact_weighs_shape_nan_and_infinities_and_leaves_other_results_alone():
    assert exact([1.0, np.nan], [1.0 + 1e-13, np.nan])
    assert not exact([1.0, np.nan], [1.0, 0.0]) and not exact([1.0, 2.0], [[1.0, 2.0]])
    assert not exact([np.inf], [-np.inf]) and exact([np.inf, 1.0], [np.inf, 1.0])
    float32 = _ran(lambda x, p, h: _attention(x, p, h).astype(np.float32).astype(float))
    assert exactly(NAMED, CHECK, float32).hint == HINT
    other = CheckResult("causal", 2, 0, FAILED, hint="x", misconception="attention_causal",
                        hint_kind=MISTAKE)
    assert exactly(other, CHECK, _ran(lambda x, p, h: _attention(x, p, h))) is other


SAID = (f"With causal=True, your `self_attention` returns exactly the unmasked result: {EXACT}"
        " (a mask built with `np.where` or `masked_fill` that is not assigned back has no effect).")
DROPPED = '''
def self_attention(x, p, heads, causal=False):
    scores = x @ x.T
    if causal:
        mask = np.triu(np.ones((len(x), len(x))), k=1)
        {line}
    return softmax(scores) @ x
'''


def test_the_line_that_builds_the_masked_scores_and_drops_them_is_quoted_after_the_hint():
    from grader.report.discarded import unassigned_mask
    from grader.report.quotes import Source

    def told(line: str, hint: str = SAID) -> str:
        return unassigned_mask(hint, Source([DROPPED.format(line=line)]))

    said = told("np.where(mask.astype(bool), -np.inf, scores)")
    assert said.startswith(SAID + " In `self_attention`, `np.where(mask.astype(bool), -np.inf, "
                           "scores)` on line 6 returns the masked scores as a new array")
    assert said.endswith("assign it (`scores = np.where(...)`).")
    assert told("scores.masked_fill(mask == 1, -np.inf)").endswith(
        "(`scores = scores.masked_fill(...)`).")
    for kept in ("scores = np.where(mask == 1, -np.inf, scores)",  # assigned: no such line
                 "np.where(mask == 1, -np.inf, scores); np.where(mask == 1, -1e9, scores)",
                 "np.where(mask == 1)", "print(np.where(mask == 1, -np.inf, scores))"):
        assert told(kept) == SAID, kept
    assert told("np.where(mask == 1, -np.inf, scores)", HINT) == HINT  # says no such thing
