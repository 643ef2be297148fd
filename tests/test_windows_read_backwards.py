"""A convolution whose windows are read backwards from their anchors (blind round 67's b67_08): a
textbook convolution's loop `out[i, j] += x[i - a, j - b] * K[a, b]` given a stride,
`image[i * stride - _i, j * stride - _j] @ K[_i, _j]`, the offsets before the image's first row
and column wrapping round to its far edge as numpy's negative indices do. Its three failed
kernel-stride checks got only their checklists. The error model's flipped-kernel operator
(error_model/contractions.kernel_flipped) reads such windows too, and its hint quotes the
student's own line that reads them (quotes.READ_LINE); a kernel flipped in an einsum stays the
listed mistake, and a right loop or a transposed kernel keep what they were told."""
from __future__ import annotations

import ast

import numpy as np
import pytest

from grader.reference.error_model.contractions import read_backwards
from grader.report.quotes import READ_LINE, Source, subtracted
from grader.report.steps import placed

from conftest import ROOT, SOLUTION

BACKWARDS = "op:kernel_flipped:conv_patch_embed:windows-read-backwards"
FIXTURE = ROOT / "tests" / "submissions" / "buggy" / "jonny_conv_window_read_backwards.py"
STUDENT = FIXTURE.read_text().split('\n\n\n', 1)[1]  # b67_08's own function, as delivered
# the same mistake spelled otherwise: anchors named, the offsets taken away in an einsum's operand
LOOP = '''
def conv_patch_embed(image, K, b, stride):
    x = _as_hwc(image)
    k = K.shape[0]
    H, W, _ = x.shape
    if k > H or k > W:
        raise ValueError(f"a {k}x{k} kernel does not fit a {H}x{W} image")
    out = np.zeros(((H - k) // stride + 1, (W - k) // stride + 1, K.shape[-1]))
    for oi in range(out.shape[0]):
        for oj in range(out.shape[1]):
            r, c = oi * stride, oj * stride
            for ki in range(k):
                for kj in range(k):
                    out[oi, oj] += np.einsum("c,cd->d", x[r - ki, c - kj], K[ki, kj])
    return out + b
'''
# a kernel flipped over windows that start at their anchors: the listed true convolution
EINSUM = '''
def conv_patch_embed(image, K, b, stride):
    x = _as_hwc(image)
    k = K.shape[0]
    if k > x.shape[0] or k > x.shape[1]:
        raise ValueError("the kernel does not fit the image")
    windows = np.lib.stride_tricks.sliding_window_view(x, (k, k), axis=(0, 1))[::stride, ::stride]
    return np.einsum("ijcab,abcd->ijd", windows, K[::-1, ::-1]) + b
'''
RIGHT = LOOP.replace("x[r - ki, c - kj]", "x[r + ki, c + kj]")  # the controls
TRANSPOSED = EINSUM.replace("K[::-1, ::-1]", "K.transpose(1, 0, 2, 3)")
TOLD = {  # what each must be told on its failed call checks: (mistake, the line quoted)
    STUDENT: (BACKWARDS, "output_image[i, j] += image[i * stride - _i, j * stride - _j]..."),
    LOOP: (BACKWARDS, 'out[oi, oj] += np.einsum("c,cd->d", x[r - ki, c - kj], K[ki, kj])'),
    EINSUM: ("conv_kernel_flipped", None),
    TRANSPOSED: ("op:transposed_argument:conv_patch_embed:K-axes-swapped", None),
}


def _submission(code: str) -> str:
    solution = SOLUTION.read_text()
    start = solution.index("def conv_patch_embed(")
    end = solution.index("\ndef ", start)
    return solution[:start] + code.strip() + "\n\n" + solution[end:]


def _graded(catalogue, tmp_path, code: str):
    from grader.checks import SubmissionGrading
    from grader.report.spelled import finished
    from grader.worker import StudentWorker

    text = _submission(code)
    path = tmp_path / "vit_exercises.py"
    path.write_text(text)
    chosen = [e for e in catalogue if e.id == "kernel-stride"]
    with StudentWorker(path) as worker:
        result = SubmissionGrading(worker, catalogue=chosen).exercise(chosen[0])
    return finished(result, Source([text]))


