"""A hint says a helper's call only where the student's function makes it (blind round 68's
b68_15): an `embed_image` that embeds through `conv_patch_embed`, with no tiling test, was told
"so `linear_patch_embed(image, params['W_e'], params['b_e'], params['P'])` gets the patches that
fit", a call it never makes. The error model's embed_image operators (error_model/collapse.py)
place their edit at the model solution's step, which report/steps.py says as the student's line
that makes it, or as the call of the student's helper only where the function calls it."""
from __future__ import annotations

import pytest
from buggy_submissions import build_submission

from grader.driver import Driver
from grader.settings import GraderSettings

from conftest import EXERCISES

THROUGH_CONV = '''
def embed_image(image, params):
    P = params["P"]
    C = _as_hwc(image).shape[-1]
    d = params["W_e"].shape[1]
    x = conv_patch_embed(image, params["W_e"].reshape(P, P, C, d), params["b_e"], P)
    x = np.concatenate([params["cls"][None, :], x.reshape(-1, d)], axis=0)
    return x + params["pos"]
'''
THROUGH_LINEAR = '''
def embed_image(image, params):
    P = params["P"]
    x = _as_hwc(image)
    x = x[:x.shape[0] // P * P, :x.shape[1] // P * P]  # VALID: the patches that fit
    tokens = linear_patch_embed(x, params["W_e"], params["b_e"], P)
    return np.concatenate([params["cls"][None, :], tokens], axis=0) + params["pos"]
'''


@pytest.fixture(scope="module")
def driver():
    driver = Driver(GraderSettings(None, EXERCISES))
    yield driver
    driver.close()


def _hints(driver, tmp_path, snippet: str) -> list[str]:
    path = tmp_path / "snippet.py"
    path.write_text('"""An embed_image with no tiling test."""\n'
                    'EXPECT = {"cls-and-positions": None}\n' + snippet)
    report = driver.grade(build_submission(path, tmp_path)).report
    result = next(e for e in report.exercises if e.id == "cls-and-positions")
    hints = [c.hint for c in result.checks if not c.passed]
    assert hints and all("nothing refuses an image that P does not tile" in h for h in hints)
    return hints


def test_a_call_the_function_does_not_make_is_never_said(driver, tmp_path):
    for hint in _hints(driver, tmp_path, THROUGH_CONV):
        assert "linear_patch_embed(image" not in hint, hint
        assert "at your line `x = conv_patch_embed(image, " in hint, hint


def test_the_students_own_call_is_said_as_it_wrote_it(driver, tmp_path):
    for hint in _hints(driver, tmp_path, THROUGH_LINEAR):
        assert "linear_patch_embed(image" not in hint, hint
        assert "in its call of your `linear_patch_embed`" in hint or (
            "at your line `tokens = linear_patch_embed(x, " in hint), hint
