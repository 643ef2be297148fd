"""A causal mask applied with its condition inverted, said at the student's own line (blind round
79's b79_12, issue 38): PyTorch's hide-mask `np.triu(ones, 1).astype(bool)` read as the keep-mask
in `np.where(mask, w, -np.inf)` was told "the model solution's `np.where(mask, scores, -np.inf)`
is written with its condition inverted, `np.where(~mask, scores, -np.inf)`", and the student
looked for a `~` they never wrote. The hint now says what their masking acts as, at the line of
their function that sets the hidden scores where exactly one does (report/steps.py through
masked_line.HIDE_LINE), and stays true where they did write `~mask`."""
from __future__ import annotations

import ast

import pytest
from one_function import graded_one

from grader.report.masked_line import HIDE_LINE, hides_scores
from grader.report.quotes import Source
from grader.report.steps import placed

INVERTED = "op:mask_inverted:self_attention/attention:mask-inverted"
HEAD = '''
def self_attention(x, p, heads, causal=False):
    n, width = x.shape
    hw = width // heads
    if width % heads:
        raise ValueError("heads must divide the width")
    qs, ks, vs = ((x @ p["W" + c] + p["b" + c]).reshape(n, heads, hw).transpose(1, 0, 2)
                  for c in "qkv")
    att = qs @ ks.transpose(0, 2, 1) / hw ** 0.5
    if causal:
{mask}
    att = np.exp(att - att.max(-1, keepdims=True))
    att = att / att.sum(-1, keepdims=True)
    return (att @ vs).transpose(1, 0, 2).reshape(n, width) @ p["Wo"] + p["bo"]
'''
# (the masking lines, the line that sets the hidden scores as quoted)
MASKINGS = {
    "hide-mask-kept": ("        blocked = np.triu(np.ones((n, n)), 1).astype(bool)\n"
                       "        att = np.where(blocked, att, -np.inf)",
                       "att = np.where(blocked, att, -np.inf)"),
    "tilde-written": ("        keep = np.tril(np.ones((n, n), dtype=bool))\n"
                      "        att = np.where(~keep, att, -np.inf)",
                      "att = np.where(~keep, att, -np.inf)"),
    "keep-mask-indexed": ("        att[:, np.tril(np.ones((n, n))) == 1] = float('-inf')",
                          "att[:, np.tril(np.ones((n, n))) == 1] = float('-inf')"),
}


@pytest.mark.parametrize("masking", list(MASKINGS))
def test_an_inverted_condition_is_said_at_the_student_s_line(catalogue, tmp_path, masking):
    lines, quoted = MASKINGS[masking]
    result = graded_one(catalogue, tmp_path, HEAD.replace("{mask}", lines), "no-causal-mask")
    failed = [c for c in result.checks if not c.passed]
    assert failed and all(c.misconception == INVERTED for c in failed), [
        (c.name, c.misconception, c.hint) for c in result.checks]
    for check in failed:
        assert HIDE_LINE not in check.hint, check.hint
        assert f"your masking (at your line `{quoted}`) acts as the model solution's " \
               "`np.where(mask, scores, -np.inf)` with its condition inverted" in check.hint, (
                   check.hint)
        assert "is written with its condition inverted" not in check.hint, check.hint


@pytest.mark.parametrize(("code", "hides"), [
    ("w = np.where(mask, w, -np.inf)", True),
    ("w = np.where(m == 0, float('-inf'), w)", True),
    ("s = s.masked_fill(m, -1e9)", True),
    ("s[m] = -math.inf", True),
    ("s = np.where(m, s, np.finfo(s.dtype).min)", True),
    ("mask = np.triu(np.ones((n, n)), 1).astype(bool)", False),
    ("w = np.where(w > 0, w, 0.0)", False),  # a ReLU, no hiding
    ("w = w - w.max(-1, keepdims=True)", False),
])
def test_a_statement_sets_hidden_scores_where_it_fills_with_minus_infinity(code, hides):
    assert hides_scores(ast.parse(code).body[0].value) is hides


def test_the_line_is_said_where_exactly_one_statement_sets_hidden_scores_else_dropped():
    hint = (f"In `self_attention`, your masking{HIDE_LINE} acts as the model solution's "
            "`np.where(mask, scores, -np.inf)` with its condition inverted.")
    assert placed(hint, None) == hint
    one = HEAD.replace("{mask}", MASKINGS["hide-mask-kept"][0])
    assert "(at your line `att = np.where(blocked, att, -np.inf)`)" in placed(hint, Source([one]))
    twice = one.replace("    att = np.exp(", "    att = np.where(blocked, att, -np.inf)\n"
                                             "    att = np.exp(")
    assert placed(hint, Source([twice])) == hint.replace(HIDE_LINE, "")
    none = HEAD.replace("{mask}", "        pass")
    assert placed(hint, Source([none])) == hint.replace(HIDE_LINE, "")
