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

HIDE_LINE = " (at your line that sets the hidden scores)"  # said as their line, else dropped
HIDING_CALLS = frozenset({"where", "masked_fill", "masked_fill_"})
LARGEST_FILL = -1e4  # a finite fill this negative hides a score (d2l's -1e6, -1e9)


def minus_infinity(node: ast.AST) -> bool:
    """Whether `node` is a fill that hides a score: `-np.inf`, `-math.inf`, `float('-inf')`,
    `-float('inf')`, `np.NINF`, `np.finfo(...).min`, or a number at most LARGEST_FILL."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = node.operand
        if isinstance(inner, ast.Attribute) and inner.attr == "inf":
            return True
        if isinstance(inner, ast.Constant) and isinstance(inner.value, int | float):
            return -inner.value <= LARGEST_FILL
        return _float_of(inner, "inf")
    if isinstance(node, ast.Attribute):
        return node.attr in ("NINF", "min") and (
            node.attr == "NINF" or isinstance(node.value, ast.Call)
            and getattr(node.value.func, "attr", None) == "finfo")
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(
            node.value, bool):
        return node.value <= LARGEST_FILL
    return _float_of(node, "-inf")


def _float_of(node: ast.AST, text: str) -> bool:
    """Whether `node` is `float('text')` (any case)."""
    return (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "float"
            and len(node.args) == 1 and isinstance(node.args[0], ast.Constant)
            and str(node.args[0].value).lower() == text)


def hides_scores(value: ast.AST) -> bool:
    """Whether a statement's value `value` sets hidden scores: it is a hiding fill itself (`s[m]
    = -np.inf`), or calls np.where or masked_fill with one (`np.where(m, s, -np.inf)`)."""
    if minus_infinity(value):
        return True
    return any(isinstance(n, ast.Call) and _name(n.func) in HIDING_CALLS
               and any(minus_infinity(a) for a in n.args) for n in ast.walk(value))


def _name(func: ast.AST) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


PATTERNS = (hides_scores,)  # report/steps.placed's patterns for HIDE_LINE
