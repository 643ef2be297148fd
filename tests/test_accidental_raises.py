"""A test the student's code does not make is not named from numpy's refusal of a later step
(issue 38: never a wrong hint). Each submission is the solution with one function replaced,
graded end to end in a worker."""
from __future__ import annotations

import pytest
from buggy_submissions import build_submission

from grader.checks import SubmissionGrading
from grader.worker import StudentWorker

# a loop convolution with no kernel test: a kernel taller than the image leaves no row of
# windows, and `np.stack` of no rows raises numpy's "need at least one array to stack"; a kernel
# only wider than the image leaves rows of no window, an empty (H', 0, d) array
UNTESTED_CONV = '''
def conv_patch_embed(image, K, b, stride):
    image = np.asarray(image, dtype=float)
    if image.ndim == 2:
        image = image[:, :, None]
    k = K.shape[0]
    rows = []
    for top in range(0, image.shape[0] - k + 1, stride):
        row = [np.einsum("ijc,ijcd->d", image[top:top + k, left:left + k], K) + b
               for left in range(0, image.shape[1] - k + 1, stride)]
        rows.append(np.array(row).reshape(-1, K.shape[3]))
    return np.stack(rows)
'''
HEIGHT_TESTED = UNTESTED_CONV.replace(
    "    rows = []\n",
    "    if k > image.shape[0]:\n"
    "        raise ValueError(f'a {k}-pixel kernel is taller than the image')\n"
    "    rows = []\n")


@pytest.fixture(scope="module")
def grade(catalogue, tmp_path_factory):
    def run(snippet: str, exercise: str):
        folder = tmp_path_factory.mktemp("snippet")
        (folder / "snippet.py").write_text(snippet)
        submission = build_submission(folder / "snippet.py", folder)
        with StudentWorker(submission) as worker:
            grading = SubmissionGrading(worker, catalogue=catalogue)
            return grading.exercise(next(e for e in catalogue if e.id == exercise))
    return run


def _kernel_check(results):
    return next(c for c in results.checks if c.name.startswith("a kernel larger than"))


def test_a_kernel_test_of_one_side_is_named_only_on_the_students_own_raise(grade):
    """Blind round 77 (b77_07): no kernel test at all, the raise on a kernel taller than the
    image numpy's (an empty result reshaped or stacked), was told "tests the height only
    (`k > H`) ... test `k > W` too". The same code with a `raise` of its own for `k > H` is
    still told so."""
    untested = _kernel_check(grade(UNTESTED_CONV, "kernel-stride"))
    assert not untested.passed
    assert "kernel_one_side" not in (untested.misconception or ""), untested.misconception
    assert "height only" not in (untested.hint or ""), untested.hint
    tested = _kernel_check(grade(HEIGHT_TESTED, "kernel-stride"))
    assert not tested.passed
    assert tested.misconception == "op:kernel_one_side:conv_patch_embed:height-only", (
        tested.misconception, tested.hint)

