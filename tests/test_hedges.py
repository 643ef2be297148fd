"""The hedged observations of dependencies.py ("as its mistake may be what fails here") are said
only where nothing the grader saw rules them out (issue 38, blind rounds 44 and 45: never a wrong
hint). Each submission is the solution with one snippet replaced, graded in a worker over the
exercises the check and its functions' own checks belong to."""
from __future__ import annotations

from dataclasses import replace

import pytest
from buggy_submissions import build_submission

from grader.checks import SubmissionGrading
from grader.checks.results import CHECKLIST, OBSERVATION
from grader.worker import StudentWorker

from conftest import SUBMISSIONS

COUNTS = ("patch-count", "token-count", "attention-cost")
ATTENTION = ("stable-softmax", "multi-head-attention", "no-causal-mask")
PAIRED = "a smaller patch versus a larger one"
CAUSAL = "causal=True gives GPT's mask"


@pytest.fixture(scope="module")
def grade(catalogue, tmp_path_factory):
    def run(snippet: str, ids: tuple) -> dict:
        folder = tmp_path_factory.mktemp("snippet")
        (folder / "snippet.py").write_text(snippet)
        exercises = [e for e in catalogue if e.id in ids]
        with StudentWorker(build_submission(folder / "snippet.py", folder)) as worker:
            grading = SubmissionGrading(worker, catalogue=exercises)
            return {e.id: grading.exercise(e) for e in exercises}
    return run


def _check(results: dict, exercise: str, name: str):
    return next(c for c in results[exercise].checks if c.name.startswith(name))


def test_a_function_whose_values_are_the_expected_ones_here_is_not_blamed(grade):
    """Round 45's b45_13: `num_tokens` reads H for W (wrong on non-square images, losing points
    in token-count) and `attention_scores` squares T + 1. The paired check's images are square:
    its printed num_tokens values are the expected ones, so it must not be blamed; the one whose
    values differ is said instead."""
    fixture = SUBMISSIONS / "buggy" / "vit_flops_config_square_grid_from_height_cls_added_again.py"
    results = grade(fixture.read_text(), COUNTS)
    assert results["token-count"].score < results["token-count"].max_score
    check = _check(results, "attention-cost", PAIRED)
    assert not check.passed and check.hint_kind == OBSERVATION
    assert "`num_tokens` loses" not in check.hint
    assert "Your `num_tokens` returns the expected values here; your `attention_scores` returns " \
           "other values" in check.hint


FORGOT_CLS = '''
"""num_tokens without [CLS]: wrong on every image, the paired check's square ones too."""
EXPECT = {"token-count": None}


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P)
'''


def test_a_function_whose_values_differ_here_is_still_pointed_at_its_exercise(grade):
    """The correct variant's guard: `num_tokens` forgets [CLS], so its values in the paired
    check differ, and it loses points in token-count: said, with where to fix it."""
    results = grade(FORGOT_CLS, COUNTS)
    check = _check(results, "attention-cost", PAIRED)
    assert not check.passed and check.hint_kind == OBSERVATION
    assert "Your `attention_scores` returns the expected values here; your `num_tokens` returns " \
           "other values" in check.hint
    assert "Your `num_tokens` loses points in its own exercise (token-count)" in check.hint


def _self_attention(scores: str) -> str:
    """A submission's self_attention: `scores` its score line, a causal mask that adds a ramp
    to the scores (no mistake the grader names) in place of GPT's."""
    return f'''
"""self_attention with a causal mask that adds to the scores."""
EXPECT = {{"no-causal-mask": None}}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    dh = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, dh).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, dh).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, dh).transpose(1, 0, 2)
    {scores}
    if causal:
        scores = scores + 0.5 * np.tril(np.ones((T, T))) * np.arange(T)
    out = softmax(scores, axis=-1) @ v
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
'''


def test_a_mistake_seen_with_several_heads_only_is_not_blamed_for_a_one_head_case(grade):
    """Round 45's b45_08 before its mask was named: a multi-head mistake (here the key's heads
    taken in reverse order: every call with several heads fails there, every one-head call
    passes) was said to "may be what fails here" on a causal check whose failing case has one
    head, where it cannot be."""
    results = grade(_self_attention(
        "scores = q @ k[::-1].transpose(0, 2, 1) / np.sqrt(dh)"), ATTENTION)
    mha = results["multi-head-attention"]
    assert _check(results, "multi-head-attention", "one head").passed
    assert mha.score < mha.max_score
    check = _check(results, "no-causal-mask", CAUSAL)
    assert not check.passed and check.hint_kind == OBSERVATION  # never expected/got alone
    assert "may be what fails here" not in check.hint
    assert "multi-head-attention, but only on calls unlike this case" in check.hint


