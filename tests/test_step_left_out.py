"""A step left out (the error model's `skip`), said in the lecture's words (blind round 59,
b59_02): "In `self_attention`, the step is left out: `out` goes on as it is." named no step (its
quote of the model solution's `linear(out, p['Wo'], p['bo'])` dropped, as none of the student's
code) and a name, `out`, the student's code does not have. The sentence names the step as the
lecture does (the output projection, `... @ Wo + bo`) and quotes no code of the model
solution's as if it were the student's."""
from __future__ import annotations

import re

import pytest

from grader.checks.results import MISTAKE
from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.report.quotes import Source, attributed

FUNCTIONS = ("self_attention", "encoder_block", "vit_forward", "embed_image",
             "linear_patch_embed", "num_tokens")


def _skips(function: str) -> dict[str, str]:
    """{name: sentence} of each step of `function` left out, the causal mask's aside (its
    sentence says what the mask does not hide)."""
    _, edits = em.model(REFERENCE[function])
    return {e.name: e.sentence for e in edits
            if e.operator == "skip" and "causal mask" not in e.sentence}


@pytest.mark.parametrize("function", FUNCTIONS)
def test_a_step_left_out_is_named_in_words_and_no_reference_name_goes_on(function):
    skips = _skips(function)
    assert skips
    for sentence in skips.values():
        told = sentence.split(" is left out: ", 1)
        assert len(told) == 2, sentence
        step = re.sub(r"^In `\w+`(?: \(at the model solution's step `[^`]+`\))?, ", "", told[0])
        assert not step.startswith("the step"), sentence  # a step named, not "the step `...`"
        # a quote of the step's code only in brackets (its formula) or said as the model
        # solution's: what is left out is no code of the student's
        bare = re.sub(r"\([^()]*\)|the model solution's step `[^`]+`", "", step)
        assert "`" not in bare, sentence
        assert "`" not in told[1], sentence  # "`out` goes on": a name of the model solution's


def test_the_output_projection_and_each_layer_norm_are_told_apart():
    sentences = _skips("encoder_block").values()
    assert any("the output projection (`... @ p['Wo'] + p['bo']`) is left out" in s
               for s in sentences)
    assert any("the LayerNorm (with `p['ln1_g']` and `p['ln1_b']`)" in s for s in sentences)
    assert any("the LayerNorm (with `p['ln2_g']` and `p['ln2_b']`)" in s for s in sentences)
    assert any("the MLP's second layer (`... @ p['W2'] + p['b2']`)" in s for s in sentences)


# self_attention without its output projection, which the caller applies (b59_02's
# lukemelas-style `Block.proj`, written another way: a head loop, the heads stacked)
NO_PROJECTION = '''
import numpy as np


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    w = d // heads
    q, k, v = (x @ p[f"W{n}"] + p[f"b{n}"] for n in "qkv")
    per_head = []
    for h in range(heads):
        s = q[:, h * w:(h + 1) * w] @ k[:, h * w:(h + 1) * w].T / np.sqrt(w)
        if causal:
            s = np.where(np.tri(T, dtype=bool), s, -np.inf)
        per_head.append(softmax(s) @ v[:, h * w:(h + 1) * w])
    return np.concatenate(per_head, axis=-1)
'''


def test_the_output_projection_left_out_is_said_so_and_quotes_no_code_of_the_solution(
        catalogue, tmp_path):
    from buggy_submissions import build_submission

    from grader.checks import SubmissionGrading
    from grader.worker import StudentWorker

    chosen = [e for e in catalogue if e.id == "no-causal-mask"]  # no listed variant there
    snippet = tmp_path / "snippet.py"
    snippet.write_text(NO_PROJECTION)
    with StudentWorker(build_submission(snippet, tmp_path)) as worker:
        result = SubmissionGrading(worker, catalogue=chosen).exercise(chosen[0])
    named = [c for c in result.checks if not c.passed and c.hint_kind == MISTAKE
             and c.misconception.startswith("op:")]  # the error model's, not the spec's listed
    assert named, [c.hint for c in result.checks]
    # as a report says it: the quotes the student's code does not hold (report/quotes.py)
    source = Source([NO_PROJECTION])
    for check in named:
        hint = attributed(check.hint, source)
        assert hint == ("In `self_attention`, the output projection (`... @ p['Wo'] + p['bo']`) "
                        "is left out: its input goes on as it is."), hint


# the caller applies the projection `self_attention` leaves out (b59_02's line 151)
CALLER = '''

def encoder_block(x, p, heads):
    h = self_attention(x, p, heads)
    h = h @ p["Wo"] + p["bo"]
    return x + h
'''
LEFT_OUT = ("In `self_attention`, the output projection (`... @ p['Wo'] + p['bo']`) is left "
            "out: its input goes on as it is.")


def test_the_callers_line_that_applies_the_step_left_out_is_said(catalogue, tmp_path):
    from buggy_submissions import build_submission

    from grader.checks import SubmissionGrading
    from grader.report.spelled import finished
    from grader.worker import StudentWorker

    code = NO_PROJECTION + CALLER
    chosen = [e for e in catalogue if e.id == "no-causal-mask"]
    snippet = tmp_path / "snippet.py"
    snippet.write_text(code)
    with StudentWorker(build_submission(snippet, tmp_path)) as worker:
        result = SubmissionGrading(worker, catalogue=chosen).exercise(chosen[0])
    told = finished(result, Source([code]))
    line = code.splitlines().index('    h = h @ p["Wo"] + p["bo"]') + 1
    named = [c.hint for c in told.checks if c.hint and c.hint.startswith(LEFT_OUT)]
    assert named, [c.hint for c in told.checks]
    for hint in named:
        assert hint == LEFT_OUT + (
            f" Your `encoder_block` applies it to what `self_attention` returns (line {line}: "
            "`h = h @ p[\"Wo\"] + p[\"bo\"]`): move it into `self_attention`, which is checked "
            "on its own (added there and kept here, it would be applied twice)."), hint


@pytest.mark.parametrize("caller", [
    "\ndef encoder_block(x, p, heads):\n    return x + self_attention(x, p, heads)\n",  # none
    "\ndef encoder_block(x, p, heads):\n    h = x @ p['Wo'] + p['bo']\n"  # not its result
    "    return h + self_attention(x, p, heads)\n",
    "\ndef encoder_block(x, p, heads):\n    h = self_attention(x, p, heads)\n"  # two lines
    "    a = h @ p['Wo'] + p['bo']\n    b = h @ p['Wo'] + p['bo']\n    return a + b\n",
    "\ndef encoder_block(x, p, heads):\n    h = self_attention(x, p, heads)\n"  # another map
    "    return h @ p['W1'] + p['b1']\n",
])
def test_no_line_is_said_unless_one_applies_that_step_to_the_functions_result(caller):
    from grader.report.moved import moved

    assert moved(LEFT_OUT, Source([NO_PROJECTION + caller])) == LEFT_OUT
    assert moved(LEFT_OUT, None) == LEFT_OUT
