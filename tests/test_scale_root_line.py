"""The scores divided by sqrt(d), said at the student's line that takes that root (blind round 79's
b79_10, issue 38): `scaler = np.sqrt(d_model)` computed in self_attention and passed to a helper
of the student's was told "In `self_attention` (at your line `out =
scaled_dot_product_attention(q, k, v, scaler, mask)`), the scores are divided by sqrt(d) ...",
the line that passes the divisor on, not the one that makes it. The sentence now says the line
that takes the square root too, where exactly one statement of the function takes one in any
spelling (quotes.ROOT_LINE, whose one pattern is root_line.takes_root), never a guess: with none
or several, today's words alone; a line the step's place already quotes is said once."""
from __future__ import annotations

import ast

import pytest
from one_function import graded_one

from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.reference.error_model.change import STEP
from grader.report.quotes import ROOT_LINE, Source
from grader.report.root_line import takes_root
from grader.report.steps import MARKS, placed

SQRT_D = "op:constant:self_attention/attention:scale=sqrt(d)"
HELPER = '''
def self_attention(x, p, heads, causal=False):
    def attend(q, k, v, denom, keep):
        s = np.einsum("htd,hsd->hts", q, k) / denom
        if keep is not None:
            s = np.where(keep, s, -np.inf)
        s = np.exp(s - s.max(-1, keepdims=True))
        return (s / s.sum(-1, keepdims=True)) @ v

    n, width = x.shape
    if width % heads:
        raise ValueError("heads must divide the width")
    hw = width // heads
{divisor}
    q, k, v = ((x @ p["W" + c] + p["b" + c]).reshape(n, heads, hw).transpose(1, 0, 2)
               for c in "qkv")
    keep = np.tril(np.ones((n, n), dtype=bool)) if causal else None
    out = attend(q, k, v, {passed}, keep)
    return out.transpose(1, 0, 2).reshape(n, width) @ p["Wo"] + p["bo"]
'''
DIVISORS = {  # (the divisor's lines, what the call passes, the root's line quoted or None)
    "named": ("    denom = np.sqrt(width)", "denom", "denom = np.sqrt(width)"),
    "power": ("    denom = width ** 0.5", "denom", "denom = width ** 0.5"),
    "two-roots": ("    denom = np.sqrt(width)\n    spare = math.sqrt(hw)", "denom + 0 * spare",
                  None),
}


@pytest.mark.parametrize("divisor", list(DIVISORS))
def test_a_divisor_computed_before_the_call_is_said_at_its_line(catalogue, tmp_path, divisor):
    lines, passed, quoted = DIVISORS[divisor]
    code = HELPER.replace("{divisor}", lines).replace("{passed}", passed)
    result = graded_one(catalogue, tmp_path, code, "no-causal-mask")
    failed = [c for c in result.checks if not c.passed]
    assert failed and all(c.misconception == SQRT_D for c in failed), [
        (c.name, c.misconception, c.hint) for c in result.checks]
    for check in failed:
        assert ROOT_LINE not in check.hint, check.hint
        said = (f"divided by sqrt(d) (at your line `{quoted}`), the model width" if quoted
                else "divided by sqrt(d), the model width")
        assert said in check.hint, check.hint


@pytest.mark.parametrize(("code", "takes"), [
    ("d = np.sqrt(width)", True), ("s = q @ k.T / math.sqrt(d)", True),
    ("s = w ** 0.5", True), ("s = w ** (1 / 2)", True), ("s = w ** .5", True),
    ("s = w ** -0.5", True), ("s = torch.sqrt(torch.tensor(d))", True),
    ("n = math.isqrt(H * W // P // P)", True), ("s = torch.rsqrt(d)", True),
    ("s = w ** 2", False), ("s = w ** 0.25", False), ("h = width // heads", False),
    ("y = np.exp(x)", False),
])
def test_a_statement_takes_a_square_root_in_any_spelling(code, takes):
    assert takes_root(ast.parse(code).body[0].value) is takes


