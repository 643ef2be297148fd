"""Several mistakes in one function, all named; none named when a case cannot tell two apart;
the generalisation a function misses (checks/kinds/mistakes.py). The fixtures that show it on whole
submissions are tests/submissions/buggy/*_two_bugs.py and *_three_bugs.py (test_catalogue.py)."""
from __future__ import annotations

import re

import numpy as np
import pytest

from grader import load_specs
from grader.checks.api import SHIPPED
from grader.checks.cases import PlannedCase
from grader.checks.compare import Compare, compare
from grader.checks.kinds import CallCheck
from grader.checks.kinds.generalisations import explained, generalisation
from grader.checks.kinds.mistakes import (
    combination_names,
    combined_hint,
    named,
)
from grader.checks.results import FAILED, CheckResult
from grader.reference import REFERENCE
from grader.reference.misconceptions import (
    COMBINATION_LIMIT,
    MISCONCEPTIONS,
    combinations,
    wrong_implementation,
)

from conftest import EXERCISES


def _checks():
    exercises, errors = load_specs(EXERCISES)
    assert not errors
    return [c for e in exercises for c in e.checks if isinstance(c, CallCheck) and c.misconceptions]


def test_each_check_tries_a_bounded_set_of_combinations_and_a_combination_is_both_mistakes():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 8))
    p = {f"{w}{n}": rng.standard_normal((8, 8) if w == "W" else 8)
         for w in "Wb" for n in "qkvo"}
    for check in _checks():
        names = combinations([m.like for m in check.misconceptions])
        assert len(names) <= COMBINATION_LIMIT
        for name in names:
            assert callable(wrong_implementation(name)), name
    both = wrong_implementation("attention_no_scale+attention_causal")(x, p, 2)
    for part in ("attention_no_scale", "attention_causal"):
        assert compare(MISCONCEPTIONS[part](x, p, 2), both, Compare(mode="allclose")) is not None
    assert combinations(["attention_no_scale", "attention_scale_d"]) == []  # one option twice
    assert combinations(["attention_no_scale", "layer_norm_unbiased"]) == []  # two functions
    with pytest.raises(KeyError):
        wrong_implementation("attention_no_scale+attention_scale_d")


class _Check:  # what named() and generalisation() read of a spec's check
    def __init__(self, call, likes, hidden=False):
        self.function = self.reference_name = call
        self.hidden = hidden
        self.api = SHIPPED  # the shipped student API: these tests use the shipped functions
        self.misconceptions = [type("M", (), {"like": like, "hint": f"hint of {like}"})()
                               for like in likes]


def _case(args, wrong=None):
    wrong = {like: (True, value) for like, value in (wrong or {}).items()}
    return PlannedCase(tuple(args), {}, None, None, "x", None, (None, None), wrong,
                       from_compiled=True)


def test_two_and_three_mistakes_are_each_named_from_the_compiled_outputs():
    x, g, b = np.arange(8.0).reshape(2, 4), np.arange(1.0, 5.0), np.arange(4.0) - 1
    likes = ["layer_norm_unbiased", "layer_norm_eps_outside", "layer_norm_affine_swapped"]
    check = _Check("layer_norm", likes)
    outputs = {like: wrong_implementation(like)(x, g, b, 0.5)
               for like in likes + combinations(likes)}
    planned = _case((x, g, b), outputs)  # as the bundle has them: compiled, no reference run
    for bugs in ("layer_norm_unbiased+layer_norm_affine_swapped", "+".join(likes)):
        student = wrong_implementation(bugs)(x, g, b, 0.5)
        hint, like = named(check, planned, lambda wrong, s=student: np.allclose(wrong, s))
        assert like == bugs
        assert hint == combined_hint(check, bugs)
        assert all(f"({i}) hint of {part}" in hint for i, part in enumerate(bugs.split("+"), 1))


def test_another_checks_combination_computed_on_a_case_never_becomes_one_of_its_own():
    """A case is planned once per job: another check (or student) asking it for a variant's
    output keeps that output, not a new name its check tries (issue 38: a one-head attention
    named "attention_heads_interleaved+attention_one_head" on the no-causal-mask check only
    when a student with interleaved heads was graded before)."""
    x, g, b = np.arange(8.0).reshape(2, 4), np.arange(1.0, 5.0), np.arange(4.0) - 1
    likes = ["layer_norm_unbiased", "layer_norm_eps_outside"]
    check = _Check("layer_norm", likes)
    planned = _case((x, g, b, 0.5), {like: wrong_implementation(like)(x, g, b, 0.5)
                                     for like in likes + combinations(likes)})
    before = combination_names(check, planned)
    other = "layer_norm_unbiased+layer_norm_affine_swapped"  # another check's combination
    student = wrong_implementation(other)(x, g, b, 0.5)
    assert planned.wrong_output(other)[0]
    assert combination_names(check, planned) == before
    assert named(check, planned, lambda wrong: np.allclose(wrong, student)) == (None, None)


def test_a_case_two_misconceptions_match_names_neither():
    check = _Check("vit_forward", ["vit_mean_pool", "vit_last_row"])
    planned = _case((), {"vit_mean_pool": np.ones(3), "vit_last_row": np.ones(3)})
    assert named(check, planned, lambda wrong: np.allclose(wrong, 1)) == (None, None)
    planned = _case((), {"vit_mean_pool": np.ones(3), "vit_last_row": np.zeros(3)})
    assert named(check, planned, lambda wrong: np.allclose(wrong, 0)) == (
        "hint of vit_last_row", "vit_last_row")


def test_a_case_two_combinations_match_names_neither():
    """One patch token: its mean is the last row, so two combinations give the same logits."""
    likes = ["vit_mean_pool", "vit_last_row", "vit_final_ln_skipped"]
    check = _Check("vit_forward", likes)
    both = {"vit_mean_pool+vit_final_ln_skipped": np.ones(3),
            "vit_last_row+vit_final_ln_skipped": np.ones(3)}
    planned = _case((), {like: np.zeros(3) for like in likes} | both)
    assert named(check, planned, lambda wrong: np.allclose(wrong, 1)) == (None, None)
    planned = _case((), {like: np.zeros(3) for like in likes}
                    | {**both, "vit_mean_pool+vit_final_ln_skipped": np.full(3, 2.0)})
    assert named(check, planned, lambda wrong: np.allclose(wrong, 1))[1] == \
        "vit_last_row+vit_final_ln_skipped"