def test_a_mistake_seen_with_every_head_count_is_still_pointed_at(grade):
    """The guard: scores scaled by 2 for any head count fail multi-head-attention's one-head
    calls too: nothing rules that mistake out of the causal check's failure, so it is said."""
    results = grade(_self_attention("scores = q @ k.transpose(0, 2, 1) * 2.0"), ATTENTION)
    assert not _check(results, "multi-head-attention", "one head").passed
    check = _check(results, "no-causal-mask", CAUSAL)
    assert not check.passed and check.hint_kind == OBSERVATION
    assert check.hint.startswith("Your `self_attention` also loses points in multi-head-attention")
    hidden = _check(results, "no-causal-mask", "random sequences with causal=True")
    assert hidden.hidden and not hidden.passed  # said in place of its checklist
    assert hidden.hint_kind == OBSERVATION and hidden.hint == check.hint


ADDITIVE_TRIU = '''
"""Blind round 49's b49_11: an additive mask `np.triu(np.full((T, T), -inf))` with no k=1."""
EXPECT = {"no-causal-mask": "attention_causal_diagonal"}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads

    def split(y):
        return y.reshape(T, heads, d_h).transpose(1, 0, 2)

    q, k, v = (split(x @ p[f"W{n}"] + p[f"b{n}"]) for n in "qkv")
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_h)
    if causal:
        scores = scores + np.triu(np.full((T, T), float("-inf")))
    out = softmax(scores, axis=-1) @ v
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
'''


def test_a_diagonal_hidden_by_an_additive_triu_is_told_a_fix_true_of_its_own_mask(grade):
    """Blind round 49 (b49_11): "keep np.tril(ones), k=0" was said to a mask written as a -inf
    upper triangle added to the scores, whose fix is k=1 on its triu: the fix is said for a
    mask of the hidden scores and for one of the kept ones alike."""
    results = grade(ADDITIVE_TRIU, ("no-causal-mask",))
    check = _check(results, "no-causal-mask", CAUSAL)
    assert not check.passed and check.misconception == "attention_causal_diagonal"
    assert "np.triu(..., k=1) for a mask of the hidden scores" in check.hint
    assert "np.tril(ones), k=0, for a mask of the kept ones" in check.hint


def test_a_mistake_seen_only_on_refusals_is_not_blamed_for_a_value_returned(grade):
    """Blind round 51's b51_10: multi-head-attention's only failures were an `assert` where
    ValueError is due (heads that do not divide d), yet the causal check's one-head case, which
    returned a value, was told "the mistake there may be what fails here too". A refusal's
    mistake is not offered for a case that was due a value and returned one."""
    snippet = _self_attention("scores = q @ k.transpose(0, 2, 1) / np.sqrt(dh)").replace(
        'if d % heads:\n        raise ValueError("heads must divide d")', "assert d % heads == 0")
    results = grade(snippet, ATTENTION)
    mha = results["multi-head-attention"]
    assert mha.score < mha.max_score and _check(results, "multi-head-attention", "one head").passed
    check = _check(results, "no-causal-mask", CAUSAL)
    assert not check.passed and check.hint_kind == OBSERVATION
    assert "may be what fails here" not in check.hint
    assert "multi-head-attention, but only on inputs it must refuse" in check.hint


def test_a_check_with_nothing_elsewhere_shows_its_own_checklist(grade, catalogue):
    """Blind round 51 (b51_10 with its assert fixed): a causal mask no mistake names, in a
    `self_attention` that fails nowhere else, left the visible causal check with expected/got
    and no hint line. It shows its own checklist (since round 56; before, it had none and showed
    its hidden sibling's, which the student bundle does not have)."""
    results = grade(_self_attention("scores = q @ k.transpose(0, 2, 1) / np.sqrt(dh)"), ATTENTION)
    assert results["multi-head-attention"].score == results["multi-head-attention"].max_score
    check = _check(results, "no-causal-mask", CAUSAL)
    exercise = next(e for e in catalogue if e.id == "no-causal-mask")
    checklist = next(c.hint for c in exercise.checks if c.name.startswith(CAUSAL))
    assert checklist and not check.passed and check.hint_kind == CHECKLIST
    assert check.hint == checklist


