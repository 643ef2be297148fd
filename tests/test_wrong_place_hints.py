"""Hints that sent a student to the wrong place (blind round 70, issue 38).

- A bias counted once per summed axis is said by what that axis means, once per input channel
  (C times), not as "axis 2 of `windows`": the model solution's `windows` is (H', W', C, k, k),
  a student's array of that name may be (h', w', kh, kw) (b70_11).
- A hint placed in a student-API function whose step runs in a helper of the submission's own
  says so: "In `vit_forward` (in your `head`, which it calls, ...)", where that step's line is
  known to lie in the helper (b70_08's `classification_head`, b70_11's `applyKernel2Layers`);
  otherwise the place is said as before (report/helper_place.py).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.driver import Driver
from grader.report.helper_place import helper_placed
from grader.report.quotes import Source
from grader.settings import GraderSettings

from conftest import EXERCISES

SOLUTION = Path(__file__).resolve().parents[1] / "solutions" / "vit_exercises.py"

# a convolution over one plane at a time, its bias added on every pass of the channel loop; the
# windows of one plane are (h', w', kh, kw): their axis 2 is a kernel row, not a channel
PER_CHANNEL_CONV = '''
def _one_plane(plane, kern, bias, s):
    kh, kw = kern.shape[:2]
    win = np.lib.stride_tricks.sliding_window_view(plane, (kh, kw))[::s, ::s]
    return np.einsum("ijkl,kld->ijd", win, kern) + bias


def _all_planes(img, kern, bias, s):
    total = 0
    for c in range(img.shape[2]):
        total = total + _one_plane(img[:, :, c], kern[:, :, c, :], bias, s)
    return total


def conv_patch_embed(image, K, b, stride):
    image = _as_hwc(image)
    if K.shape[0] > image.shape[0] or K.shape[0] > image.shape[1]:
        raise ValueError("the kernel does not fit")
    return _all_planes(image, K, b, stride)
'''
# a head of its own that pools every token (mean) before the final LayerNorm
POOLING_HEAD = '''
def _head(tokens, g, bb, W, bias):
    pooled = tokens.mean(axis=0)
    normed = layer_norm(pooled, g, bb)
    return normed @ W + bias


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    return _head(x, params["ln_g"], params["ln_b"], params["W_head"], params["b_head"])
'''
# the same mistake written in vit_forward itself: the place is said as before
POOLING_INLINE = '''
def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x.mean(axis=0), params["ln_g"], params["ln_b"])
    return x @ params["W_head"] + params["b_head"]
'''


@pytest.fixture(scope="module")
def driver():
    driver = Driver(GraderSettings(None, EXERCISES))
    yield driver
    driver.close()


def _hints(driver, tmp_path, snippet: str, exercise: str) -> list[str]:
    path = tmp_path / "port.py"  # the solution, the snippet's definitions after it (theirs win)
    path.write_text(SOLUTION.read_text() + "\n\n" + snippet)
    report = driver.grade(path).report
    found = next(e for e in report.exercises if e.id == exercise)
    hints = [c.hint for c in found.checks if not c.passed and c.hint]
    assert hints, found
    return hints


def test_a_bias_added_per_channel_is_counted_by_what_the_axis_means(driver, tmp_path):
    hints = [h for h in _hints(driver, tmp_path, PER_CHANNEL_CONV, "kernel-stride")
             if "is added once" in h]
    assert hints
    for hint in hints:
        assert "once per input channel" in hint and "counts C times" in hint, hint
        assert "of `windows`" not in hint and "windows.shape" not in hint, hint


def _line(snippet: str, text: str) -> int:
    whole = SOLUTION.read_text() + "\n\n" + snippet
    return 1 + next(i for i, line in enumerate(whole.splitlines()) if text in line)


def test_a_step_a_helper_of_its_own_runs_is_placed_at_that_helpers_line(driver, tmp_path):
    """The pooling's line, not the LayerNorm's after it (blind round 75's b75_11: the norm
    reads each row alone, the pooling is the mistake)."""
    line = _line(POOLING_HEAD, "pooled = tokens.mean(axis=0)")
    hints = _hints(driver, tmp_path, POOLING_HEAD, "vit-forward")
    for hint in hints:
        assert hint.startswith(
            f"In `vit_forward` (in your `_head`, which it calls: line {line}, `pooled = "
            "tokens.mean(axis=0)`), "), hint
        assert "`x[0]` is read as `x.mean(axis=0)`" in hint and "comes after" not in hint, hint


def test_a_pooling_line_not_known_for_sure_is_not_said():
    hint = "In `f`, `x[0]` is read as `x[1:].mean(axis=0)`: the rows after row 0 averaged."
    one = ("def g(t):\n    p = np.mean(t[num_prefix:], axis=0)\n    return p\n\n"
           "def f(x):\n    return g(x)\n")
    assert helper_placed(hint, Source([one], api=frozenset({"f"}))).startswith(
        "In `f` (in your `g`, which it calls: line 2, `p = np.mean(t[num_prefix:], axis=0)`), ")
    for code in (  # two reductions over rows in its helpers; one in f itself; a max, not a mean
            "def g(t):\n    s = t.sum(axis=0)\n    return t.mean(axis=0) / s\n\n"
            "def f(x):\n    return g(x)\n",
            "def g(t):\n    return t.mean(axis=0)\n\ndef f(x):\n    return g(x) + x.sum(0)\n",
            "def g(t):\n    return t.max(axis=0)\n\ndef f(x):\n    return g(x)\n"):
        assert helper_placed(hint, Source([code], api=frozenset({"f"}))) == hint, code


def test_the_same_step_in_the_function_itself_keeps_its_place(driver, tmp_path):
    hints = _hints(driver, tmp_path, POOLING_INLINE, "vit-forward")
    assert any(h.startswith("In `vit_forward`, ") for h in hints), hints
    assert not any("which it calls" in h for h in hints), hints


def test_a_parameter_passed_on_through_helpers_is_placed_in_the_helper_that_uses_it(
        driver, tmp_path):
    hints = [h for h in _hints(driver, tmp_path, PER_CHANNEL_CONV, "kernel-stride")
             if "is added once" in h]
    assert hints
    for hint in hints:  # the helper, not a line: which of its lines is wrong is not known
        assert hint.startswith(
            "In `conv_patch_embed` (in your `_one_plane`, which it calls through your "
            "`_all_planes` and which alone uses `b`, as `bias`), `b` is added once per input "
            "channel"), hint


HINT = "In `f`, `b` is added twice: add it once."


@pytest.mark.parametrize("code", [
    # f uses `b` itself beside passing it on: the step may be its own
    "def g(x, bias):\n    return x + bias\n\ndef f(x, b):\n    return g(x, b) + b\n",
    # two helpers use it: which one is meant is not known
    "def g(x, bias):\n    return x + bias\n\ndef h(x, bias):\n    return x * bias\n\n"
    "def f(x, b):\n    return h(g(x, b), b)\n",
    # the helper reads it in a loop's header, no statement of the kind compared
    "def g(x, bias):\n    for _ in bias:\n        x = x + 1\n    return x\n\n"
    "def f(x, b):\n    return g(x, b)\n",
    # a student-API function it calls is checked on its own: not followed
    "def api(x, bias):\n    return x + bias\n\ndef f(x, b):\n    return api(x, b)\n",
])
def test_a_place_not_known_for_sure_is_said_as_before(code):
    assert helper_placed(HINT, Source([code], api=frozenset({"f", "api"}))) == HINT


def test_a_parameter_used_in_one_helper_alone_and_no_source():
    code = ("def g(x, b):\n    y = x + b\n    return y + b\n\n"
            "def f(x, b):\n    return g(x, b=b)\n")
    assert helper_placed(HINT, Source([code], api=frozenset({"f"}))) == (
        "In `f` (in your `g`, which it calls and which alone uses `b`), `b` is added twice: add "
        "it once.")
    assert helper_placed(HINT, None) == HINT
