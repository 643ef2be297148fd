"""What a value returned where a refusal was due is, said where it is true of every such case of
the check (issue 38, "name a missing refusal by what the code does instead"): an empty array
for a kernel larger than a side of the image, and rows that are not P x P patches for an image P
does not tile; and, where every case and probe shows it, that the code has no test at all (the
kernel test's absence, kernel_fit.py's "kernel-untested": numpy's refusal of an empty result is no
test). Each submission is the solution with one function replaced, graded end to end in a worker
(general loop convolutions and a general block cutter, written here, not fixtures)."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from buggy_submissions import build_submission

from grader.checks import SubmissionGrading
from grader.checks.kinds.refusal_values import not_patches
from grader.checks.results import MISTAKE, OBSERVATION
from grader.worker import StudentWorker

# a plain loop convolution with no test that the kernel fits: with k > W only its loops run no
# column and it returns (H', 0, d); with k > H its final reshape of an empty list raises numpy's
# ValueError (no raise of its own)
LOOP_CONVOLUTION = '''
EXPECT = {"kernel-stride": None}


def conv_patch_embed(image, K, b, stride):
    x = np.asarray(image, dtype=float)
    if x.ndim == 2:
        x = x[:, :, None]
    k, d = K.shape[0], K.shape[3]
    rows = []
    for i in range(0, x.shape[0] - k + 1, stride):
        rows.append([np.einsum("abc,abcd->d", x[i:i + k, j:j + k], K) + b
                     for j in range(0, x.shape[1] - k + 1, stride)])
    return np.array(rows).reshape(len(rows), -1, d)
'''

# the same loops behind a test with `and` for `or`: a kernel larger than both sides is refused
# by its own raise, one larger than one side only is not (the check's cases show no difference
# from no test at all; the probe of a kernel larger than both sides does)
AND_TESTED = LOOP_CONVOLUTION.replace(
    "    k, d = K.shape[0], K.shape[3]\n",
    "    k, d = K.shape[0], K.shape[3]\n"
    "    if k > x.shape[0] and k > x.shape[1]:\n"
    "        raise ValueError('kernel larger than the image')\n")

# an output buffer np.zeros((H', W', d)) filled by loops, no test: an empty buffer where no
# window fits; and the same behind a test with `and` for `or`
BUFFER_CONVOLUTION = '''
EXPECT = {"kernel-stride": None}


def conv_patch_embed(image, K, b, stride):
    x = np.asarray(image, dtype=float)
    if x.ndim == 2:
        x = x[:, :, None]
    H, W, C = x.shape
    k, d = K.shape[0], K.shape[3]
    rows, cols = (H - k) // stride + 1, (W - k) // stride + 1
    out = np.zeros((max(rows, 0), max(cols, 0), d))
    for i in range(rows):
        for j in range(cols):
            window = x[i * stride:i * stride + k, j * stride:j * stride + k]
            out[i, j] = np.tensordot(window, K, axes=([0, 1, 2], [0, 1, 2])) + b
    return out
'''
BUFFER_AND_TESTED = BUFFER_CONVOLUTION.replace(
    "    k, d = K.shape[0], K.shape[3]\n",
    "    k, d = K.shape[0], K.shape[3]\n"
    "    if k > H and k > W:\n"
    "        raise ValueError('kernel larger than the image')\n")

# the same loops behind a test of the height of its own: its refusal there is its own raise
HEIGHT_TESTED = LOOP_CONVOLUTION.replace(
    "    k, d = K.shape[0], K.shape[3]\n",
    "    k, d = K.shape[0], K.shape[3]\n"
    "    if k > x.shape[0]:\n"
    "        raise ValueError('kernel taller than the image')\n")

# blocks of H // (H // P) x W // (W // P) pixels, a warning where they leave pixels over, no
# refusal: P = 16 on a 30 x 32 image cuts one 30 x 16 block per column
WARNED_BLOCKS = '''
EXPECT = {"patchify": None}


def patchify(image, P):
    import warnings
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError("one image is (H, W) or (H, W, C)")
    H, W, C = x.shape
    rows, cols = max(H // P, 1), max(W // P, 1)
    h, w = H // rows, W // cols
    if H % rows or W % cols:
        warnings.warn("blocks leave pixels over")
    blocks = [x[r * h:(r + 1) * h, c * w:(c + 1) * w] for r in range(rows) for c in range(cols)]
    return np.stack(blocks).reshape(len(blocks), -1)
'''


@pytest.fixture(scope="module")
def grade(catalogue, tmp_path_factory):
    def run(snippet: str, exercise_id: str) -> dict:
        folder = tmp_path_factory.mktemp("snippet")
        (folder / "snippet.py").write_text(snippet)
        submission = build_submission(folder / "snippet.py", folder)
        exercise = next(e for e in catalogue if e.id == exercise_id)
        with StudentWorker(submission) as worker:
            grading = SubmissionGrading(worker, catalogue=catalogue)
            return {c.name: c for c in grading.exercise(exercise).checks if not c.passed}
    return run


UNTESTED = "op:kernel_untested:conv_patch_embed:kernel-untested"


def test_loops_with_no_kernel_test_are_told_they_have_none(grade):
    """b77_07's kind of code: an empty (H', 0, d) array where the kernel is wider than the image,
    numpy's ValueError from its final reshape (a line that raises nothing by itself) where it is
    taller or larger than both sides: code with no test, as the reference without its kernel
    test gives it (an empty result, which a reshape of an empty list refuses)."""
    check = grade(LOOP_CONVOLUTION, "kernel-stride")[
        "a kernel larger than the image raises ValueError"]
    assert check.hint_kind == MISTAKE and check.misconception == UNTESTED, check.hint
    assert "nothing tests that the kernel fits the image" in check.hint


@pytest.mark.parametrize("snippet", [AND_TESTED, BUFFER_AND_TESTED])
def test_a_kernel_test_with_and_for_or_is_never_told_it_has_none(grade, snippet):
    """Its own raise where the kernel is larger than both sides (a probe's size, no case's): a
    test of its own, wrong in another way, is not "nothing tests"."""
    failed = grade(snippet, "kernel-stride")
    assert failed, "it returns a value where a refusal is due"
    assert not any("nothing tests" in (c.hint or "") or UNTESTED in (c.misconception or "")
                   for c in failed.values()), [c.hint for c in failed.values()]


def test_an_output_buffer_with_no_kernel_test_is_told_it_has_none(grade):
    check = grade(BUFFER_CONVOLUTION, "kernel-stride")[
        "a kernel larger than the image raises ValueError"]
    assert check.hint_kind == MISTAKE and check.misconception == UNTESTED, check.hint


def test_an_empty_array_for_a_kernel_wider_than_the_image_is_said(grade):
    failed = grade(AND_TESTED, "kernel-stride")  # no cause proven: what it returned is said
    check = failed["a kernel larger than the image raises ValueError"]
    assert check.hint_kind == OBSERVATION, check.hint
    assert "an empty array of shape (3, 0, 2)" in check.hint
    assert "3x3 kernel on a 2-pixel-wide image" in check.hint
    assert "must raise ValueError" in check.hint
    # its ValueError where the kernel is taller is numpy's, not a test: said, not credited
    assert "not a `raise` of yours" in check.hint and "reshape" in check.hint
    assert not any(c.hint_kind == MISTAKE for c in failed.values())


def test_a_students_own_raise_on_the_other_side_is_not_called_numpys(grade):
    failed = grade(HEIGHT_TESTED, "kernel-stride")
    check = failed["a kernel larger than the image raises ValueError"]
    assert "not a `raise` of yours" not in (check.hint or "")
    assert "`k > W`" in check.hint, check.hint  # its own test of the height, named


def test_blocks_larger_than_p_by_p_are_said_with_their_sizes(grade):
    failed = grade(WARNED_BLOCKS, "patchify")
    check = failed["errors"]
    assert check.hint_kind == OBSERVATION, check.hint
    assert ("returned 2 patches of 1440 values each for a 30 x 32 x 3 image with P = 16"
            in check.hint)
    assert "16 x 16 x 3 = 768 values" in check.hint
    assert "raise ValueError" in check.hint


def test_a_hidden_check_whose_cases_do_not_all_show_it_says_nothing_of_the_blocks(grade):
    """P = 2 on a 9 x 8 x 3 image cuts 2 x 2 blocks (16 of 12 values): rows of P x P x C values
    on one case of the hidden check, so "not P x P patches" is not said there."""
    failed = grade(WARNED_BLOCKS, "patchify")
    check = failed["random images that do not tile"]
    assert "values each" not in (check.hint or "") and "P x P x C" not in (check.hint or "")


# the loops with a warning where the kernel is wider than the image, and no refusal there
WARNED_WIDTH = LOOP_CONVOLUTION.replace(
    "    k, d = K.shape[0], K.shape[3]\n",
    "    k, d = K.shape[0], K.shape[3]\n"
    "    if k > x.shape[1]:\n"
    "        import warnings\n"
    "        warnings.warn('kernel wider than the image')\n")


def test_a_warning_every_such_case_printed_is_said(grade):
    failed = grade(WARNED_WIDTH, "kernel-stride")
    check = failed["a kernel larger than the image raises ValueError"]
    assert check.hint_kind == OBSERVATION, check.hint
    assert 'it issued a UserWarning ("kernel wider than the image") instead of raising' in (
        check.hint)


def test_no_warning_is_said_where_none_was_printed(grade):
    check = grade(LOOP_CONVOLUTION, "kernel-stride")[
        "a kernel larger than the image raises ValueError"]
    assert "Warning" not in check.hint


def _case(image, P, expected=None, raises=None):
    return SimpleNamespace(args=(image, P), kwargs={},
                           expectation=lambda: (expected, raises))


def test_rows_are_said_not_to_be_patches_only_of_a_function_whose_rows_are_patches():
    """An embedding's rows hold d values, not P x P x C: its expected values on images P tiles
    tell it from patchify's (no reference: the student bundle says the same)."""
    params, check = ("image", "P"), SimpleNamespace(hidden=False)
    refusal = _case(np.zeros((30, 32, 3)), 16, raises="ValueError")
    returned = [(refusal, SimpleNamespace(status="ok", value=np.zeros((2, 1440)), stdout=""))]
    patches = [_case(np.zeros((4, 6, 3)), 2, expected=np.zeros((6, 12))), refusal]
    embedded = [_case(np.zeros((4, 6, 3)), 2, expected=np.zeros((6, 8))), refusal]
    assert "768 values" in not_patches(check, params, returned, (), patches)
    assert not_patches(check, params, returned, (), embedded) is None
    assert not_patches(check, params, returned, (), [refusal]) is None  # nothing to tell by