def test_a_visible_check_with_no_checklist_borrows_none_from_a_hidden_check(catalogue, tmp_path):
    """A visible check with no checklist of its own, whose function fails nowhere else,
    showed its exercise's hidden check's checklist in the full grader and no hint line in the
    student bundle (which has no hidden check): test_bundle's d2l fixture once the visible check
    met a case its mistake could not be named on. It borrows a visible check's only, so the two
    say the same; every shipped call check has its own (test_authoring)."""
    exercise = next(e for e in catalogue if e.id == "no-causal-mask")
    bare = replace(exercise, checks=tuple(replace(c, hint=None) if c.name.startswith(CAUSAL)
                                          else c for c in exercise.checks))
    assert any(c.hidden and c.hint and c.function == "self_attention" for c in bare.checks)
    bundled = replace(bare, checks=tuple(c for c in bare.checks if not c.hidden))
    (tmp_path / "snippet.py").write_text(
        _self_attention("scores = q @ k.transpose(0, 2, 1) / np.sqrt(dh)"))
    said = []
    for graded in (bare, bundled):
        with StudentWorker(build_submission(tmp_path / "snippet.py", tmp_path)) as worker:
            result = SubmissionGrading(worker, catalogue=[graded]).exercise(graded)
        said.append(_check({"e": result}, "e", CAUSAL))
    assert not said[0].passed and said[0].message == said[1].message
    assert said[0].hint == said[1].hint is None  # never the hidden check's words


PIPELINE = ("stable-softmax", "layer-norm", "multi-head-attention", "encoder-block",
            "vit-forward", "vit-checkpoint")
WHOLE_ARRAY_LAYER_NORM = '''
def layer_norm(x, gamma, beta, eps=1e-6):
    mu = np.mean(x, keepdims=True)
    return (x - mu) / np.sqrt(np.var(x, keepdims=True) + eps) * gamma + beta
'''


def _softmax(axis: str) -> str:
    """A softmax that normalises along `axis` whatever it is given, and a layer_norm over the
    whole array (blind round 51's b51_09)."""
    return f'''
"""softmax along one axis only; layer_norm over the whole array."""
EXPECT = {{"stable-softmax": None, "layer-norm": None}}


def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis={axis}, keepdims=True))
    return e / np.sum(e, axis={axis}, keepdims=True)
''' + WHOLE_ARRAY_LAYER_NORM


def test_a_helper_the_pipeline_calls_rightly_is_not_blamed_end_to_end(grade):
    """Blind round 51's b51_09: a softmax that ignores `axis` (right for the pipeline's axis=-1)
    was said to "may be what fails" the checkpoint and to be what encoder-block and vit-forward
    depend on ("fix `softmax` first"): with layer_norm alone standing in they pass, so only
    layer_norm is said."""
    results = grade(_softmax("-1"), PIPELINE)
    assert results["stable-softmax"].score < results["stable-softmax"].max_score
    assert results["encoder-block"].stand_ins == ("layer_norm",)
    assert results["vit-forward"].stand_ins == ("layer_norm",)
    for check in results["vit-checkpoint"].checks:
        assert not check.passed and check.hint_kind == OBSERVATION
        assert "`layer_norm` loses points" in check.hint and "softmax" not in check.hint


def test_a_helper_the_pipeline_needs_is_still_blamed_end_to_end(grade):
    """The guard: a softmax along axis 0 whatever it is given breaks the attention too: both
    stand in, and both are said on the checkpoint."""
    results = grade(_softmax("0"), PIPELINE)
    assert set(results["vit-forward"].stand_ins) == {"layer_norm", "softmax"}
    check = _check(results, "vit-checkpoint", "the checkpoint's logits")
    assert "Your `layer_norm` and `softmax` lose points" in check.hint


AVERAGED = '''
"""Blind round 51's b51_13: the head reads the mean of every token, not the [CLS] row."""
EXPECT = {"vit-forward": None}


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x.mean(axis=0) @ params["W_head"] + params["b_head"]
'''


