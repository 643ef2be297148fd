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


# a patchify that cuts the image into (H // P) x (W // P) equal blocks, whatever their size:
# where P does not tile the image, its blocks are larger than P x P, no crop to P's multiple
BLOCKS = '''
def patchify(image, P):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError("an image is (H, W) or (H, W, C)")
    H, W, C = image.shape
    rows, cols = max(H // P, 1), max(W // P, 1)
    bh, bw = H // rows, W // cols
    blocks = image[:rows * bh, :cols * bw].reshape(rows, bh, cols, bw, C)
    return blocks.transpose(0, 2, 1, 3, 4).reshape(rows * cols, -1)
'''
CROPPED = BLOCKS.replace("bh, bw = H // rows, W // cols", "bh, bw = P, P")


def test_a_listed_crop_is_named_only_where_it_returns_what_the_code_returned_on_every_case(
        grade):
    """Blind round 77 (b77_10): blocks of `int(H / divs)` pixels, as large as the image allows,
    equal a crop to P's multiple on one hidden case (9 x 8, P = 2) and not on the others (8 x 10,
    P = 4 gives 4 blocks of 4 x 5): "Cropping the leftover pixels hides the problem" was said of
    code that crops nothing there. A crop to P's multiple is still named so."""
    def check(results):
        return next(c for c in results.checks if c.name == "random images that do not tile")

    blocks = check(grade(BLOCKS, "patchify"))
    assert not blocks.passed
    assert blocks.misconception != "patchify_floor_crop", blocks.hint
    assert "crop" not in (blocks.hint or "").lower(), blocks.hint
    assert "ValueError" in (blocks.hint or ""), blocks.hint  # the fix is still said
    cropped = check(grade(CROPPED, "patchify"))
    assert not cropped.passed and cropped.misconception == "patchify_floor_crop", cropped.hint
