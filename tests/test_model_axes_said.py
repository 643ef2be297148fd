"""A sentence that quotes the model solution's code or its axis numbers says they are the model
solution's, and gives its fix by meaning (blind round 68's b68_09): an im2col convolution with a
6-D `windows` (1, H', W', C, k, k) flattened channel first and no tensordot was told
"`np.tensordot(windows, K, axes=([3, 4, 2], ...))` pairs axes 3, 4, 2 of `windows` ... Bring
`windows`'s axes into the order 3, 4, 2", the model solution's 5-D array's numbers as its own
(error_model/contractions.py)."""
from __future__ import annotations

import pytest
from buggy_submissions import build_submission

from grader.driver import Driver
from grader.settings import GraderSettings

from conftest import EXERCISES

SIX_D_WINDOWS = '''
def conv_patch_embed(image, K, b, stride):
    from numpy.lib.stride_tricks import sliding_window_view
    x = _as_hwc(image)[None]  # (1, H, W, C): a batch of one, NHWC
    kh, kw, C, d = K.shape
    windows = sliding_window_view(x, (kh, kw), axis=(1, 2))[:, ::stride, ::stride]
    n, oh, ow = windows.shape[:3]  # (1, H', W', C, kh, kw): channel first, torch's order
    out = windows.reshape(n, oh, ow, C * kh * kw) @ K.reshape(kh * kw * C, d) + b
    return out[0]
'''


@pytest.fixture(scope="module")
def driver():
    driver = Driver(GraderSettings(None, EXERCISES))
    yield driver
    driver.close()


def test_the_model_solutions_axes_are_said_as_its_own_and_the_fix_by_meaning(driver, tmp_path):
    path = tmp_path / "snippet.py"
    path.write_text('"""6-D windows flattened channel first."""\n'
                    'EXPECT = {"kernel-stride": None}\n' + SIX_D_WINDOWS)
    report = driver.grade(build_submission(path, tmp_path)).report
    result = next(e for e in report.exercises if e.id == "kernel-stride")
    hints = [c.hint for c in result.checks if not c.passed and c.misconception
             and "flattened-apart" in c.misconception]
    assert hints
    for hint in hints:
        assert "Bring" not in hint and "into the order 3, 4, 2" not in hint, hint
        assert "the model solution's `np.tensordot(" in hint, hint
        assert "(c, p1, p2)" in hint and "kernel's order, (p1, p2, c)" in hint, hint
