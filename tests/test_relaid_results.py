"""Right values read in another layout, named (blind round 81's b81_07, issue 38): torchvision's
channels-first `x.reshape(hidden_dim, n_h * n_w).T` copied onto tokens already channels last
reads the (N, d) answer's buffer as (d, N) and transposes it; each value is right, in another
place. Named where that rewrite of the expected value (or its inverse: transposed, then read
back as (A, B)) reproduces every case the check ran, with a case that tells it from a plain
transpose (sizes above 1 and unequal); never of a result permuted some other way
(checks/kinds/relaid.py)."""
from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest
from one_function import graded_one

from grader.checks.cases import PlannedCase
from grader.checks.compare import Compare
from grader.checks.kinds.relaid import READ_TRANSPOSED, TITLES, TRANSPOSED_READ, relaid
from grader.checks.results import FAILED, MISTAKE, CheckResult
from grader.worker.outcomes import CallOutcome, StudentError

RNG = np.random.default_rng(81)


class Check:  # what relaid() reads of a call check
    function = "linear_patch_embed"
    compare = Compare(mode="allclose")
    hidden = False
    integration = False


FAILED_RESULT = CheckResult("RGB images", 2, 0, FAILED, "differs", hint="the checklist",
                            hint_kind="checklist")


def _read_transposed(value, split):
    """`value`'s buffer read with its two groups of axes the other way round, transposed back."""
    rows, columns = int(np.prod(value.shape[:split])), int(np.prod(value.shape[split:]))
    return value.reshape(columns, rows).T.reshape(value.shape)


def _transposed_read(value, split):
    rows, columns = int(np.prod(value.shape[:split])), int(np.prod(value.shape[split:]))
    return value.reshape(rows, columns).T.reshape(value.shape)


def _ran(*pairs):
    """(planned case, outcome) pairs of (expected value, value returned) pairs."""
    return [(PlannedCase((), {}, None, None, "x", None, (expected, None), {},
                         from_compiled=True), CallOutcome("ok", got)) for expected, got in pairs]


def _values(*shapes):
    return [RNG.standard_normal(shape) for shape in shapes]


def test_the_tokens_buffer_read_as_d_n_and_transposed_is_named_with_the_sizes_and_the_fix():
    values = _values((6, 5), (4, 2), (1, 5), (3, 1))  # one patch, one feature: right values
    result = relaid(FAILED_RESULT, Check(), _ran(*((v, v.reshape(v.shape[::-1]).T)
                                                    for v in values)))
    assert result.misconception == READ_TRANSPOSED and result.hint_kind == MISTAKE
    assert result.hint.startswith("Your `linear_patch_embed` returns the right values in another "
                                  "layout: the buffer of its (6, 5) result is read as (5, 6) "
                                  "and transposed"), result.hint
    assert "`value.reshape(5, 6).T`" in result.hint and "a reshape to (6, 5) alone" in result.hint


def test_values_transposed_and_read_back_are_named_with_a_transpose_as_the_fix():
    values = _values((6, 5), (2, 3))
    result = relaid(FAILED_RESULT, Check(), _ran(*((v, v.T.reshape(v.shape)) for v in values)))
    assert result.misconception == TRANSPOSED_READ and result.hint_kind == MISTAKE
    assert "`value.T.reshape(6, 5)`" in result.hint and "(5, 6)" in result.hint, result.hint


@pytest.mark.parametrize("split", [1, 2])
@pytest.mark.parametrize("form", [READ_TRANSPOSED, TRANSPOSED_READ])
def test_any_split_of_more_axes_is_named_and_its_quoted_code_computes_what_was_returned(
        split, form):
    """A conv's (H', W', F) grid read as (F, H', W') and moved back (`.transpose(1, 2, 0)`): the
    split after its first two axes; the quote, run on the expected value, gives the student's."""
    move = _read_transposed if form == READ_TRANSPOSED else _transposed_read
    values = _values((2, 3, 4), (3, 2, 5))
    result = relaid(FAILED_RESULT, Check(), _ran(*((v, move(v, split)) for v in values)))
    assert result.misconception == form, result.hint
    quoted = next(q for q in result.hint.split("`") if q.startswith("value."))
    assert np.array_equal(eval(quoted, {"value": values[0]}), move(values[0], split)), quoted


