"""A forward pass that applies the first block a fixed number of times, written out (blind round
68's b68_07: `encoder_block(x, params["blocks"][0], heads)` four times, its source model's
depth), is named: the error model's loop operator made only "every pass uses the first one",
which reproduces it only where the model has exactly that many blocks, and the checks' models
have one or two (error_model/operators.first_element, FIXED_PASSES)."""
from __future__ import annotations

import pytest
from buggy_submissions import build_submission

from grader.driver import Driver
from grader.settings import GraderSettings

from conftest import EXERCISES

THREE_TIMES = '''
def vit_forward(image, params):
    block = params["blocks"][0]
    x = embed_image(image, params)
    x = encoder_block(x, block, params["heads"])
    x = encoder_block(x, block, params["heads"])
    x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
'''


@pytest.fixture(scope="module")
def driver():
    driver = Driver(GraderSettings(None, EXERCISES))
    yield driver
    driver.close()


def test_the_first_block_applied_a_fixed_number_of_times_is_named(driver, tmp_path):
    path = tmp_path / "snippet.py"
    path.write_text('"""blocks[0] three times."""\nEXPECT = {"vit-forward": None}\n' + THREE_TIMES)
    report = driver.grade(build_submission(path, tmp_path)).report
    result = next(e for e in report.exercises if e.id == "vit-forward")
    failed = [c for c in result.checks if not c.passed]
    assert failed
    for check in failed:
        assert check.misconception == "op:loop:vit_forward:block-first-3-times", check
        assert "is applied 3 times whatever its length" in check.hint, check.hint
