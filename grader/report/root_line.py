"""Whether a statement takes a square root, in any spelling: the test of quotes.ROOT_LINE.

error_model/scales.lecture_scales says "the scores are divided by sqrt(d), the model width",
placed at the student's step (report/steps.py): blind round 79's b79_10 was sent to the line
that passes its divisor on, `out = scaled_dot_product_attention(q, k, v, scaler, mask)`, where
`scaler = np.sqrt(d_model)` is set nine lines before. quotes.ROOT_LINE marks where a sentence
(that one, scales.factors', square_grid's) says the line that takes the root: report/steps.placed
puts there the statement of the function the sentence places that takes a square root
(`takes_root`, every spelling counted at once), only where exactly one statement does (a right
`d_k ** 0.5` beside a wrong `np.sqrt(d)` is no one line); else the mark is dropped. Nothing here
runs student code.
"""
from __future__ import annotations

import ast

from .syntax import called_name, literal_number

ROOTS = frozenset({"sqrt", "rsqrt", "isqrt"})  # math's, numpy's, torch's square roots by name
HALVES = (0.5, -0.5)  # `** 0.5` and `** -0.5`, a root or its reciprocal


def takes_root(value: ast.AST) -> bool:
    """Whether a statement's value `value` takes a square root: a call of a function named sqrt,
    rsqrt or isqrt, or a power of one half (`** 0.5`, `** .5`, `** -0.5`, `** (1 / 2)`)."""
    for node in ast.walk(value):
        if isinstance(node, ast.Call) and called_name(node.func) in ROOTS:
            return True
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and literal_number(
                node.right) in HALVES:
            return True
    return False
