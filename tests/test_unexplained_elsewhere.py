"""kinds/mistakes.py (b67_03): a listed mistake named on one check is not weighed against a call
of the function's other checks whose value blew up (nan or inf where the expected value is
finite: `unexplained_elsewhere`), which no listed mistake of the values is meant to explain;
and one that another call of its own check belies gives way to the one combination of the
check's that fits every call (`widened`)."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from grader.checks.kinds.mistakes import blew_up


def test_a_value_that_blew_up_where_the_expected_one_is_finite_is_told_apart():
    assert blew_up([1.0, 2.0], [np.nan, 2.0]) and blew_up([[1.0]], [[np.inf]])
    assert not blew_up([1.0, 2.0], [1.5, 2.0])  # a wrong value, finite
    assert not blew_up([np.nan, 2.0], [np.nan, 2.0])  # due where the expected one is nan too
    assert not blew_up([1.0, 2.0], [np.nan])  # another shape: not the same value gone wrong
    assert not blew_up(3, 4) and not blew_up("a", "b")


def test_a_listed_mistake_another_call_of_the_check_belies_gives_way_to_the_pair_that_fits():
    """b67_03-like code (mask always on, heads split by a bare reshape) on a causal check with
    one causal=False call: the bare reshape alone fits the causal calls, the pair every call."""
    from grader.checks.kinds.call_spec import Misconception
    from grader.checks.kinds.mistakes import widened
    from grader.checks.results import FAILED, MISTAKE, CheckResult

    pair = "attention_causal+attention_heads_bare_reshape"
    check = SimpleNamespace(compare=None, misconceptions=(
        Misconception("attention_causal", "Mask whatever causal says."),
        Misconception("attention_heads_bare_reshape", "Bare reshape.")))

    def call(values: dict, got):
        planned = SimpleNamespace(from_compiled=False, expectation=lambda: (np.zeros(2), None),
                                  wrong_output=lambda like: (like in values, values.get(like)))
        return planned, SimpleNamespace(status="ok", value=np.asarray(got))

    causal = call({"attention_heads_bare_reshape": [1.0, 2.0], pair: [1.0, 2.0]}, [1.0, 2.0])
    plain = call({"attention_heads_bare_reshape": [3.0, 4.0], pair: [5.0, 6.0]}, [5.0, 6.0])
    named = CheckResult("causal", 2, 0, FAILED, hint="Bare reshape.", hint_kind=MISTAKE,
                        misconception="attention_heads_bare_reshape")
    found = widened(check, named, [causal, plain])
    assert found.misconception == pair and found.hint.startswith("2 mistakes at once: (1) Mask")
    assert widened(check, named, [causal]) is None  # the listed one alone fits
    other = call({"attention_heads_bare_reshape": [3.0, 4.0], pair: [7.0, 6.0]}, [5.0, 6.0])
    assert widened(check, named, [causal, other]) is None  # neither fits: the check's hint


def test_a_mistake_named_where_a_refusal_was_due_is_weighed_on_the_other_refusals_values():
    """b77_10-like patchify (no tiling test, blocks of H // (H // P) pixels): a crop to P's
    multiple gives its value on one non-tiling image, not on another check's, where the code
    returned a larger block: the crop is no cause there. A mistake named on a value where a
    value was due is not weighed on refusals (its listed code may refuse nothing)."""
    from grader.checks.kinds.mistakes import unexplained_elsewhere

    check = SimpleNamespace(compare=None, misconceptions=())

    def case(raises, values: dict):
        return SimpleNamespace(from_compiled=False, wrong_names=lambda: (),
                               expectation=lambda: (None if raises else np.zeros(2), raises),
                               wrong_output=lambda like: (like in values, values.get(like)))

    def returned(value):
        return SimpleNamespace(status="ok", value=np.asarray(value))

    crop = "patchify_floor_crop"
    named_on = case("ValueError", {crop: np.ones((16, 12))})
    larger = (case("ValueError", {crop: np.ones((2, 768))}), returned(np.ones((2, 1440))))
    cropped = (case("ValueError", {crop: np.ones((2, 768))}), returned(np.ones((2, 768))))
    assert unexplained_elsewhere(check, named_on, crop, [larger])
    assert not unexplained_elsewhere(check, named_on, crop, [cropped])
    on_a_value = case(None, {crop: np.ones(2)})
    assert not unexplained_elsewhere(check, on_a_value, crop, [larger])