def test_the_generalisation_that_fails_is_said_and_only_that_one():
    check = _Check("patchify", [])
    square, other = _case((np.zeros((4, 4)), 2)), _case((np.zeros((6, 9)), 3))
    name, hint = generalisation(check, [square], other)
    assert name == "only_square_images"
    assert hint.startswith("Your `patchify` is right when H == W, wrong for a 6 x 9 image")
    assert generalisation(_Check("patchify", [], hidden=True), [square], other)[1].startswith(
        "Your `patchify` is right when H == W, wrong for a non-square image")
    assert generalisation(check, [other], square) is None  # a square image passing says nothing
    rgb = _case((np.zeros((4, 4, 3)), 2))
    assert generalisation(check, [square], rgb)[0] == "only_one_channel"
    assert generalisation(check, [rgb], square)[0] == "only_3d_images"
    heads = _Check("self_attention", [])
    one, two = _case((np.zeros((3, 4)), {}, 1)), _case((np.zeros((3, 4)), {}, 2))
    assert generalisation(heads, [one], two)[0] == "only_one_head"
    norm = _Check("layer_norm", [])
    flat, batch = _case((np.zeros((3, 4)), 0, 0)), _case((np.zeros((2, 3, 4)), 0, 0))
    assert generalisation(norm, [flat], batch)[0] == "only_2d_inputs"
    vector = _case((np.zeros(4), 0, 0))  # one axis says nothing of leading axes (b11_04: a
    assert generalisation(norm, [flat, vector], batch)[0] == "only_2d_inputs"  # (d,) returned
    assert generalisation(norm, [batch], vector) is None  # as (1, d) is no "right for one axis")
    assert generalisation(norm, [vector], batch) is None
    assert "right for inputs of two axes (T, d)" in generalisation(norm, [flat], batch)[1]
    assert REFERENCE["patchify"](np.zeros((6, 9)), 3).shape == (6, 9)  # the case has an answer
    counting = _Check("num_patches", [])
    name, hint = generalisation(counting, [_case((8, 8, 2))], _case((6, 9, 3)))
    assert name == "only_square_images"  # a count from the sizes H and W, no image
    assert hint.startswith("Your `num_patches` is right when H == W, wrong for a 6 x 9 image")
    assert generalisation(_Check("attention_scores", []), [_case((4,))], _case((9,))) is None


def test_right_for_float_images_wrong_for_an_8_bit_one_is_said_only_when_the_cases_show_it():
    """A buffer made with the image's dtype keeps an 8-bit image's results in 8 bits: float
    images pass, a uint8 one fails. Said only when every passed case has a float image and no
    other failing one does; the hint names the failing image's dtype."""
    check = _Check("conv_patch_embed", [])
    floats = [_case((np.zeros((4, 6, 3)), 0, 0, 2)), _case((np.zeros((6, 6)), 0, 0, 2))]
    pixels = _case((np.zeros((4, 6, 3), dtype=np.uint8), 0, 0, 2))
    name, hint = generalisation(check, floats, pixels)
    assert name == "only_float_images"
    assert hint.startswith("Your `conv_patch_embed` is right for float images, wrong for a uint8 "
                           "image")
    assert generalisation(check, floats + [pixels], floats[0]) is None  # a uint8 one passed
    assert generalisation(check, floats, pixels, [floats[1]]) is None  # a float one failed too
    float32 = _case((np.zeros((4, 6, 3), dtype=np.float32), 0, 0, 2))
    assert generalisation(check, floats, float32) is None  # float32 is a float image
    assert generalisation(_Check("layer_norm", []), [_case((np.zeros((3, 4)), 0, 0))],
                          _case((np.zeros((3, 4), dtype=np.int64), 0, 0))) is None  # no image


def test_the_generalisation_is_said_only_after_a_simpler_case_passed_that_differs_in_one_way():
    check = _Check("patchify", [])
    failed = CheckResult("grayscale", 1, 0, FAILED, "case 2 of 2: ...", hint="the check's hint")
    square, other = _case((np.zeros((4, 4)), 2)), _case((np.zeros((6, 9)), 3))
    assert explained(failed, check, [], other) == failed  # nothing passed before it
    named_case = explained(failed, check, [square], other)
    assert (named_case.misconception, named_case.hint) == generalisation(check, [square], other)
    assert named_case.message == failed.message
    rgb = _case((np.zeros((4, 6, 3)), 2))  # neither square nor one channel: which one is wrong?
    both = generalisation(check, [square], rgb)  # both said, neither named alone
    assert both[0] == "only_narrower_inputs" and "with H == W and with one channel" in both[1]
    assert explained(failed, check, [square], rgb).hint == both[1]
    matched = CheckResult("x", 1, 0, FAILED, "...", misconception="patchify_bare_reshape")
    assert explained(matched, check, [square], other) == matched  # a named mistake stays


def test_the_generalisation_weighs_every_case_that_ran_before_and_after_the_failing_one():
    """A case run after the failing one counts: a square image passing later (the first one
    raised) is evidence; a square image failing too belies 'right for square images'."""
    check = _Check("conv_patch_embed", [])
    failed = CheckResult("random", 1, 0, FAILED, "case 1 of 3", hint="the check's hint")
    narrow, square = _case((np.zeros((7, 5, 1)), 0, 0, 1)), _case((np.zeros((4, 4, 3)), 0, 0, 1))
    wide = _case((np.zeros((4, 7)), 0, 0, 1))
    said = explained(failed, check, [square], narrow, [wide])
    assert said.misconception == "only_square_images"
    assert said.hint.startswith("Your `conv_patch_embed` is right when H == W, wrong for a 7 x 5")
    other_square = _case((np.zeros((6, 6, 3)), 0, 0, 1))
    assert explained(failed, check, [square], narrow, [wide, other_square]) == failed


