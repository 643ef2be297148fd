"""The max a stable softmax subtracts floored at a finite constant: a running max started at a
number instead of -inf, the C and CUDA habit (karpathy/llm.c's `float maxval = -10000.0f;` in
its CPU attention and softmax, `max_val = 0` in hand-written loops), which `np.maximum(np.max(x,
axis, keepdims=True), c)` writes. The same softmax wherever a slice reaches above the constant,
or lies less than about 745 below it; a slice whose every value lies farther below underflows
to exp = 0 everywhere, its ratio 0/0 = NaN, or 0 where the code guards a zero sum (llm.c's
`expsum == 0.0f ? 0.0f : 1.0f / expsum`). Constants no case reaches (-1e9, -FLT_MAX) are
harmless and not offered: they change nothing. An operator as in operators.py (`f(context,
node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, Renamed, assigned_once, callee, code, where

# the finite starts of a running max real code writes: llm.c's -10000.0f (also -1e4f), and 0
FLOORS = {-10000.0: ("-10000", "llm.c's `float maxval = -10000.0f;`"),
          0.0: ("0", "a loop's `max_val = 0`")}
UNDERFLOW = 745  # exp(-745.2) is the last double above zero


def _exponential(function: ast.AST, name: str) -> ast.Call | None:
    """The value of the one statement `name = np.exp(a - np.max(a, ...))` of `function`."""
    assigned = assigned_once(function, name)
    value = assigned.value if assigned is not None else None
    if not (isinstance(value, ast.Call) and callee(value) == "exp" and len(value.args) == 1
            and isinstance(value.args[0], ast.BinOp) and isinstance(value.args[0].op, ast.Sub)
            and isinstance(value.args[0].right, ast.Call)
            and callee(value.args[0].right) in ("max", "amax")
            and isinstance(value.args[0].right.func, ast.Attribute)):
        return None
    return value


def _renamed(node: ast.AST, name: str, value: ast.AST) -> ast.AST:
    """A copy of `node` with every read of `name` replaced by a copy of `value`."""
    return Renamed(name, value).visit(copy.deepcopy(node))


def max_floored(context: Context, node: ast.AST) -> Iterator[Change]:
    """A ratio `e / np.sum(e, ...)` of `e = np.exp(x - np.max(x, ...))` with the max floored at
    a constant of FLOORS, `np.maximum(np.max(x, ...), c)`: slices far below it come out NaN,
    or 0 with the zero sum guarded."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
            and isinstance(node.left, ast.Name) and isinstance(node.right, ast.Call)
            and callee(node.right) == "sum"):
        return
    name = node.left.id
    exponential = _exponential(context.instance.node, name)
    if exponential is None or not any(isinstance(n, ast.Name) and n.id == name
                                      for n in ast.walk(node.right)):
        return
    maximum = exponential.args[0].right
    numpy = maximum.func.value
    for floor, (said, source) in FLOORS.items():
        floored = copy.deepcopy(exponential)
        floored.args[0].right = ast.Call(ast.Attribute(copy.deepcopy(numpy), "maximum",
                                                       ast.Load()),
                                         [copy.deepcopy(maximum), ast.Constant(floor)], [])
        start = (f"In {where(context)}, the max subtracted before exp is floored at {said}, "
                 f"`np.maximum({code(maximum)}, {said})` (a running max started at {said} "
                 f"instead of -inf, as {source} starts it; that floor reproduces "
                 f"your outputs on these cases): a slice whose every value lies more than "
                 f"about {UNDERFLOW} below {said} has every exp underflow to 0, so it comes "
                 "out as ")
        end = (f", where the lecture subtracts the slice's own max, `{code(maximum)}`, however "
               "low it is. Start the max from -inf (or from the slice's first value).")

        def ratio(n, floored=floored):
            return _renamed(n, name, floored)

        def guarded(n, floored=floored):
            total = _renamed(n.right, name, floored)
            zero = ast.Compare(total, [ast.Eq()], [ast.Constant(0.0)])
            return ast.Call(ast.Attribute(copy.deepcopy(numpy), "where", ast.Load()),
                            [zero, ast.Constant(0.0), _renamed(n, name, floored)], [])

        yield Change(f"max-floored={said}", start + "NaN (0 / 0)" + end, ratio)
        yield Change(f"max-floored={said}.zero-sum-as-0",
                     start + "all zeros (its zero sum guarded, `1 / sum` taken as 0)" + end,
                     guarded)


OPERATORS = {"max_floored": max_floored}