def test_a_hidden_check_is_told_no_sizes():
    values = _values((6, 5), (4, 2))
    hidden = type("Hidden", (Check,), {"hidden": True})()
    result = relaid(FAILED_RESULT, hidden, _ran(*((v, v.reshape(v.shape[::-1]).T)
                                                  for v in values)))
    assert result.misconception == READ_TRANSPOSED
    assert "(A, B)" in result.hint and "(6, 5)" not in result.hint and "5, 6" not in result.hint


def test_a_square_result_transposed_or_rows_reversed_is_not_told_a_buffer_layout():
    """Controls: a plain `.T` of square results (a buffer read as (n, n) and transposed is
    the same values: no case tells the two apart), rows in reverse order, a case of the
    wrong values, a value where a raise was due, another check's right case that the rewrite
    would make wrong, and a mistake named already."""
    square = _values((4, 4), (3, 3))
    for ran in (_ran(*((v, v.T) for v in square)),
                _ran(*((v, v[::-1]) for v in _values((6, 5), (4, 2)))),
                _ran(*((v, v.reshape(v.shape[::-1]).T) for v in _values((6, 5))),
                     *((v, v + 1) for v in _values((4, 2))))):
        assert relaid(FAILED_RESULT, Check(), ran) is FAILED_RESULT
    (value,) = _values((6, 5))
    ran = _ran((value, value.reshape(5, 6).T))
    refused = [(replace(ran[0][0], _expectation=(None, "ValueError")),
                CallOutcome("ok", value.reshape(5, 6).T))]
    assert relaid(FAILED_RESULT, Check(), ran + refused) is FAILED_RESULT
    raised = [(ran[0][0], CallOutcome("raised", error=StudentError("ValueError", "", "", None)))]
    assert relaid(FAILED_RESULT, Check(), ran + raised) is FAILED_RESULT
    (other,) = _values((4, 2))
    right_elsewhere = _ran((other, other))  # another check's case the code got right
    assert relaid(FAILED_RESULT, Check(), ran, right_elsewhere) is FAILED_RESULT
    named = replace(FAILED_RESULT, misconception="linear_embed_bare_reshape", hint_kind=MISTAKE)
    assert relaid(named, Check(), ran) is named
    integration = type("Integration", (Check,), {"integration": True})()
    assert relaid(FAILED_RESULT, integration, ran) is FAILED_RESULT


def test_a_refusal_given_as_due_does_not_stop_it():
    (value,) = _values((6, 5))
    ran = _ran((value, value.reshape(5, 6).T))
    refused = [(replace(ran[0][0], _expectation=(None, "ValueError")),
                CallOutcome("raised", error=StudentError("ValueError", "no", "", None)))]
    assert relaid(FAILED_RESULT, Check(), ran + refused).misconception == READ_TRANSPOSED


def test_every_permutation_of_a_small_grid_other_than_the_two_is_never_told():
    """Every permutation of a (2, 3) result's six entries: only the buffer read as (3, 2) and
    transposed, and its inverse, are named, each by its own name."""
    value = np.arange(1.0, 7.0).reshape(2, 3)
    told = {}
    for order in itertools.permutations(range(6)):
        got = value.ravel()[list(order)].reshape(2, 3)
        if np.array_equal(got, value):
            continue
        result = relaid(FAILED_RESULT, Check(), _ran((value, got)))
        if result.misconception:
            told[result.misconception] = got
    assert set(told) == {READ_TRANSPOSED, TRANSPOSED_READ}
    assert np.array_equal(told[READ_TRANSPOSED], value.reshape(3, 2).T)
    assert np.array_equal(told[TRANSPOSED_READ], value.T.reshape(2, 3))
    assert set(TITLES) == {READ_TRANSPOSED, TRANSPOSED_READ}


# a port of torchvision's `_process_input` on a channels-last convolution (b81_07's kind): the
# tokens are right, read as (d, N) and transposed
CONV_TOKENS = '''
def linear_patch_embed(image, W_e, b_e, P):
    x = _as_hwc(image)
    h, w, c = x.shape
    num_patches(h, w, P)
    width = W_e.shape[1]
    grid = conv_patch_embed(x, W_e.reshape(P, P, c, width), b_e, P)
    return grid.reshape(width, (h // P) * (w // P)).T
'''
# a channels-first habit on a convolution's own grid: `.reshape(F, H', W').transpose(1, 2, 0)`
CONV_GRID = '''
def conv_patch_embed(image, K, b, stride):
    x = _as_hwc(image)
    k, width = K.shape[0], K.shape[-1]
    H, W, C = x.shape
    if k > H or k > W:
        raise ValueError("the kernel does not fit")
    rows, columns = (H - k) // stride + 1, (W - k) // stride + 1
    out = np.zeros((rows, columns, width))
    for i in range(rows):
        for j in range(columns):
            window = x[i * stride:i * stride + k, j * stride:j * stride + k]
            out[i, j] = np.tensordot(window, K, axes=3) + b
    return out.reshape(width, rows, columns).transpose(1, 2, 0)
'''


