"""Queries and keys swapped, said in the student's terms where their code has no `attention`
(blind round 75, b75_12; report/swapped_arguments.py).

The error model says the swap through the model solution's call, "`attention(q, k, v, mask)` is
given `k` and `q` the other way round", which read as if the student's code called it; b75_12
computes each head's scores as `k @ q.T` in a helper of its own. Where the student's code calls
no `attention`, the sentence says the scores are K Q^T where Q K^T belongs, with their line that
computes them where it is known for sure; where it does call one, the sentence stays.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.driver import Driver
from grader.report.quotes import Source
from grader.report.swapped_arguments import swapped_arguments
from grader.settings import GraderSettings

from conftest import EXERCISES

SOLUTION = Path(__file__).resolve().parents[1] / "solutions" / "vit_exercises.py"
HINT = ("In `self_attention`, `attention(q, k, v, mask)` is given `k` and `q` the other way "
        "round: `attention(k, q, v, mask)`.")
API = frozenset({"self_attention", "softmax", "linear"})

# one head at a time in a helper of its own, the scores keys by queries (np.matmul, swapaxes)
PER_HEAD = '''
def _head_out(xs, p, cols):
    query, key, value = (xs @ p[w][:, cols] + p[b][cols] for w, b in
                         (("Wq", "bq"), ("Wk", "bk"), ("Wv", "bv")))
    s = np.matmul(key, np.swapaxes(query, -1, -2)) / np.sqrt(query.shape[-1])
    return softmax(s) @ value


def self_attention(x, p, heads, causal=False):
    d = x.shape[-1] // heads
    outs = [_head_out(x, p, slice(h * d, (h + 1) * d)) for h in range(heads)]
    return np.concatenate(outs, axis=-1) @ p["Wo"] + p["bo"]
'''


def test_a_swap_in_a_step_the_code_does_not_call_is_said_as_the_scores():
    said = swapped_arguments(HINT, Source([PER_HEAD], api=API))
    assert said == (
        "In `self_attention`, the attention scores are computed as K Q^T, the keys times the "
        "transposed queries (at your line `s = np.matmul(key, np.swapaxes(query, -1, -2))...` in "
        "your `_head_out`), where Q K^T belongs: entry (i, j) pairs key "
        "i with query j, where it should pair query i with key j."), said
    assert "attention(" not in said


@pytest.mark.parametrize("code", [
    # two products with a transposed array: which one makes the scores is not known
    "def self_attention(x, p, heads, causal=False):\n    q, k = x @ p['Wq'].T, x @ p['Wk']\n"
    "    return softmax(k @ q.T) @ x\n",
    # an einsum may make them
    "def self_attention(x, p, heads, causal=False):\n    q, k = x @ p['Wq'], x @ p['Wk']\n"
    "    s = np.einsum('td,sd->ts', k, q)\n    return softmax(s) @ (x @ p['Wv']).T.T\n",
])
def test_the_scores_line_not_known_for_sure_is_not_quoted(code):
    said = swapped_arguments(HINT, Source([code], api=API))
    assert said.startswith("In `self_attention`, the attention scores are computed as K Q^T, the "
                           "keys times the transposed queries, where Q K^T belongs"), said
    assert "your line" not in said


def test_a_swap_in_a_step_the_code_does_call_keeps_its_words():
    code = ("def attention(q, k, v):\n    return softmax(q @ k.T) @ v\n\n"
            "def self_attention(x, p, heads, causal=False):\n"
            "    q, k, v = x @ p['Wq'], x @ p['Wk'], x @ p['Wv']\n    return attention(k, q, v)\n")
    assert swapped_arguments(HINT, Source([code], api=API)) == HINT
    assert swapped_arguments(HINT, None) == HINT


def test_another_swap_is_said_as_the_model_solutions_step():
    hint = ("In `self_attention`, `attention(q, k, v, mask)` is given `v` and `k` the other way "
            "round: `attention(q, v, k, mask)`.")
    said = swapped_arguments(hint, Source([PER_HEAD], api=API))
    assert said == ("In `self_attention`, `k` and `v` play each other's part: the values are "
                    "those of the model solution's step `attention(q, k, v, mask)` given them the "
                    "other way round, `attention(q, v, k, mask)`."), said


def test_a_graded_port_with_its_own_head_function_is_told_the_scores(tmp_path):
    path = tmp_path / "port.py"  # the solution, the snippet's definitions after it (theirs win)
    path.write_text(SOLUTION.read_text() + "\n\n" + PER_HEAD)
    driver = Driver(GraderSettings(None, EXERCISES))
    try:
        report = driver.grade(path).report
    finally:
        driver.close()
    found = next(e for e in report.exercises if e.id == "multi-head-attention")
    hints = [c.hint for c in found.checks if not c.passed and c.hint]
    assert hints and all("computed as K Q^T" in h and "attention(" not in h for h in hints), hints