def test_the_function_a_pipeline_check_calls_is_not_told_your_code_may_not_use_it(grade):
    """Blind round 51's b51_13: "where this run uses it (the lecture's pipeline does; your code
    may not)" was said of `vit_forward`, which the checkpoint check calls itself."""
    results = grade(AVERAGED, ("vit-forward", "vit-checkpoint"))
    check = _check(results, "vit-checkpoint", "the checkpoint's logits")
    assert not check.passed and check.hint_kind == OBSERVATION
    assert ("Your `vit_forward` loses points in its own exercise (vit-forward): fix it there "
            "first, as its mistake may be what fails here.") in check.hint
    assert "your code may not" not in check.hint


FLOORED_EMBED = '''
"""linear_patch_embed as a kernel = stride = P convolution with no tiling test (it floors a size
that does not tile); vit_forward's logits through ReLU."""
EXPECT = {"linear-patch-embed": None, "vit-forward": None}


def linear_patch_embed(image, W_e, b_e, P):
    image = _as_hwc(image)
    C, d = image.shape[2], W_e.shape[1]
    tokens = conv_patch_embed(image, W_e.reshape(P, P, C, d), b_e, P)
    return tokens.reshape(-1, d)


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return np.maximum(x[0] @ params["W_head"] + params["b_head"], 0)
'''


def test_a_helper_wrong_only_where_it_must_refuse_is_not_blamed_end_to_end(grade):
    """Blind round 54's b54_06: a `linear_patch_embed` whose only failures are sizes that do
    not tile (no ValueError) was told on the checkpoint, whose images all tile, "its mistake
    may be what fails here". An end-to-end case due a value that returned one is not offered a
    helper whose every failing call was due an exception; the function it calls still is."""
    results = grade(FLOORED_EMBED, ("linear-patch-embed", "vit-forward", "vit-checkpoint"))
    lpe = results["linear-patch-embed"]
    assert lpe.score < lpe.max_score
    assert all(c.passed or "ValueError" in c.name for c in lpe.checks)
    for check in results["vit-checkpoint"].checks:
        assert not check.passed and check.hint_kind == OBSERVATION
        assert "`vit_forward` loses points" in check.hint
        assert "linear_patch_embed" not in check.hint


def _batched_layer_norm(norm: str) -> str:
    """A layer_norm normalising over every axis but the first (right on a (T, d) sequence only,
    as the pipeline passes it: blind round 56's b56_05, here spelled with `axis=`), or over the
    whole array (wrong on (T, d) too); vit_forward's logits through a softmax."""
    return f'''
"""layer_norm per sample, not per token; vit_forward returns probabilities."""
EXPECT = {{"layer-norm": None, "vit-forward": None}}


def layer_norm(x, gamma, beta, eps=1e-6):
    axes = {norm}
    mu = np.mean(x, axis=axes, keepdims=True)
    return (x - mu) / np.sqrt(np.var(x, axis=axes, keepdims=True) + eps) * gamma + beta


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return softmax(x[0] @ params["W_head"] + params["b_head"])
'''


def test_a_helper_wrong_only_on_calls_the_pipeline_never_makes_is_not_blamed_end_to_end(grade):
    """Blind round 56's b56_05: a `layer_norm` wrong only on batched input, under a pipeline
    that passes it (T, d) arrays only, was told on the checkpoint "its mistake may be what
    fails here". Answered correctly, it changes none of the logits: only `vit_forward` is
    said."""
    results = grade(_batched_layer_norm("tuple(range(1, np.ndim(x)))"),
                    ("layer-norm", "vit-forward", "vit-checkpoint"))
    assert results["layer-norm"].score < results["layer-norm"].max_score
    for check in results["vit-checkpoint"].checks:
        assert not check.passed and check.hint_kind == OBSERVATION
        assert "`vit_forward` loses points" in check.hint
        assert "layer_norm" not in check.hint


def test_a_helper_wrong_on_the_pipelines_own_calls_is_still_blamed_end_to_end(grade):
    """The guard: a `layer_norm` over the whole array is wrong on (T, d) too: still said."""
    results = grade(_batched_layer_norm("None"), ("layer-norm", "vit-forward", "vit-checkpoint"))
    for check in results["vit-checkpoint"].checks:
        assert not check.passed and check.hint_kind == OBSERVATION
        assert "Your `layer_norm` loses points" in check.hint
        assert "`vit_forward` loses points" in check.hint


