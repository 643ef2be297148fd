"""A property check's hint is true of the student's code (issue 38, "never a wrong hint"): the
spec's hint of `positions_break_permutation` blames embed_image ("a bag of tiles"), so it is
shown only when the student's embed_image is one; when embed_image tells the moved tiles apart
and self_attention loses it (b10_08's einsum that sums the values), the property says that."""
from __future__ import annotations

import json

import numpy as np
import pytest

from grader import load_specs
from grader.checks.kinds import PropertyCheck
from grader.checks.results import CHECKLIST, FAILED, MISTAKE, OBSERVATION
from grader.reference import REFERENCE
from grader.worker import CallOutcome
from grader.worker.values import Decoder

from conftest import EXERCISES


class LocalWorker:
    """Calls Python functions here, as a worker's `call_many` would call a submission's."""

    def __init__(self, functions):
        self.functions = functions

    def call_many(self, name, calls, **options):
        outcomes = []
        for call in calls:
            args, kwargs = Decoder(list(call.blobs)).decode(json.loads(call.json))
            outcomes.append(CallOutcome("ok", value=self.functions[name](*args, **kwargs)))
        return outcomes


def _check():
    exercises, errors = load_specs(EXERCISES)
    assert not errors
    return next(c for e in exercises for c in e.checks if isinstance(c, PropertyCheck)
                and c.property_name == "positions_break_permutation")


def _without_positions(image, params):
    return REFERENCE["embed_image"](image, {**params, "pos": np.zeros_like(params["pos"])})


def _values_summed(x, p, heads):
    """Every output row the sum of the values (b10_08): a function of the bag of rows only."""
    v = np.asarray(x) @ p["Wv"] + p["bv"]
    return np.tile(v.sum(axis=0), (len(x), 1)) @ p["Wo"] + p["bo"]


@pytest.mark.parametrize("embed, attend, passed, lost", [
    (REFERENCE["embed_image"], REFERENCE["self_attention"], True, None),
    (_without_positions, REFERENCE["self_attention"], False, False),  # the spec's hint is true
    (_without_positions, _values_summed, False, False),  # embed_image is a bag: it is said
    (REFERENCE["embed_image"], _values_summed, False, True),  # positions lost in attention
])
def test_the_bag_of_tiles_hint_is_shown_only_when_embed_image_is_a_bag(embed, attend, passed,
                                                                       lost):
    check = _check()
    worker = LocalWorker({"embed_image": embed, "self_attention": attend})
    result = check.grade(None, worker, None)
    assert result.passed == passed
    if passed:
        return
    assert result.status == FAILED and result.score == 0
    if lost:
        assert result.misconception == "positions_lost_in_attention"
        assert result.hint_kind == OBSERVATION and result.hint != check.hint
        assert "bag of tiles" not in result.hint.lower()
        assert result.hint.startswith("Your `embed_image` tells where a tile was")
        assert "lost in `self_attention`" in result.hint
    else:
        assert result.misconception == "bag_of_tiles"
        assert result.hint == check.hint and result.hint_kind == CHECKLIST