def test_raises_is_said_only_where_every_failing_case_raised_it():
    """Blind round 55's b55_11: a convolution written for square outputs raised IndexError for a
    tall image and returned a wrong shape for a wide one; "raises IndexError for a non-square
    image" was said of both. Said only where every failing case raised that exception."""
    from grader.worker.outcomes import CallOutcome, StudentError
    check = _Check("conv_patch_embed", [])
    failed = CheckResult("random", 1, 0, FAILED, "case 1 of 3", hint="the check's hint")
    square, tall = _case((np.zeros((4, 4, 3)), 0, 0, 1)), _case((np.zeros((7, 5, 1)), 0, 0, 1))
    index = CallOutcome("raised", error=StudentError("IndexError", "index 5", "", None))
    wide_value = CallOutcome("ok", value=np.zeros((5, 5, 2)))
    wide, other_tall = _case((np.zeros((5, 7, 1)), 0, 0, 1)), _case((np.zeros((9, 6)), 0, 0, 1))
    both_raise = explained(failed, check, [square], tall, [], [(tall, index), (other_tall, index)])
    assert "and raises IndexError for a 7 x 5" in both_raise.hint, both_raise.hint
    assert both_raise.raised == "IndexError"
    one_returns = explained(failed, check, [square], tall, [], [(tall, index), (wide, wide_value)])
    assert "raises" not in one_returns.hint and ", wrong for a 7 x 5" in one_returns.hint
    assert one_returns.raised is None


def test_how_a_generalisation_fails_is_said_of_the_failures_of_its_kind_only():
    """"wrong for a 4 x 6 image" is said only where a non-square case that should return a value
    returned a wrong one: where each of them raised (KeyError), a 4-D array returned where
    ValueError is due is a failure of another kind (no H x W image) and says nothing of them; a
    non-square image P does not tile, returned where ValueError is due, makes "raises" false,
    and "wrong" is not shown either: it "fails"."""
    from grader.worker.outcomes import CallOutcome, StudentError
    check = _Check("patchify", [])
    check.folder = None
    failed = CheckResult("rgb", 1, 0, FAILED, "case 1 of 5", hint="the check's hint")
    square, wide = _case((np.zeros((4, 4, 3)), 2)), _case((np.zeros((4, 6, 3)), 2))
    batch = PlannedCase((np.zeros((2, 4, 4, 3)), 2), {}, None, None, "x", None,
                        (None, "ValueError"), {}, from_compiled=True)
    untiled = PlannedCase((np.zeros((8, 10)), 4), {}, None, None, "x", None,
                          (None, "ValueError"), {}, from_compiled=True)
    key = CallOutcome("raised", error=StudentError("KeyError", "6", "", None))
    value = CallOutcome("ok", value=np.zeros((4, 12)))
    said = explained(failed, check, [square], wide, [batch], [(wide, key), (batch, value)])
    assert said.hint.startswith("Your `patchify` is right when H == W, and raises KeyError for a "
                                "4 x 6 image"), said.hint
    said = explained(failed, check, [square], wide, [untiled], [(wide, key), (untiled, value)])
    assert said.hint.startswith("Your `patchify` is right when H == W, and fails for a 4 x 6 "
                                "image"), said.hint
    said = explained(failed, check, [square], wide, [], [(wide, value)])
    assert said.hint.startswith("Your `patchify` is right when H == W, wrong for a 4 x 6 image")


def test_a_belied_generalisation_keeps_its_true_half_where_each_failure_of_its_kind_raised():
    """Blind round 56's b56_10: an embed_image that reads the channels from the last axis raises
    ValueError for every 2-D image, and embeds a 3-D image P does not tile where ValueError is
    due: "right for (H, W, C) images" is false, "raises ValueError for a 2-D (H, W) image" true,
    and said alone. Not where a 2-D image returned a value, nor with no raise seen."""
    from grader.worker.outcomes import CallOutcome, StudentError
    check = _Check("patchify", [])
    check.folder = None
    failed = CheckResult("rgb and gray", 1, 0, FAILED, "case 2 of 4", hint="the check's hint")
    rgb, gray = _case((np.zeros((4, 6, 3)), 2)), _case((np.zeros((6, 3)), 3))
    untiled = PlannedCase((np.zeros((6, 6, 3)), 4), {}, None, None, "x", None,
                          (None, "ValueError"), {}, from_compiled=True)
    reshape = CallOutcome("raised", error=StudentError("ValueError", "cannot reshape", "", None))
    value = CallOutcome("ok", value=np.zeros((2, 4)))
    half = explained(failed, check, [rgb], gray, [untiled], [(gray, reshape), (untiled, value)])
    assert half.misconception == "raises_only_3d_images" and half.raised == "ValueError"
    assert half.hint.startswith("Your `patchify` raises ValueError for a 2-D (H, W) image: "), (
        half.hint)
    other_gray = _case((np.zeros((4, 4)), 2))
    assert explained(failed, check, [rgb], gray, [untiled, other_gray], [
        (gray, reshape), (untiled, value), (other_gray, value)]) == failed
    assert explained(failed, check, [rgb], gray, [untiled]) == failed


def _pairs(rng):
    """(expected, got) pairs of every type the worker sends back, agreeing and not."""
    x = rng.normal(size=(3, 4))
    edge = x.copy()
    edge[0, 1], edge[2, 3] = np.nan, -np.inf
    yield from [(x, x), (x, x + 1e-9), (x, x + 1e-3), (x, x.T), (x, x[:2]), (x, x.tolist()),
                (x, "an array"), (x, x.astype(np.int64)), (x, np.zeros((0, 4))),
                (edge, edge), (edge, np.nan_to_num(edge)), (x, edge), (np.zeros(0), np.zeros(0)),
                (7, 7), (7, 7.0), (7, np.int64(7)), (7, True), (7, 8), (7, "7"),
                ((4, 4), (4, 4)), ((4, 4), [4, 4]), ((4, 4), (4, 5)), ((4, 4), (4,)),
                ((4, 4), np.array([4, 4])), ("scratch", " Scratch "), ("scratch", "pretrained"),
                (np.arange(3), np.arange(3)), (np.arange(3), np.arange(3) + 1), (1.5, 1.5),
                (1.5, None), (None, None)]
    for _ in range(20):
        a = rng.normal(size=rng.integers(1, 4, size=2))
        yield a, a + rng.choice([0.0, 1e-8, 1e-4]) * rng.normal(size=a.shape)