@pytest.mark.parametrize("code, exercise, function", [
    (CONV_TOKENS, "linear-patch-embed", "linear_patch_embed"),
    (CONV_GRID, "kernel-stride", "conv_patch_embed")])
def test_a_submission_whose_result_is_read_in_another_layout_is_told_so(
        catalogue, tmp_path, code, exercise, function):
    result = graded_one(catalogue, tmp_path, code, exercise)
    failed = [c for c in result.checks if not c.passed and c.name.startswith(
        ("RGB images", "random", "conv_patch_embed for several"))]
    assert failed, [(c.name, c.passed) for c in result.checks]
    for check in failed:
        assert check.misconception == READ_TRANSPOSED, (check.name, check.hint)
        assert check.hint.startswith(f"Your `{function}` returns the right values in another "
                                     "layout"), check.hint
        assert check.hint_kind == MISTAKE


def test_its_callers_keep_what_they_say_today_graded_around_it(catalogue, tmp_path):
    """embed_image and vit_forward on the student's tokens: graded again with the grader's
    `linear_patch_embed` standing in (dependencies.py), they pass; none is told the layout."""
    import ast

    from grader.checks import SubmissionGrading
    from grader.worker import StudentWorker

    from conftest import SOLUTION

    solution = SOLUTION.read_text()
    start = solution.index("def linear_patch_embed(")
    end = solution.index("\ndef ", start)
    text = solution[:start] + CONV_TOKENS.strip() + "\n\n" + solution[end:]
    ast.parse(text)
    path = tmp_path / "vit_exercises.py"
    path.write_text(text)
    chosen = [e for e in catalogue
              if e.id in ("linear-patch-embed", "cls-and-positions", "vit-forward")]
    assert len(chosen) == 3
    with StudentWorker(path) as worker:
        grading = SubmissionGrading(worker, catalogue=chosen)
        results = {e.id: grading.exercise(e) for e in chosen}
    assert any(c.misconception == READ_TRANSPOSED for c in results["linear-patch-embed"].checks)
    for exercise in ("cls-and-positions", "vit-forward"):
        checks = results[exercise].checks
        assert all(c.passed for c in checks), [(c.name, c.hint) for c in checks]
        assert any("linear_patch_embed" in c.stand_ins for c in checks)


def test_the_class_report_titles_each_layout_by_what_it_is():
    from grader.report.labels import Labels

    for name, title in TITLES.items():
        assert Labels().title("linear-patch-embed", name, "Your `f` returns ...") == title


def test_a_check_of_one_value_names_it_only_where_the_functions_other_failures_agree():
    """A worked example's few structured values may fit a layout by chance: its one case names
    it only where the function's failed cases on its other checks are that layout too."""
    (value,) = _values((4, 2))
    one = _ran((value, value.reshape(2, 4).T))
    assert relaid(FAILED_RESULT, Check(), one).misconception == READ_TRANSPOSED
    (other,) = _values((6, 5))
    agreeing = _ran((other, other.reshape(5, 6).T))
    assert relaid(FAILED_RESULT, Check(), one, (), agreeing).misconception == READ_TRANSPOSED
    for wrong in (_ran((other, other + 1)), _ran((other, other[:2]))):
        assert relaid(FAILED_RESULT, Check(), one, (), wrong) is FAILED_RESULT
    raised = [(agreeing[0][0], CallOutcome("raised", error=StudentError("ValueError", "", "",
                                                                        None)))]
    assert relaid(FAILED_RESULT, Check(), one, (), raised) is FAILED_RESULT


def test_results_of_several_ranks_are_weighed_without_error():
    flat, grid = _values((6, 5), (2, 3, 4))
    ran = _ran((flat, flat.reshape(5, 6).T), (grid, grid.reshape(4, 6).T.reshape(2, 3, 4)))
    assert relaid(FAILED_RESULT, Check(), ran) is FAILED_RESULT  # no one split gives both
    ran = _ran((flat, flat.reshape(5, 6).T), (grid, grid.reshape(12, 2).T.reshape(2, 3, 4)))
    assert relaid(FAILED_RESULT, Check(), ran).misconception == READ_TRANSPOSED