def test_a_far_shift_is_named_a_one_pass_variance_only_when_it_gives_every_value():
    """The shift property's far trial (x + 1e7): a variance taken in one pass, written in
    another style (`np.mean(x ** 2) - np.mean(x) ** 2`), gives the student's values on every
    call and is named; a variance taken in float32 also fails far from zero, with other values,
    and is not."""
    from grader.checks.properties import FAR, digits_lost

    rng = np.random.default_rng(7)
    trials = [(rng.standard_normal((3, 5)), rng.standard_normal(5), rng.standard_normal(5), s)
              for s in (2.5, FAR)]

    def one_pass(x, gamma, beta, eps=1e-6):
        mean = np.mean(x, axis=-1, keepdims=True)
        var = np.mean(x ** 2, axis=-1, keepdims=True) - np.mean(x, axis=-1, keepdims=True) ** 2
        return (x - mean) / np.sqrt(var + eps) * gamma + beta

    def in_float32(x, gamma, beta, eps=1e-6):
        var = np.var(x.astype(np.float32), axis=-1, keepdims=True).astype(np.float64)
        return (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(var + eps) * gamma + beta

    def answers(student):
        with np.errstate(all="ignore"):
            return [student(*call) for x, g, b, s in trials for call in ((x, g, b), (x + s, g, b))]
    named = digits_lost("differs", trials, answers(one_pass))
    assert named.misconception == "layer_norm_one_pass_variance" and named.named
    assert "one pass" in named.hint
    other = digits_lost("differs", trials, answers(in_float32))
    assert other.misconception is None and other.message == "differs"
    assert not np.allclose(answers(in_float32)[-1], answers(one_pass)[-1])
    # a NaN is said only where the student's values hold one (blind round 57's b57_12, whose
    # `math.sqrt` raises on a negative variance, was told "its square root is NaN")
    assert "NaN" not in named.hint and not any(np.isnan(a).any() for a in answers(one_pass))
    tight = [(np.full((2, 4), 0.3) + 1e-9 * np.arange(4), np.ones(4), np.zeros(4), FAR)]
    assert any(np.isnan(a).any() for a in answers_of(one_pass, tight))
    nan = digits_lost("differs", tight, answers_of(one_pass, tight))
    assert nan.misconception == "layer_norm_one_pass_variance"
    assert "below zero its square root is NaN, as yours gave" in nan.hint


def test_a_one_pass_variance_is_named_however_its_sums_are_added():
    """Blind round 58's b58_13 (TensorRT's layerNorm plugin): each term scaled by 1/ld, then
    summed, loses other digits than mean(x * x) - mean**2 does, so the far trial's values differ
    from that one reading; every way code adds the two sums is tried (a Python loop too) and a
    one-pass variance is named where one of them gives every value. A two-pass variance written
    with the same scaled sums is right and not named; neither is one whose sums are kept in
    float32 (other values)."""
    from grader.checks.digits_lost import one_pass_layer_norm
    from grader.checks.properties import FAR, digits_lost

    rng = np.random.default_rng(58)
    trials = [(rng.standard_normal((T, d)), rng.standard_normal(d), rng.standard_normal(d), s)
              for (T, d), s in (((2, 7), 1.5), ((5, 7), -3.0), ((4, 6), FAR))]

    def tensorrt(x, gamma, beta, eps=1e-6):
        rld = 1.0 / x.shape[-1]
        mu = np.sum(x * rld, axis=-1, keepdims=True)
        rsigma = 1.0 / np.sqrt(np.sum(x * x * rld, axis=-1, keepdims=True) - mu * mu + eps)
        return gamma * (x - mu) * rsigma + beta

    def looped(x, gamma, beta, eps=1e-6):
        out = np.empty_like(x)
        for i, row in enumerate(x):
            total = square = 0.0
            for value in row:
                total, square = total + value, square + value * value
            mean = total / len(row)
            out[i] = (row - mean) / np.sqrt(square / len(row) - mean * mean + eps)
        return out * gamma + beta

    def two_pass(x, gamma, beta, eps=1e-6):
        rld = 1.0 / x.shape[-1]
        mu = np.sum(x * rld, axis=-1, keepdims=True)
        var = np.sum((x - mu) ** 2 * rld, axis=-1, keepdims=True)
        return gamma * (x - mu) / np.sqrt(var + eps) + beta

    def float32_sums(x, gamma, beta, eps=1e-6):
        low = x.astype(np.float32)
        mu = low.mean(axis=-1, keepdims=True).astype(np.float64)
        square = (low * low).mean(axis=-1, keepdims=True).astype(np.float64)
        return (x - mu) / np.sqrt(np.abs(square - mu * mu) + eps) * gamma + beta

    far = trials[-1][0] + FAR, trials[-1][1], trials[-1][2]
    with np.errstate(all="ignore"):  # the one reading of before gives other values here
        assert not np.allclose(tensorrt(*far), one_pass_layer_norm(*far), rtol=1e-4, atol=1e-5)
    for student in (tensorrt, looped):
        named = digits_lost("differs", trials, answers_of(student, trials))
        assert named.misconception == "layer_norm_one_pass_variance" and named.named, student
        assert "one pass" in named.hint
    assert np.allclose(two_pass(*far), two_pass(*trials[-1][:3]), rtol=1e-4, atol=1e-5)
    for student in (two_pass, float32_sums):
        assert digits_lost("differs", trials, answers_of(student, trials)).misconception is None


def answers_of(student, trials):
    with np.errstate(all="ignore"):
        return [student(*call) for x, g, b, s in trials for call in ((x, g, b), (x + s, g, b))]


def test_a_far_shift_is_named_a_float32_computation_only_when_it_gives_every_value():
    """LayerNorm computed in float32 (Keras' and JAX's compute dtype), written in another style
    (`astype`, the variance as the mean of squared deviations), gives the student's values on
    every call of the far trial and is named; float64 code that only takes its variance in
    float32, or float32 code with another eps, is not (their values differ)."""
    from grader.checks.properties import FAR, NAMED, digits_lost

    rng = np.random.default_rng(11)
    trials = [(rng.standard_normal((4, 6)), rng.standard_normal(6), rng.standard_normal(6), s)
              for s in (-1.5, 3.0, FAR)]

    def keras(x, gamma, beta, eps=1e-6):
        x = x.astype(np.float32)
        mean = x.mean(axis=-1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        return (x - mean) / np.sqrt(var + eps) * gamma + beta

    def variance_only(x, gamma, beta, eps=1e-6):
        var = np.var(x.astype(np.float32), axis=-1, keepdims=True).astype(np.float64)
        return (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(var + eps) * gamma + beta

    def keras_eps(x, gamma, beta):  # Keras' own default epsilon, 1e-3
        return keras(x, gamma, beta, eps=1e-3)

    def answers(student):
        with np.errstate(all="ignore"):
            return [student(*call) for x, g, b, s in trials for call in ((x, g, b), (x + s, g, b))]
    named = digits_lost("differs", trials, answers(keras))
    assert named.misconception == "layer_norm_float32" and named.named
    assert named.hint == NAMED["layer_norm_float32"]
    for other in (variance_only, keras_eps):
        assert digits_lost("differs", trials, answers(other)).misconception is None


def _masked(x, p, heads, causal=False):
    return REFERENCE["self_attention"](x, p, heads, causal=True)


def _causal_by_default(x, p, heads, causal=True):  # minGPT's signature
    return REFERENCE["self_attention"](x, p, heads, causal=causal)


@pytest.mark.parametrize("property_name", ["no_causal_mask_by_default",
                                           "attention_permutation_equivariant"])
@pytest.mark.parametrize("attend, named", [(_causal_by_default, True), (_masked, False)])
def test_a_causal_default_is_named_only_when_causal_false_passed_is_right(property_name,
                                                                          attend, named):
    """minGPT's `causal=True` default is named (a call without `causal` is causal=True's, and
    causal=False passed makes the property hold); a mask applied whatever `causal` says is
    not: causal=False passed masks too, so the default is not the cause."""
    exercises, errors = load_specs(EXERCISES)
    assert not errors
    check = next(c for e in exercises for c in e.checks if isinstance(c, PropertyCheck)
                 and c.property_name == property_name)
    result = check.grade(None, LocalWorker({"self_attention": attend}), None)
    assert result.status == FAILED
    if named:
        assert result.misconception == "causal_default_true" and result.hint_kind == MISTAKE
        assert "causal=False passed" in result.hint
    else:
        assert result.misconception != "causal_default_true" and result.hint_kind != MISTAKE


def _attends_itself(x, p, heads, causal=False):  # yipkingster/ml's split_heads on a (T, d) x
    return (x @ p["Wv"] + p["bv"]) @ p["Wo"] + p["bo"]


def _graded_first_sees_last(attend):
    """(check, its failed result) of no-causal-mask's default check on `attend`."""
    exercises, errors = load_specs(EXERCISES)
    assert not errors
    check = next(c for e in exercises for c in e.checks if isinstance(c, PropertyCheck)
                 and c.property_name == "no_causal_mask_by_default")
    result = check.grade(None, LocalWorker({"self_attention": attend}), None)
    assert result.status == FAILED
    return check, result


@pytest.mark.parametrize("attend, causal", [(_attends_itself, False), (_masked, True)])
def test_no_causal_mask_is_claimed_only_where_tokens_see_earlier_ones(attend, causal):
    """A code whose tokens see no other token fails "the first token sees the last one" as a
    causal mask does, but its checklist's "that is GPT's causal mask" would be untrue: changing
    x[0] changes no other row either, so the property says that instead, and names no mask; a
    causal mask (every token sees token 0) keeps the spec's checklist and gpt_causal_mask."""
    check, result = _graded_first_sees_last(attend)
    if causal:
        assert result.misconception == "gpt_causal_mask" and result.hint == check.hint
    else:
        assert result.misconception is None and result.hint_kind == OBSERVATION
        assert "no causal mask" in result.hint and "causal=True" not in result.hint


def _loop_one_pass(x, gamma, beta, eps=1e-6):  # running sums per row, float64 (a torch note's)
    x = np.asarray(x, dtype=float)
    rows = x.reshape(-1, x.shape[-1])
    out = np.empty_like(rows)
    for i, row in enumerate(rows):
        total = squares = 0.0
        for value in row:
            total, squares = total + value, squares + value * value
        mean = total / len(row)
        out[i] = (row - mean) / np.sqrt(squares / len(row) - mean * mean + eps)
    return (out * gamma + beta).reshape(x.shape)


def _two_pass(x, gamma, beta, eps=1e-6):  # right: the variance about the mean
    x = np.asarray(x, dtype=float)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


@pytest.mark.parametrize("norm, named", [(_loop_one_pass, True), (_two_pass, False)])
def test_a_one_pass_variance_in_float64_is_a_named_mistake_not_the_float64_checklist(norm, named):
    """Round 53 (b53_05): float64 code whose variance is E[x^2] - E[x]^2 failed the shift
    property with the spec's checklist, whose "computed in float64" it already follows; the
    property's verdict, checked on every call it made, is said as a named mistake in its own
    words. A two-pass variance passes."""
    exercises, errors = load_specs(EXERCISES)
    assert not errors
    check = next(c for e in exercises for c in e.checks if isinstance(c, PropertyCheck)
                 and c.property_name == "layer_norm_shift_invariant")
    with np.errstate(all="ignore"):
        result = check.grade(None, LocalWorker({"layer_norm": norm}), None)
    if not named:
        assert result.passed
        return
    assert result.status == FAILED and result.hint_kind == MISTAKE
    assert result.misconception == "layer_norm_one_pass_variance"
    assert "mean(x**2) - mean(x)**2" in result.hint and result.hint != check.hint


def _normalised_first(x, p, heads, causal=False):  # a LayerNorm on x inside self_attention
    x = np.asarray(x, dtype=float)
    x = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-6)
    return REFERENCE["self_attention"](x, p, heads, causal=causal)


def _causal_then_normalised(x, p, heads, causal=False):  # GPT's mask and the LayerNorm above
    return _normalised_first(x, p, heads, causal=True)


@pytest.mark.parametrize("attend, mask", [(_normalised_first, False),
                                          (_causal_then_normalised, True)])
def test_a_mask_is_claimed_only_where_a_larger_change_of_the_last_token_is_unseen_too(attend,
                                                                                      mask):
    """Round 76 (b76_08): a LayerNorm on x maps each row of a d=2 input to about (1, -1) or
    (-1, 1), so a random new last row can leave every output unchanged with no mask at all.
    "Token 0 cannot see the last token ... GPT's causal mask" is said only when a change of the
    last row that no normalisation hides (its differences from its mean reversed and scaled up)
    leaves token 0's output unchanged in every trial too; else what was observed, no mask."""
    check, result = _graded_first_sees_last(attend)
    if mask:
        assert result.misconception == "gpt_causal_mask" and result.hint == check.hint
        assert "cannot see the last token" in result.message
    else:
        assert result.misconception is None and result.hint_kind == OBSERVATION
        text = result.message + result.hint
        assert "mask" not in text and "cannot see" not in text


def _heads_cut_from_the_flat_rows(x, p, heads, causal=False):  # q.reshape(heads, T, d_h) bare
    x = np.asarray(x, dtype=float)
    T, d = x.shape

    def split(t):  # the flat (T * d) numbers cut into `heads` runs: head 0 reads the first rows
        return np.stack([run.reshape(T, d // heads) for run in np.split(t.ravel(), heads)])

    q, k, v = (split(x @ p[f"W{n}"] + p[f"b{n}"]) for n in "qkv")
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(d // heads)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    out = (weights / weights.sum(-1, keepdims=True)) @ v
    return out.reshape(T, d) @ p["Wo"] + p["bo"]


def test_a_step_that_collapses_last_rows_is_claimed_only_where_the_same_call_shows_it():
    """Round 77 (b77_06): heads cut from the flat (T * d) numbers, head 0 reading only the
    first rows, so with heads >= 2 no change of x[-1] reaches token 0; it changed only in a
    trial with one head, where the code is right. "Some step of your `self_attention` gives
    the same result for different last rows" was said: no step does. The observation alone
    is said, with no mask and no collapsing step; b76_08's LayerNorm (the test above) still
    gets the step, its own call's larger change reaching token 0."""
    check, result = _graded_first_sees_last(_heads_cut_from_the_flat_rows)
    assert result.misconception is None and result.hint_kind == OBSERVATION, result.hint
    text = result.message + result.hint
    assert "mask" not in text and "cannot see" not in text, text
    assert "same result for different last rows" not in text, text
    assert "did not change" in result.hint, result.hint
    _, normalised = _graded_first_sees_last(_normalised_first)
    assert "same call" in normalised.hint and "different last rows" in normalised.hint, (
        normalised.hint)