@pytest.mark.parametrize("mode", ["count", "equal", "allclose"])
@pytest.mark.parametrize("equal_nan", [False, True])
def test_agrees_decides_as_compare_does_without_explaining(mode, equal_nan):
    """The mistakes search asks agrees(); a case's verdict asks compare(): one decision."""
    from grader.checks.compare import agrees

    how = Compare(mode=mode)
    decided = set()
    for expected, got in _pairs(np.random.default_rng(0)):
        if (mode == "count" and not isinstance(expected, int)
                or mode == "allclose" and (expected is None or isinstance(expected, str))):
            continue  # what a spec of that mode never expects
        verdict = compare(expected, got, how, equal_nan=equal_nan) is None
        assert agrees(expected, got, how, equal_nan=equal_nan) is verdict, (expected, got)
        decided.add(verdict)
    assert decided == {True, False}  # the pairs include both answers in every mode


def test_a_listed_mistake_another_case_that_ran_contradicts_is_not_named():
    """DeiT's average of tokens 0 and 1 equals 'the mean of every token' for an image of one
    patch (two tokens): the failing case alone names it, the next case (more patches) belies it."""
    from types import SimpleNamespace

    check = next(c for c in _checks() if c.call == "vit_forward" and c.hidden)
    result = CheckResult(check.name, 1, 0, FAILED, "case 1 of 2", hint="You averaged every token.",
                         misconception="vit_mean_pool_all_tokens", hint_kind="mistake")

    def case(expected, mean_of_all):
        return PlannedCase((), {}, None, None, "vit_forward", None, (np.array(expected), None),
                           {"vit_mean_pool_all_tokens": (True, np.array(mean_of_all))})

    def ok(value):
        return SimpleNamespace(status="ok", value=np.array(value))

    one_patch, more = case([1.0, 2.0], [0.5, 0.5]), case([1.0, 2.0], [0.0, 3.0])
    kept = check._reproduced(result, [(one_patch, ok([0.5, 0.5])), (more, ok([0.0, 3.0]))],
                             one_patch)
    assert kept == result  # the mean reproduces both: named
    dropped = check._reproduced(result, [(one_patch, ok([0.5, 0.5])), (more, ok([0.2, 2.9]))],
                                one_patch)
    assert dropped.misconception is None and dropped.hint_kind != "mistake"
    assert dropped.hint == check.hint


def test_a_listed_mistake_is_not_named_when_the_code_raised_where_the_mistake_returns():
    """A count that never reads W: floored where W does not tile (as 'floor division' would
    count) but a ValueError where H does not, which floor division would not raise: not it."""
    from types import SimpleNamespace

    check = next(c for c in _checks() if c.call == "num_patches" and c.misconceptions)
    like = check.misconceptions[0].like
    result = CheckResult(check.name, 1, 0, FAILED, "case 1 of 2", hint="listed",
                         misconception=like, hint_kind="mistake")
    w_off = PlannedCase((6, 7, 3), {}, None, None, "num_patches", None, (None, "ValueError"),
                        {like: (True, 4)})
    h_off = PlannedCase((7, 6, 3), {}, None, None, "num_patches", None, (None, "ValueError"),
                        {like: (True, 4)})
    raised = SimpleNamespace(status="raised", error=SimpleNamespace(type="ValueError"))
    counted = SimpleNamespace(status="ok", value=4)
    dropped = check._reproduced(result, [(w_off, counted), (h_off, raised)], w_off)
    assert dropped.misconception is None and dropped.hint_kind != "mistake"
    assert check._reproduced(result, [(w_off, counted), (h_off, counted)], w_off) == result


def test_the_right_values_with_an_axis_of_length_one_too_many_or_too_few_are_observed():
    from types import SimpleNamespace

    from grader.checks.kinds.axes_off import ONE_AXIS_OFF, observed

    check = next(c for c in _checks() if c.call == "embed_image")
    failed = CheckResult(check.name, 1, 0, FAILED, "case 1 of 1", hint="the check's hint")
    expected = np.arange(6.0).reshape(3, 2)
    planned = PlannedCase((), {}, None, None, "embed_image", None, (expected, None))

    def got(value):
        return observed(failed, check, planned, SimpleNamespace(status="ok", value=value))

    batched = got(expected[None])
    assert batched.misconception == ONE_AXIS_OFF and "an extra axis of length 1" in batched.hint
    assert batched.hint.startswith("Your `embed_image` returns the right values")
    assert got(expected[None] + 1.0) == failed  # other values: nothing observed
    assert got(expected.T) == failed  # not an axis of length 1
    dropped = got(expected[:, :1].ravel())
    assert dropped == failed  # other values (not the ones expected): nothing observed


def test_an_axis_of_length_one_is_called_missing_or_extra_only_when_it_is():
    """b10_03: torch's channels first with d = 1, (1, H', W') for (H', W', 1): the same number
    of axes, so none is missing; the axis is in front."""
    from types import SimpleNamespace

    from grader.checks.kinds.axes_off import ONE_AXIS_OFF, observed

    check = next(c for c in _checks() if c.call == "embed_image")
    failed = CheckResult(check.name, 1, 0, FAILED, "case 1 of 1", hint="the check's hint")

    def hint(expected, value):
        planned = PlannedCase((), {}, None, None, "embed_image", None, (expected, None))
        said = observed(failed, check, planned, SimpleNamespace(status="ok", value=value))
        assert said.misconception == ONE_AXIS_OFF
        return said.hint

    kept = np.arange(12.0).reshape(3, 4, 1)
    front = hint(kept, kept.reshape(1, 3, 4))
    assert "missing" not in front and "extra" not in front
    assert front == ("Your `embed_image` returns the right values, with their axes in another "
                     "order: shape (1, 3, 4) where (3, 4, 1) is expected; the axis of length 1 "
                     "belongs last.")
    assert "belongs first" in hint(kept.reshape(1, 3, 4), kept)
    assert "missing" in hint(kept, kept.reshape(3, 4))
    assert "extra" in hint(kept.reshape(3, 4), kept)
    two_off = hint(kept.reshape(12), kept.reshape(1, 12, 1))  # two axes more: neither word
    assert "missing" not in two_off and "extra" not in two_off
    assert "shape (1, 12, 1) where (12,) is expected" in two_off
    swapped = hint(kept.reshape(3, 4), kept.reshape(3, 1, 4)[None, :, 0])  # (1, 3, 4): one more
    assert "extra" in swapped