@pytest.mark.parametrize("code", list(TOLD), ids=["b67_08", "loop", "einsum", "transposed"])
def test_each_spelling_is_named_and_a_backwards_read_with_the_student_s_line(
        catalogue, tmp_path, code):
    result = _graded(catalogue, tmp_path, code)
    mistake, line = TOLD[code]
    calls = [c for c in result.checks if not c.passed and "equals the linear map" not in c.name]
    assert calls and all(c.misconception == mistake for c in calls), [
        (c.name, c.misconception, c.hint) for c in result.checks]
    for check in calls:
        assert READ_LINE not in check.hint, check.hint
        if line is not None:
            assert f"read backwards from its anchor (at your line `{line}`): " in check.hint, (
                check.hint)
            assert "wraps round to the image's far edge" in check.hint, check.hint


def test_a_right_loop_keeps_full_marks(catalogue, tmp_path):
    result = _graded(catalogue, tmp_path, RIGHT)
    assert result.score == result.max_score, [(c.name, c.hint) for c in result.checks]


def _looped(image, K, stride):
    """The student's four loops, numpy's negative indices and all (no bias)."""
    image = image[..., None] if image.ndim == 2 else image
    k = K.shape[0]
    out = np.zeros(((image.shape[0] - k) // stride + 1, (image.shape[1] - k) // stride + 1,
                    K.shape[3]))
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            for a in range(k):
                for c in range(k):
                    out[i, j] += image[i * stride - a, j * stride - c] @ K[a, c]
    return out


@pytest.mark.parametrize(("shape", "k", "stride"), [
    ((4, 4, 1), 2, 2), ((5, 7, 3), 3, 1), ((9, 6), 3, 2), ((8, 8, 2), 4, 4), ((6, 5, 2), 1, 2)])
def test_the_windows_read_backwards_are_the_loop_s_wrapped_round_windows(shape, k, stride):
    from numpy.lib.stride_tricks import sliding_window_view

    rng = np.random.default_rng(sum(shape) + k)
    image = rng.standard_normal(shape)
    channels = shape[2] if len(shape) == 3 else 1
    K = rng.standard_normal((k, k, channels, 2))
    hwc = image[..., None] if image.ndim == 2 else image
    windows = sliding_window_view(hwc, (k, k), axis=(0, 1))[::stride, ::stride]
    read = read_backwards(windows, image, stride)
    assert read.shape == windows.shape
    got = np.tensordot(read, K, axes=([3, 4, 2], [0, 1, 2]))
    np.testing.assert_allclose(got, _looped(image, K, stride), atol=1e-12)
    flipped = np.tensordot(windows, K[::-1, ::-1], axes=([3, 4, 2], [0, 1, 2]))
    assert k == 1 or not np.allclose(got, flipped)  # not the kernel flipped over the same windows


@pytest.mark.parametrize(("code", "reads"), [
    ("out += x[r - ki, c - kj] @ K[ki, kj]", True),
    ("out += image[i * stride - _i, j * stride - _j, :] @ K[_i, _j]", True),
    ("out += x[r - ki][c - kj] * K[ki][kj]", True),
    ("out += x[r + ki, c + kj] @ K[ki, kj]", False),
    ("out += x[i - 1, j - 1]", False),  # a number taken away: a neighbour, not an offset
    ("out += x[r - ki, c + kj]", False),  # one axis only
    ("out += x[r - ki]", False),
])
def test_a_read_at_subtracted_offsets_is_one_on_both_axes_of_an_offset(code, reads):
    assert subtracted(ast.parse(code)) is reads


def test_the_line_is_the_student_s_one_read_backwards_or_none():
    hint = f"In `conv_patch_embed`, each window is read backwards from its anchor{READ_LINE}: x."
    assert placed(hint, None) == hint
    told = placed(hint, Source([LOOP]))
    assert "(at your line `out[oi, oj] += np.einsum(" in told, told
    twice = LOOP.replace("    return out + b", "    out[0, 0] = x[r - ki, c - kj] @ K[0, 0]\n"
                                              "    return out + b")
    assert placed(hint, Source([twice])) == hint.replace(READ_LINE, "")
    assert placed(hint, Source([RIGHT])) == hint.replace(READ_LINE, "")
    flip = f"In `conv_patch_embed`, the kernel `K` is flipped{READ_LINE}, `K[::-1, ::-1]`."
    assert "(at your line `return np.einsum(\"ijcab,abcd->ijd\", windows, K[::-1, ::-1]) + b`)" \
        in placed(flip, Source([EINSUM])), placed(flip, Source([EINSUM]))
