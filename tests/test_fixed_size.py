"""An array built once for a fixed length and sliced to a sequence's, named where the cases bear
it out: the lengths that fit right, the longer ones raising the broadcast at that line (issue
38; blind round 71's b71_08, a causal mask `tril` of a module-level `block_size = 8`)."""
from __future__ import annotations

import pytest

from grader.checks.calls_seen import CallSeen
from grader.checks.results import FAILED, MISTAKE, CheckResult
from grader.driver import Driver
from grader.report.fixed_size import FIXED_SIZE, fixed_size
from grader.report.quotes import Source
from grader.settings import GraderSettings

from conftest import EXERCISES, SOLUTION

ATTENTION = '''

LONGEST = 8
FUTURE = np.triu(np.full((LONGEST, LONGEST), -np.inf), k=1)


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    n = d // heads
    q, k, v = ((x @ p["W" + c] + p["b" + c]).reshape(T, heads, n).transpose(1, 0, 2)
               for c in "qkv")
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(SCALE)
    if causal:
        scores = scores + FUTURE[:T, :T]
    out = softmax(scores, axis=-1) @ v
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
'''


@pytest.fixture(scope="module")
def driver():
    driver = Driver(GraderSettings(None, EXERCISES))
    yield driver
    driver.close()


def causal_check(driver, tmp_path, scale: str):
    path = tmp_path / "fixed_future.py"
    path.write_text(SOLUTION.read_text() + ATTENTION.replace("SCALE", scale))
    report = driver.grade(path).report
    result = next(e for e in report.exercises if e.id == "no-causal-mask")
    return path, next(c for c in result.checks if c.hidden)


def test_a_mask_built_once_for_a_fixed_length_is_named(driver, tmp_path):
    path, check = causal_check(driver, tmp_path, "n")
    line = path.read_text().splitlines().index(
        "FUTURE = np.triu(np.full((LONGEST, LONGEST), -np.inf), k=1)") + 1
    assert check.status == FAILED and check.misconception == FIXED_SIZE, check
    assert check.hint_kind == MISTAKE
    assert check.hint.startswith(f"`FUTURE` is built once for 8 tokens (line {line}): sequences "
                                 "longer than 8 do not fit"), check.hint
    assert "from `T` inside `self_attention`" in check.hint


def test_not_named_where_the_lengths_that_fit_are_wrong_too(driver, tmp_path):
    """Scaled by sqrt(d): wrong with several heads whatever the length, so the raise alone is
    not all that fails; the hint stays what it was."""
    _, check = causal_check(driver, tmp_path, "d")
    assert check.status == FAILED and check.misconception != FIXED_SIZE, check
    assert "built once" not in (check.hint or "")


CODE = '''import numpy as np

SIZE = 4
MASK = np.tril(np.ones((SIZE, SIZE)))


def f(x, mask=np.ones((4, 4))):
    T = len(x)
    return np.where(MASK[:T, :T] == 0, 0, x)


def g(x, size):
    BUILT = np.ones((size, size))

    def inner(x):
        T = len(x)
        return BUILT[:T, :T] * x
    return inner(x)


def h(x, mask=np.ones((4, 4))):
    T = len(x)
    return mask[:T, :T] * x
'''
TRACE = ('Traceback (most recent call last):\n  File "s.py", line {line}, in {function}\n'
         '    {code}\n')
BROADCAST = "operands could not be broadcast together with shapes (4,4) () (6,6) "


def calls(line: int, function: str, code: str, fitting_right: bool = True) -> tuple:
    raised = CallSeen(((0, (6, 6)),), False, "ValueError", BROADCAST,
                      TRACE.format(line=line, function=function, code=code))
    return (CallSeen(((0, (3, 3)),), True), raised, CallSeen(((0, (4, 4)),), fitting_right))


def result(seen) -> CheckResult:
    return CheckResult("c", 1, 0, FAILED, "m", "the checklist", calls_seen=seen)


def line_of(code: str) -> int:
    return [text.strip() for text in CODE.splitlines()].index(code) + 1


def test_named_from_a_module_constant_and_a_parameter_default():
    source = Source([CODE])
    code = "return np.where(MASK[:T, :T] == 0, 0, x)"
    named = fixed_size(result(calls(line_of(code), "f", code)), source)
    assert named is not None and named.misconception == FIXED_SIZE
    assert named.hint.startswith("`MASK` is built once for 4 tokens (line 4)")
    code = "return mask[:T, :T] * x"  # a parameter's default, which the calls left as it is
    named = fixed_size(result(calls(line_of(code), "h", code)), source)
    line = CODE.splitlines().index("def h(x, mask=np.ones((4, 4))):") + 1
    assert named is not None and named.hint.startswith(
        f"`mask` is built once for 4 tokens (line {line})")


def test_not_named_without_each_piece_of_evidence():
    source = Source([CODE])
    code = "return np.where(MASK[:T, :T] == 0, 0, x)"
    line = line_of(code)
    assert fixed_size(result(calls(line, "f", code, fitting_right=False)), source) is None
    assert fixed_size(result(calls(line + 1, "f", code)), source) is None  # another line
    other = "return BUILT[:T, :T] * x"  # built from an argument of the enclosing function
    assert fixed_size(result(calls(line_of(other), "inner", other)), source) is None
    seen = list(calls(line, "f", code))
    seen[1] = CallSeen(seen[1].shapes, False, "ValueError", "another message", seen[1].traceback)
    assert fixed_size(result(tuple(seen)), source) is None