def test_what_is_true_of_a_failed_value_is_said_when_nothing_named_its_mistake():
    """value_observations: NaN, one value everywhere, the opposite sign, one factor off, the same
    row added, the rows reordered, some rows wrong. Each holds of the value by construction;
    none is said of a value that is right (a dtype or in-place failure), or after a mistake was
    named."""
    from types import SimpleNamespace

    from grader.checks.kinds.value_observations import described

    check = next(c for c in _checks() if c.call == "embed_image")
    failed = CheckResult(check.name, 1, 0, FAILED, "case 1 of 1", hint="the check's hint")
    expected = np.random.default_rng(5).standard_normal((5, 4))
    planned = PlannedCase((), {}, None, None, "embed_image", None, (expected, None))

    def told(value, result=failed):
        said = described(result, check, planned, SimpleNamespace(status="ok", value=value))
        return said.misconception, said.hint

    with_nan = expected.copy()
    with_nan[2, 1] = np.nan
    assert told(with_nan)[0] == "not_finite" and "(row 2)" in told(with_nan)[1]
    # a LayerNorm's one-pass variance below -eps makes np.sqrt(var + eps) NaN: on the list
    assert "the square root of a negative number" in told(with_nan)[1]
    assert told(-expected)[0] == "sign_flipped"
    scaled = told(expected * np.sqrt(2))
    assert scaled[0] == "scaled" and "= sqrt(2)" in scaled[1]
    assert told(expected + np.arange(4.0))[0] == "offset_rows"
    order = told(expected[[1, 0, 2, 3, 4]])
    assert order[0] == "rows_reordered" and "your row 0 is expected row 1" in order[1]
    one_row = expected.copy()
    one_row[3] += 1.0 + np.arange(4.0)
    assert told(one_row) == ("some_rows_wrong", "Your `embed_image` returns the expected values "
                             "except in 1 of 5 rows (row 3).")
    assert told(np.ones_like(expected)) == (
        "constant", "Your `embed_image` returns the same value, 1, in every position, where "
        "the expected values vary.")
    noise = expected + np.random.default_rng(6).standard_normal((5, 4))
    assert told(noise) == (None, "the check's hint")  # nothing simple is true of it
    assert told(expected.astype(np.float32)) == (None, "the check's hint")  # right values
    named_one = CheckResult(check.name, 1, 0, FAILED, "...", hint="h", misconception="cls_last")
    assert told(-expected, named_one) == ("cls_last", "h")
    general = CheckResult(check.name, 1, 0, FAILED, "...", hint="Your `f` is right with one head.",
                          misconception="only_one_head", hint_kind="observation")
    assert told(-expected, general) == ("only_one_head", "Your `f` is right with one head. Here "
                                        "it returns the expected values with the opposite sign.")


def test_the_same_vector_in_every_row_is_told_as_an_argument_only_when_it_is_a_multiple_of_it():
    """b10_10: patchify with its channels reversed returns, on a ramp image, the expected rows
    plus one vector; patchify takes no bias, so none is guessed. A function that takes a vector
    of the rows' width is told it exactly when the offset is a multiple of it (b10_13's bias
    summed in every window: 9 times `b`), and else no bias is suggested: the vector is not the
    bias as given (b35_05's kernel read rows for columns, its bias added once)."""
    from types import SimpleNamespace

    from grader.checks.kinds.value_observations import described

    checks = {c.call: c for c in _checks()}
    rng = np.random.default_rng(7)
    expected = rng.standard_normal((5, 4))
    shift = np.arange(4.0) + 1.0

    def told(function, args, value, kwargs=None):
        check = checks[function]
        failed = CheckResult(check.name, 1, 0, FAILED, "case 1 of 1", hint="the check's hint")
        planned = PlannedCase(args, kwargs or {}, None, None, function, None, (expected, None))
        said = described(failed, check, planned, SimpleNamespace(status="ok", value=value))
        return said.misconception, said.hint

    image = rng.standard_normal((4, 4, 3))
    name, hint = told("patchify", (image, 2), expected + shift)
    assert name == "offset_rows" and hint.endswith("the same vector in every row.")
    assert "bias" not in hint and "position" not in hint
    b_e = rng.standard_normal(4)
    embed = (image, rng.standard_normal((12, 4)), b_e, 2)
    assert told("linear_patch_embed", embed, expected - b_e)[1] == (
        "Your `linear_patch_embed` returns the expected values minus `b_e` in every row.")
    assert told("linear_patch_embed", embed, expected + 9 * b_e)[1].endswith(
        "plus 9 times `b_e` in every row.")
    unsaid = told("linear_patch_embed", embed, expected + shift)[1]
    assert unsaid.endswith("the same vector in every row.") and "bias" not in unsaid
    params = {"b_e": b_e, "cls": rng.standard_normal(4), "pos": rng.standard_normal((5, 4))}
    assert told("embed_image", (image, params), expected + 2 * params["cls"])[1].endswith(
        'plus 2 times `params["cls"]` in every row.')
    unsaid = told("embed_image", (image, params), expected + shift)[1]
    assert unsaid.endswith("the same vector in every row.") and "params" not in unsaid


