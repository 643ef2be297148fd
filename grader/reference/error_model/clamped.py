"""A step's values clamped to a small floor, as C code guards a division or a log
(`np.maximum(e, eps)`, `np.clip(e, eps, ...)`, `max(x, 1e-9)`, `np.where(e < 1e-5, 1e-5, e)`):
blind round 65's b65_15, a C "numerically stable softmax" whose exponentials are clamped to
[1e-5, 1e3]. Exponentials after the max is taken away are at most 1, so a ceiling above 1 changes
nothing; the floor gives every entry far below its slice's max a weight of about floor / sum
where the lecture's is about 0. The floors tried are the small constants the error model knows
(`operators.EPSILONS`); constants.py then says the value only as far as the calls tell it. Only
at a step `name = np.exp(x - np.max(x, ...))`: the positive values a floor guards (a floor on
values that may be negative is no guard). An operator as in operators.py (`f(context, node) ->
iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
import math
from collections.abc import Iterator

from .change import Change, Context, callee, code, where
from .operators import EPSILONS

STEPS = ("exp",)  # the steps whose values a floor guards: positive by construction
FLOORS = tuple(eps for eps in EPSILONS if eps > 0)


def _shifted(node: ast.AST) -> bool:
    """Whether `node` is `x - np.max(x, ...)`: values at most 0, their exps at most 1."""
    return (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub)
            and isinstance(node.right, ast.Call) and callee(node.right) in ("max", "amax"))


def floored(context: Context, node: ast.AST) -> Iterator[Change]:
    """`e = np.exp(...)` as `e = np.maximum(np.exp(...), c)` for each small constant c: every
    value below c raised to c (an entry about ln(1 / c) below its slice's max or lower)."""
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute) and callee(node.value) in STEPS
            and len(node.value.args) == 1 and _shifted(node.value.args[0])):
        return
    name, numpy = node.targets[0].id, node.value.func.value
    for floor in FLOORS:
        said = f"{floor:g}"

        def clamped(n: ast.Assign, floor=floor) -> ast.Assign:
            new = copy.copy(n)
            new.value = ast.Call(ast.Attribute(copy.deepcopy(numpy), "maximum", ast.Load()),
                                 [n.value, ast.Constant(floor)], [])
            return new

        yield Change(f"{name}_floor={said}",
                     f"In {where(context)}, `{name}` is clamped to a floor of {said}, "
                     f"`np.maximum({code(node.value)}, {said})` (as C code guards a division "
                     "or a log; that floor reproduces your outputs on these cases): every value "
                     f"below {said} becomes {said}, so an entry more than about "
                     f"{math.log(1 / floor):.3g} below its slice's max (a hidden -inf one too) "
                     f"gets a weight of about {said} / sum, where the lecture's `{code(node)}` "
                     "gives it about 0. Drop the clamp: the max taken away already keeps exp "
                     "from overflowing.",
                     clamped)


OPERATORS = {"clamped": floored}
