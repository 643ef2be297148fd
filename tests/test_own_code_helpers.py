"""A failure graded around correct helpers is said to be in the function's own code only where
nothing else of the student's can hold it (blind round 68's b68_02): its `encoder_block` was
right, its `gelu` (which no exercise checks alone) had 0.44715 for 0.044715, and both
encoder-block checks said "so this failure is in `encoder_block`'s own code". The note names the
submission's own helpers the function calls (report/own_code.py)."""
from __future__ import annotations

import pytest
from buggy_submissions import build_submission

from grader.checks.results import CheckResult
from grader.driver import Driver
from grader.report.own_code import owned
from grader.report.quotes import Source
from grader.settings import GraderSettings

from conftest import EXERCISES

WRONG_LAYER_NORM = '''
def layer_norm(x, gamma, beta, eps=1e-6):
    eps = 1e-5  # overwrites the argument
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
'''
SLIPPED_GELU = '''
def gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.44715 * x ** 3)))
'''
NO_B2 = '''
def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]
    h = 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h ** 3)))  # GELU inline
    return x + h @ p["W2"]
'''
CALLS_GELU = '''
def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    return x + gelu(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]) @ p["W2"]
'''
NOTE = "so this failure is in `encoder_block`'s own code"


@pytest.fixture(scope="module")
def driver():
    driver = Driver(GraderSettings(None, EXERCISES))
    yield driver
    driver.close()


def _block_messages(driver, tmp_path, snippet: str) -> list[str]:
    path = tmp_path / "snippet.py"
    path.write_text('"""A regraded encoder_block."""\nEXPECT = {"encoder-block": None}\n' + snippet)
    report = driver.grade(build_submission(path, tmp_path)).report
    block = next(e for e in report.exercises if e.id == "encoder-block")
    failed = [c for c in block.checks if not c.passed]
    assert failed and all(c.stand_ins == ("layer_norm",) for c in failed)
    return [c.message for c in failed]


def test_a_helper_of_its_own_the_block_calls_is_named_beside_its_own_code(driver, tmp_path):
    for message in _block_messages(driver, tmp_path, WRONG_LAYER_NORM + SLIPPED_GELU):
        assert f"{NOTE} or in `gelu`, which it calls)" in message, message


def test_a_function_that_calls_no_helper_of_its_own_is_said_alone(driver, tmp_path):
    for message in _block_messages(driver, tmp_path, WRONG_LAYER_NORM + NO_B2):
        assert f"{NOTE})" in message, message  # its GELU inline, b2 left out


def test_a_student_api_function_it_calls_is_not_named_and_without_a_source_nothing_changes():
    source = Source([SLIPPED_GELU + CALLS_GELU + WRONG_LAYER_NORM],
                    api=frozenset({"layer_norm", "self_attention", "encoder_block"}))
    check = CheckResult("c", 3, 0, "failed", message=f"(graded ...; {NOTE})")
    assert owned(check, source).message == f"(graded ...; {NOTE} or in `gelu`, which it calls)"
    assert owned(check, None) is check