def test_a_kernel_read_rows_for_columns_on_a_ramp_image_is_not_told_a_bias():
    """b35_05 (MLBites' conv2d, the kernel put in its (C_out, C_in, kH, kW) layout with
    K.transpose(3, 2, 1, 0)): on a ramp image every window of the spatially transposed kernel is
    the right one plus one vector, which is not `b` (added once, right): no bias is suggested.
    A bias added twice is still told as such: plus `b`."""
    from types import SimpleNamespace

    from grader.checks.kinds.value_observations import described

    check = next(c for c in _checks() if c.call == "conv_patch_embed")
    rng = np.random.default_rng(35)
    image = np.arange(16.0).reshape(4, 4, 1)
    K = rng.standard_normal((3, 3, 1, 3))
    b = rng.standard_normal(3)

    def conv(kernel, bias):
        windows = np.lib.stride_tricks.sliding_window_view(image, (3, 3), axis=(0, 1))
        return np.tensordot(windows.transpose(0, 1, 3, 4, 2), kernel, axes=3) + bias

    def told(value):
        failed = CheckResult(check.name, 1, 0, FAILED, "case 1 of 1", hint="the check's hint")
        planned = PlannedCase((image, K, b, 1), {}, None, None, "conv_patch_embed", None,
                              (conv(K, b), None))
        said = described(failed, check, planned, SimpleNamespace(status="ok", value=value))
        return said.misconception, said.hint

    transposed = conv(K.swapaxes(0, 1), b)
    offset = (transposed - conv(K, b)).reshape(-1, 3)
    assert np.allclose(offset, offset[0]) and not np.allclose(offset[0], b)  # one vector, not b
    name, hint = told(transposed)
    assert name == "offset_rows" and hint.endswith("the same vector in every row.")
    assert "bias" not in hint and "`b`" not in hint
    assert told(conv(K, 2 * b)) == (
        "offset_rows", "Your `conv_patch_embed` returns the expected values plus `b` in every row.")


def test_a_count_one_factor_or_one_number_off_on_every_failed_case_is_said():
    """b10_02: attention_scores counting 12 heads returns 12 * T * T on every case. Said only
    when it holds of every case that ran and failed (two at least), the passed ones consistent
    with it (an expected 0, for a factor)."""
    from types import SimpleNamespace

    from grader.checks.kinds.value_observations import described

    check = next(c for c in _checks() if c.call == "attention_scores")
    failed = CheckResult(check.name, 1, 0, FAILED, "case 1 of 1", hint="the check's hint")

    def told(pairs):
        ran = [(PlannedCase((T,), {}, None, None, "attention_scores", None, (T * T, None)),
                SimpleNamespace(status="ok", value=got)) for T, got in pairs]
        first = next(i for i, (T, got) in enumerate(pairs) if got != T * T)
        said = described(failed, check, ran[first][0], ran[first][1], ran)
        return said.misconception, said.hint

    assert told([(197, 12 * 197 ** 2), (50, 12 * 2500), (3, 108)]) == (
        "count_scaled", "Your `attention_scores` returns 12 times the expected count on every "
        "case that failed (all 3 that ran).")
    assert told([(0, 0), (4, 8), (6, 18)]) == (
        "count_scaled", "Your `attention_scores` returns 1/2 of the expected count on every case "
        "that failed (2 of the 3 that ran; where it passed, the expected count is 0).")
    assert told([(5, 26), (7, 50)]) == (
        "count_offset", "Your `attention_scores` returns the expected count plus 1 on every case "
        "that failed (both that ran).")
    assert told([(2, 4), (4, 32), (6, 72)])[0] is None  # passed with 4: no factor, no offset
    assert told([(4, 32), (6, 36 * 3)])[0] is None  # two factors
    assert told([(4, 32)])[0] is None  # one case fits any factor
    raised = SimpleNamespace(status="raised", error=SimpleNamespace(type="ValueError"))
    ran = [(PlannedCase((T,), {}, None, None, "attention_scores", None, (T * T, None)), outcome)
           for T, outcome in ((4, SimpleNamespace(status="ok", value=32)), (5, raised),
                              (6, SimpleNamespace(status="ok", value=72)))]
    assert described(failed, check, *ran[0], ran) == failed  # a failure of another kind


def test_several_heads_of_one_column_each_neither_rest_nor_belie_right_with_one_head():
    """A per-head slice at h for h * d_h (DeiT ports' `b[h:h + d_h]`) is right with one head
    and with heads of one column each (d_h = 1): such a pass does not belie 'right with one
    head', a failure there is one with several heads, and one-column heads alone support
    nothing."""
    from grader.checks.kinds.generalisations import generalisation

    check = next(c for c in _checks() if c.call == "self_attention")

    def case(d, heads):
        x = np.zeros((3, d))
        return PlannedCase((x, {}, heads), {}, None, None, "self_attention", None, (x, None))

    one, one_column, several = case(4, 1), case(4, 4), case(8, 2)
    assert generalisation(check, [one, one_column], several)[0] == "only_one_head"
    assert generalisation(check, [one], one_column)[0] == "only_one_head"
    assert generalisation(check, [one_column], several) is None
    assert generalisation(check, [one, case(8, 2)], case(8, 4)) is None  # several heads passed


def test_right_along_the_last_two_axes_only_is_said_of_a_softmax():
    """np.moveaxis(out, axis, -1) as the way back: right along the last two axes (a swap of the
    last two is its own inverse), wrong along axis 0 of a 3-D input."""
    from grader.checks.kinds.generalisations import generalisation

    check = next(c for c in _checks() if c.call == "softmax")

    def case(shape, axis):
        x = np.zeros(shape)
        return PlannedCase((x,), {"axis": axis}, None, None, "softmax", None, (x, None))

    passed = [case((4,), -1), case((2, 3), 0), case((2, 3, 4), -1), case((2, 3, 4), 1)]
    found = generalisation(check, passed, case((2, 3, 4), 0))
    assert found[0] == "only_last_two_axes" and "wrong along axis 0 of one with 3 axes" in found[1]
    assert generalisation(check, [*passed, case((2, 3, 4, 5), 0)], case((2, 3, 4), 0)) is None


