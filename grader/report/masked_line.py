"""The student's line that sets the hidden attention scores, for a hint about their mask.

A mask's hint (error_model/names.mask_inverted) says what the student's masking acts as in the
model solution's terms (`np.where(mask, scores, -np.inf)` with its condition inverted), which
their code may spell otherwise: a hide-mask kept by `np.where(mask, w, -np.inf)`, `~keep`, or a
boolean index set to -inf (blind round 79's b79_12 looked for a `~` it never wrote). HIDE_LINE
marks where the sentence says their line: report/steps.placed puts there the one statement of
the function the sentence places that fills with minus infinity (`hides_scores`), or drops the
mark where none or several do. Nothing here runs student code.
"""
from __future__ import annotations

import ast

from .syntax import called_name, literal_number

HIDE_LINE = " (at your line that sets the hidden scores)"  # said as their line, else dropped
HIDING_CALLS = frozenset({"where", "masked_fill", "masked_fill_"})
LARGEST_FILL = -1e4  # a finite fill this negative hides a score (d2l's -1e6, -1e9)


def minus_infinity(node: ast.AST) -> bool:
    """Whether `node` is a fill that hides a score: `-np.inf`, `-math.inf`, `np.NINF`,
    `np.finfo(...).min`, or a number written with literals at most LARGEST_FILL
    (`float('-inf')`, `-1e9`, `-10 ** 9`)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(
            node.operand, ast.Attribute) and node.operand.attr == "inf":
        return True
    if isinstance(node, ast.Attribute):
        return node.attr == "NINF" or (node.attr == "min" and isinstance(node.value, ast.Call)
                                       and called_name(node.value.func) == "finfo")
    number = literal_number(node)
    return number is not None and number <= LARGEST_FILL


def hides_scores(value: ast.AST) -> bool:
    """Whether a statement's value `value` sets hidden scores: it is a hiding fill itself (`s[m]
    = -np.inf`), or calls np.where or masked_fill with one (`np.where(m, s, -np.inf)`)."""
    if minus_infinity(value):
        return True
    return any(isinstance(n, ast.Call) and called_name(n.func) in HIDING_CALLS
               and any(minus_infinity(a) for a in n.args) for n in ast.walk(value))


PATTERNS = (hides_scores,)  # report/steps.placed's patterns for HIDE_LINE
