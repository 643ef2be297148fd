"""A mask's caveat said as "enough" where the student's fill is its dtype's minimum.

The error model tells a triangle one diagonal off whose outputs need a finite fill beside it (a
query left with no key gets a uniform row where -inf gives NaN) by the triangle alone: with
QUIET_NOTE where the fill changes nothing alone, or with UNSURE_NOTE where a second reading
fills with -10000 instead, a mistake alone where scores are far below it, which these cases
cannot tell from the first (error_model's `_within`: d2l's -1e6, round 56). The values cannot
tell them; the code can. Where the function the sentence places the slip in, with its own
helpers (not the student API's), fills with its dtype's minimum (`np.finfo(s.dtype).min`,
`-np.finfo(...).max`, float16's aside) and writes no other number of size 100 or more (a
-1e9 or -10000 fill, `float("-1e4")`, `-10 ** 9`), that fill's exp underflows to 0 as -inf's
does on every row with a visible key: fixing the slip is enough, and UNSURE_NOTE is said as
QUIET_NOTE (blind round 73's b73_14, `np.finfo(attn_scores.dtype).min`). Anything else keeps
the caveat. Nothing here runs student code.
"""
from __future__ import annotations

import ast
import math

from .fill_notes import QUIET_NOTE, UNSURE_NOTE
from .quotes import PLACED, Source
from .syntax import called_name, literal_number

LARGE = 100  # a number this size or more may be a fill that leaks where scores are far below it
NARROW = ("16", "half")  # float16's minimum, -65504, leaks where scores are 1e5 apart


def _finfo_bound(node: ast.AST, bound: str) -> bool:
    """Whether `node` is `<...>.finfo(dtype).<bound>` of a dtype wider than float16."""
    if not (isinstance(node, ast.Attribute) and node.attr == bound
            and isinstance(node.value, ast.Call) and node.value.args):
        return False
    return called_name(node.value.func) == "finfo" and not any(
        n in ast.unparse(node.value.args[0]) for n in NARROW)


def _dtype_minimum(node: ast.AST) -> bool:
    """Whether `node` is a dtype's minimum: `np.finfo(d).min` or `-np.finfo(d).max`."""
    return _finfo_bound(node, "min") or (
        isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
        and _finfo_bound(node.operand, "max"))


def fills_with_minimum(source: Source, function: str) -> bool:
    """Whether `function`'s code, with the submission's own helpers it calls, names a dtype's
    minimum and writes no finite number of size LARGE or more."""
    names = source.called(function)
    found = [node for _, definition in source.definitions() if definition.name in names
             for node in ast.walk(definition)]
    if not names or not any(map(_dtype_minimum, found)):
        return False
    sizes = (literal_number(node) for node in found)
    return not any(size is not None and math.isfinite(size) and abs(size) >= LARGE
                   for size in sizes)


def minimum_fill(hint: str | None, source: Source | None) -> str | None:
    """`hint` with UNSURE_NOTE said as QUIET_NOTE where the function it places the slip in
    fills with its dtype's minimum (the module's docstring); as it is without a source."""
    if source is None or not hint or UNSURE_NOTE not in hint:
        return hint
    placed = PLACED.search(hint)
    if placed is None or not fills_with_minimum(source, placed[1]):
        return hint
    return hint.replace(UNSURE_NOTE, QUIET_NOTE)