def test_right_along_the_last_axis_only_is_said_of_a_softmax_that_refuses_the_others():
    """TensorFlow.js's softmax ported as it is: `axis` other than the last refused (or, as
    well, computed wrongly). 1-D inputs are along their last axis; a pass along another axis, or
    a failure along the last, belies it."""
    from grader.checks.kinds.generalisations import generalisation

    check = next(c for c in _checks() if c.call == "softmax")

    def case(shape, axis):
        x = np.zeros(shape)
        return PlannedCase((x,), {"axis": axis}, None, None, "softmax", None, (x, None))

    passed = [case((4,), 0), case((2, 3), -1), case((2, 3, 4), 2)]
    found = generalisation(check, passed, case((3, 2), 0))
    assert found[0] == "only_last_axis"
    assert "right along the last axis of its input, not along axis 0 of one with 2 axes" in found[1]
    assert generalisation(check, [*passed, case((2, 3), 0)], case((2, 3, 4), 0))[0] != (
        "only_last_axis")
    assert generalisation(check, passed, case((3, 2), 0), [case((2, 3), -1)]) is None


def test_several_generalisations_that_hold_are_said_together():
    """A square one-channel image passes and a 5 x 6 RGB one fails: both 'square only' and 'one
    channel only' hold of the passes, neither of the failure; naming one would mislead, so both
    are said at once."""
    from grader.checks.kinds.generalisations import SEVERAL, generalisation

    check = next(c for c in _checks() if c.call == "conv_patch_embed")

    def case(shape):
        image = np.zeros(shape)
        return PlannedCase((image, np.zeros((2, 2, shape[2], 1)), np.zeros(1), 1), {}, None, None,
                           "conv_patch_embed", None, (image, None))

    name, hint = generalisation(check, [case((4, 4, 1))], case((5, 6, 3)))
    assert name == SEVERAL
    assert "right on every case that ran with H == W and with one channel" in hint
    assert "depends on H and W or the channels" in hint
    assert generalisation(check, [case((4, 4, 1)), case((4, 4, 3))], case((5, 6, 3)))[0] == (
        "only_square_images")


def test_values_that_change_between_calls_are_said_as_such_once_per_function():
    """A failed case run twice again by the same worker: other values either time (dropout left
    on, whose mask may repeat once by chance) are said as that; the same values leave the
    result as it was; one repeat per function; a named mistake is never replaced."""
    from types import SimpleNamespace

    from grader.checks.kinds.randomness import RANDOM, repeated
    from grader.checks.results import MISTAKE

    check = next(c for c in _checks() if c.call == "embed_image")
    expected = np.zeros((5, 4))
    planned = PlannedCase((np.ones((4, 4, 3)), {}), {}, None, None, "embed_image", None,
                          (expected, None))
    planned.encoded = object()  # what the fake worker is sent

    class Worker:
        def __init__(self, values):
            self.values, self.calls = list(values), 0

        def call_many(self, name, calls):
            self.calls += 1
            return [SimpleNamespace(status="ok", value=self.values.pop(0)) for _ in calls]

    failed = CheckResult(check.name, 1, 0, FAILED, "case 1 of 1", hint="the check's hint")
    first = SimpleNamespace(status="ok", value=np.ones((5, 4)))
    worker, seen = Worker([np.ones((5, 4)), np.full((5, 4), 2.0)]), {}  # the same once
    said = repeated(failed, check, planned, first, worker, seen)
    assert said.misconception == RANDOM and "different values for the same inputs" in said.hint
    again = repeated(failed, check, planned, first, worker, seen)
    assert again.misconception == RANDOM and worker.calls == 1  # one repeat per function
    steady = Worker([np.ones((5, 4))] * 2)
    assert repeated(failed, check, planned, first, steady, {}) == failed
    count = next(c for c in _checks() if c.call == "num_patches")  # compared as a count
    pair = PlannedCase(((8, 8, 4), {}), {}, None, None, "num_patches", None, (4, None))
    pair.encoded = object()
    grid = SimpleNamespace(status="ok", value=(2, 2))  # the grid's shape for its count: the
    # same pair again is no change, though a count's comparison cannot take a pair
    assert repeated(failed, count, pair, grid, Worker([(2, 2)] * 2), {}) == failed
    assert repeated(failed, count, pair, grid, Worker([(2, 3)] * 2), {}).misconception == RANDOM
    from dataclasses import replace

    named = replace(failed, misconception="embed_cls_appended", hint_kind=MISTAKE)
    assert repeated(named, check, planned, first, Worker([]), {}) == named


def test_a_listed_mistake_registered_as_a_rewrite_computes_what_its_name_says():
    """misconceptions.instance: the error model's rewrite by name, no code of its own; every
    one resolves, and a few compute the mistake they are listed as."""
    from grader.reference.misconceptions import MISCONCEPTIONS, Rewritten

    instances = {n: m for n, m in MISCONCEPTIONS.items() if isinstance(m, Rewritten)}
    assert len(instances) >= 13
    image = np.arange(4 * 6 * 3, dtype=float).reshape(4, 6, 3)
    for name, mistake in instances.items():
        if mistake.function == "patchify":
            assert mistake(image, 2).shape == (6, 12), name
    x = np.array([[0.0, 1000.0], [1.0, 2.0]])
    with np.errstate(all="ignore"):
        assert np.isnan(MISCONCEPTIONS["softmax_without_max"](x)[0, 1])  # inf / inf
    grid = MISCONCEPTIONS["patchify_grid_transposed"](image, 2)
    assert np.array_equal(grid[1], REFERENCE["patchify"](image, 2)[3])  # down the columns
    assert MISCONCEPTIONS["cls_always"](8, 8, 4, cls_token=False) == 5
    assert MISCONCEPTIONS["channels_forgotten"](16, C=3) == 256


