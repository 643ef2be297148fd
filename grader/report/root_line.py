"""The student's one line that takes a square root, for a hint about the scale it computes.

error_model/scales.lecture_scales says "the scores are divided by sqrt(d), the model width",
placed at the student's step (report/steps.py): blind round 79's b79_10 was sent to the line
that passes its divisor on, `out = scaled_dot_product_attention(q, k, v, scaler, mask)`, where
`scaler = np.sqrt(d_model)` is set nine lines before. ONE_ROOT_LINE marks where the sentence
says the line that takes the root: report/steps.placed puts there the statement of the function
the sentence places that takes a square root in any spelling (`takes_root`), only where exactly
one statement does (unlike quotes.ROOT_LINE, one spelling at a time: a right `d_k ** 0.5` beside
a wrong `np.sqrt(d)` is no one line); else the mark is dropped. Nothing here runs student code.
"""
from __future__ import annotations

import ast

from .syntax import called_name, literal_number

ONE_ROOT_LINE = " (at your line that takes it)"  # said as their line, else dropped
ROOTS = frozenset({"sqrt", "rsqrt"})  # math's, numpy's, torch's square roots by name
HALVES = (0.5, -0.5)  # `** 0.5` and `** -0.5`, a root or its reciprocal


def takes_root(value: ast.AST) -> bool:
    """Whether a statement's value `value` takes a square root: a call of a function named sqrt
    or rsqrt, or a power of one half (`** 0.5`, `** .5`, `** -0.5`, `** (1 / 2)`)."""
    for node in ast.walk(value):
        if isinstance(node, ast.Call) and called_name(node.func) in ROOTS:
            return True
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and literal_number(
                node.right) in HALVES:
            return True
    return False


PATTERNS = (takes_root,)  # report/steps.placed's patterns for ONE_ROOT_LINE