def test_the_root_s_line_is_said_once_and_only_where_one_statement_takes_a_root():
    body = ("def self_attention(x, p, heads):\n    d = x.shape[1]\n{lines}\n"
            "    return out\n")
    hint = (f"In `self_attention` ({STEP} `attention(q, k, v, mask)`), the scores are divided "
            f"by sqrt(d){ROOT_LINE}, the model width.")
    assert placed(hint, None) == hint
    apart = body.format(lines="    r = np.sqrt(d)\n    out = attend(q, k, v, mask, r)")
    assert placed(hint, Source([apart])) == (
        "In `self_attention` (at your line `out = attend(q, k, v, mask, r)`), the scores are "
        "divided by sqrt(d) (at your line `r = np.sqrt(d)`), the model width.")
    inline = body.format(lines="    out = attend(q, k, v, mask, np.sqrt(d))")
    assert placed(hint, Source([inline])) == (
        "In `self_attention`, the scores are divided by sqrt(d) (at your line `out = attend(q, "
        "k, v, mask, np.sqrt(d))`), the model width.")
    two = body.format(lines="    r = np.sqrt(d)\n    t = d ** 0.5\n"
                            "    out = attend(q, k, v, mask, r)")
    assert placed(hint, Source([two])) == (
        "In `self_attention` (at your line `out = attend(q, k, v, mask, r)`), the scores are "
        "divided by sqrt(d), the model width.")


def test_a_step_s_line_another_sentence_quotes_is_still_said():
    """Said once a sentence: "2 mistakes at once" whose first sentence quotes the line keeps the
    second sentence's place."""
    text = ("def self_attention(x, p, heads):\n    d = x.shape[1]\n"
            "    out = attend(q, k, v, mask, np.sqrt(d))\n    return out\n")
    hint = (f"2 mistakes at once: (1) In `self_attention`, the scores are divided by sqrt(d)"
            f"{ROOT_LINE}. (2) In `self_attention` ({STEP} `attention(q, k, v, mask)`), "
            "the mask is inverted.")
    assert placed(hint, Source([text])) == (
        "2 mistakes at once: (1) In `self_attention`, the scores are divided by sqrt(d) (at your "
        "line `out = attend(q, k, v, mask, np.sqrt(d))`). (2) In `self_attention` (at your line "
        "`out = attend(q, k, v, mask, np.sqrt(d))`), the mask is inverted.")


def test_one_mark_says_the_line_that_takes_the_square_root_in_any_spelling():
    """The sqrt(d) sentence and the other sentences that quote the root (scales.factors,
    square_grid) say one mark, which counts every spelling at once: a right `d_k ** 0.5` beside
    a wrong `np.sqrt(d)` is no one line (before, the first spelling one statement held won)."""
    said = em.sentence(REFERENCE["self_attention"], "op:constant:self_attention/attention:"
                       "scale=sqrt(d)")
    assert ROOT_LINE in said and placed(said, None) == said, said
    assert [m for m in MARKS if "root" in m and "fourth" not in m] == [ROOT_LINE]
    hint = f"In `self_attention`, the scores are divided by sqrt(heads){ROOT_LINE}, the heads."
    body = "def self_attention(x, p, heads):\n    d = x.shape[1]\n{lines}\n    return out\n"
    both = body.format(lines="    d_k = (d // heads) ** 0.5\n    r = np.sqrt(d)\n"
                             "    out = attend(q, k, v, r)")
    assert placed(hint, Source([both])) == (
        "In `self_attention`, the scores are divided by sqrt(heads), the heads.")
    reciprocal = body.format(lines="    out = attend(q, k, v, heads ** -0.5)")
    assert placed(hint, Source([reciprocal])) == (
        "In `self_attention`, the scores are divided by sqrt(heads) (at your line `out = "
        "attend(q, k, v, heads ** -0.5)`), the heads.")