def test_a_code_right_for_gray_and_rgb_only_and_a_raise_said_as_such():
    """A channel check from a PIL tutorial (`C in (1, 3)` or ValueError): right for one and three
    channels (both seen right), a C passed by position or left at its default (3) read as the
    reference reads it; the failed case's raise said in place of "wrong"."""
    check = _Check("patch_dim", [])
    check.folder = None
    gray, rgb, default, four = _case((4, 1)), _case((2, 3)), _case((8,)), _case((14, 4))
    from grader.worker.outcomes import CallOutcome, StudentError
    refused = CallOutcome("raised", error=StudentError("ValueError", "C must be 1 or 3", "", None))
    name, hint = generalisation(check, [gray, rgb, default], four, [], [(four, refused)])
    assert name == "only_gray_or_rgb"
    assert hint.startswith("Your `patch_dim` is right for one and three channels (gray and RGB), "
                           "and raises ValueError for 4 channels")
    assert generalisation(check, [gray, rgb], four, [default]) is None  # wrong at C=3 belies it
    assert generalisation(check, [gray], four) is None  # right for C=1 only: no RGB seen
    images = _Check("patchify", [])
    images.folder = None
    rgba = _case((np.zeros((4, 4, 4)), 2))
    found = generalisation(images, [_case((np.zeros((4, 4)), 2)), _case((np.zeros((4, 4, 3)), 2))],
                           rgba)
    assert found[0] == "only_gray_or_rgb"
    assert generalisation(images, [_case((np.zeros((4, 4)), 2))], rgba)[0] == "only_one_channel"


def test_a_tuple_whose_one_item_is_the_expected_value_is_named_and_only_then():
    """Blind round 57's b57_05: `self_attention` ported from ijepa's `Attention.forward` returns
    `(x, attn)`; its first item is right, so the extra items are the mistake
    (kinds/returned_items.py). Not named where no item is right (a second mistake), where two
    items are, where the expected value is a tuple itself, or where a case raised."""
    from dataclasses import replace as with_

    from grader.checks.kinds.returned_items import EXTRA_ITEMS, extra_items
    from grader.worker.outcomes import CallOutcome

    right = np.arange(6.0).reshape(3, 2)

    class Check:
        function = "self_attention"
        compare = Compare(mode="allclose")

    def ran(*values, expected=right):
        return [(with_(_case(()), _expectation=(expected, None)), CallOutcome("ok", value))
                for value in values]

    failed = CheckResult("one head", 1, 0, FAILED, "differs", hint="the checklist")
    named = extra_items(failed, Check(), ran((right, np.ones((2, 3, 3))), (right, None)))
    assert named.misconception == EXTRA_ITEMS and named.hint_kind == "mistake"
    assert named.hint.startswith("Your `self_attention` returns a tuple of 2 values where the "
                                 "student API's `self_attention` returns one: its first item")
    second = extra_items(failed, Check(), ran([np.zeros(2), right]))
    assert "its second item" in second.hint
    for values, expected in (([(right + 1, right * 0)], right),      # no item right
                             ([(right, right.copy())], right),       # two items right
                             ([(right, right)], (right, right)),     # a tuple is expected
                             ([(right, 1), (right + 1, 1)], right),  # one case's item is wrong
                             ([right + 1], right)):                  # no tuple at all
        assert extra_items(failed, Check(), ran(*values, expected=expected)) is failed
    raised = [(with_(_case(()), _expectation=(right, None)), CallOutcome("raised"))]
    assert extra_items(failed, Check(), raised) is failed


def test_a_tuple_whose_first_items_are_the_expected_tuple_is_named_and_only_then():
    """Blind round 69's b69_10: `conv_equivalent` returns (kernel_size, stride, padding) where
    (kernel_size, stride) belongs; its first two items are right on every case, so the items
    after them are the mistake (kinds/returned_items.py). Not named where the first items are
    not the expected ones, where the tuple is not longer, on one case's wrong items, or where a
    case raised; a hidden check's values are not quoted."""
    from dataclasses import replace as with_

    from grader.checks.kinds.returned_items import EXTRA_AFTER, extra_items
    from grader.worker.outcomes import CallOutcome

    class Check:
        function = "conv_equivalent"
        compare = None
        hidden = False

    def ran(*pairs):
        return [(with_(_case(()), _expectation=(expected, None)), CallOutcome("ok", value))
                for expected, value in pairs]

    failed = CheckResult("conv_equivalent(P)", 1, 0, FAILED, "differs", hint="the checklist")
    named = extra_items(failed, Check(), ran(((16, 16), (16, 16, 0)), ((4, 4), (4, 4, 0))))
    assert named.misconception == EXTRA_AFTER and named.hint_kind == "mistake"
    assert named.hint.startswith("Your `conv_equivalent` returns 3 values, (16, 16, 0): the "
                                 "first two are the expected ones"), named.hint
    assert "Return only those 2 values" in named.hint
    Check.hidden = True
    assert "(16, 16, 0)" not in extra_items(failed, Check(), ran(((16, 16), (16, 16, 0)))).hint
    for pairs in ([((16, 16), (16, 8, 16))],               # the first items are not right
                  [((16, 16), (16, 16))],                  # not longer
                  [((16, 16), (16, 16, 0)), ((4, 4), (4, 2, 0))],  # one case's items wrong
                  [((16, 16), 16)]):                       # no tuple at all
        assert extra_items(failed, Check(), ran(*pairs)) is failed, pairs
    raised = [(with_(_case(()), _expectation=((16, 16), None)), CallOutcome("raised"))]
    assert extra_items(failed, Check(), raised) is failed


def test_every_square_claim_the_error_model_writes_is_one_it_can_take_back():
    """A named mistake's "(right only when H == W)" is said only where no square case of the
    function failed (square_claims.py): every sentence of every rewrite of the reference that
    says H == W says it in a form square_unclaimed takes out, and keeps the rest."""
    from grader.checks.kinds.square_claims import square_unclaimed
    from grader.reference.error_model import model

    claim = re.compile(r"right[^.;:]* when (?:H == W|W == H)")
    said = [edit.sentence for function in REFERENCE.values() if (built := model(function))
            for edit in built[1] if claim.search(edit.sentence)]
    assert len(said) >= 4, said  # the sibling term, the square grid, rows, count, windows
    for sentence in said:
        taken = square_unclaimed(sentence)
        assert not claim.search(taken), sentence
        assert taken.startswith(sentence[:40]) and len(taken) > len(sentence) - 40, taken