CHANNELS_LAST = '''
import numpy as np


def embed_image(image, params):
    P, C = params["P"], image.shape[-1]
    grid = image.reshape(image.shape[0] // P, P, image.shape[1] // P, P, C)
    x = grid.transpose(0, 2, 1, 3, 4).reshape(-1, P * P * C) @ params["W_e"] + params["b_e"]
    return np.concatenate([params["cls"][None, :], x]) + params["pos"]
'''


def test_a_raise_another_check_already_told_the_cause_of_points_to_it(grade):
    """Blind round 56's b56_10: `image.shape[-1]` as C raises for a gray (H, W) image. The check
    over RGB and gray images tells so; the worked example (a gray image) raised the same
    ValueError and was answered with the checklist about the [CLS] order, which is right."""
    results = grade(CHANNELS_LAST, ("cls-and-positions",))
    told = _check(results, "cls-and-positions", "RGB and gray images")
    assert told.hint_kind == OBSERVATION and "raises ValueError for a 2-D (H, W)" in told.hint
    worked = _check(results, "cls-and-positions", "the worked example")
    assert worked.hint_kind == OBSERVATION and "[CLS]" not in worked.hint
    assert worked.hint.startswith("Your `embed_image` raises ValueError here on an input of the "
                                  "kind the check \"RGB and gray images")
    tiles = _check(results, "cls-and-positions", "patches that do not tile")
    assert "raises ValueError here" not in (tiles.hint or "")  # a value where a raise belongs


FIXED_LENGTH_MASK = '''
"""A causal mask built once for {n} tokens, sliced to T (any T above {n} raises), under {scale}."""
EXPECT = {{"no-causal-mask": None}}


def self_attention(x, p, heads, causal=False):
    HIDDEN_ABOVE = np.triu(np.full(({n}, {n}), -np.inf), 1)  # a buffer of a fixed length
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    dh = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, dh).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, dh).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, dh).transpose(1, 0, 2)
    scores = q @ k.transpose(0, 2, 1) / np.sqrt({scale})
    if causal:
        scores = scores + HIDDEN_ABOVE[:T, :T]
    out = softmax(scores, axis=-1) @ v
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
'''


def _raising_cases(results: dict, exercise: str, name: str) -> bool:
    return "your code raised ValueError" in _check(results, exercise, name).message


def test_a_case_that_raised_is_told_what_raised_not_a_mistake_that_returns_values(grade):
    """Blind round 71's b71_08: multi-head-attention's failures were all wrong values (scores
    over sqrt(d)), yet the hidden causal check, whose failing case raised ValueError from a mask
    built for a few tokens, was told "the mistake there may be what fails here too". A case that
    raised where no failing call there raised the same is told what raised, at the student's
    line."""
    results = grade(FIXED_LENGTH_MASK.format(n=6, scale="d"), ATTENTION)
    hidden = _check(results, "no-causal-mask", "random sequences with causal=True")
    assert not hidden.passed and _raising_cases(results, "no-causal-mask", "random sequences")
    assert not _raising_cases(results, "multi-head-attention", "random widths")
    assert "may be what fails here" not in hidden.hint
    assert hidden.hint_kind == OBSERVATION
    assert hidden.hint.startswith("Your `self_attention` raised ValueError on this case")
    assert "scores = scores + HIDDEN_ABOVE[:T, :T]" in hidden.hint
    assert "multi-head-attention, but there no failing call raised ValueError" in hidden.hint


def test_a_case_that_raised_as_the_calls_there_did_is_still_pointed_there(grade):
    """The guard: the same mask added whether causal or not, so that multi-head-attention's long
    sequences raise ValueError too: that mistake may be what raised here, and it is said."""
    snippet = FIXED_LENGTH_MASK.format(n=6, scale="d").replace(
        "    if causal:\n        scores = scores + HIDDEN_ABOVE[:T, :T]",
        "    scores = scores + (HIDDEN_ABOVE[:T, :T] if causal else 0 * HIDDEN_ABOVE[:T, :T])")
    results = grade(snippet, ATTENTION)
    hidden = _check(results, "no-causal-mask", "random sequences with causal=True")
    assert not hidden.passed and _raising_cases(results, "no-causal-mask", "random sequences")
    assert _raising_cases(results, "multi-head-attention", "random widths")
    assert "raised ValueError on this case" not in (hidden.hint or "")
