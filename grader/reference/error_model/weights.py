"""A weight the lecture multiplies by from the right (`x @ W`), named as the caller passes it:
operators.transpose's `W.T-added` says "`W_e` is used transposed" where the lecture's step is
`linear(patchify(image, P), W_e, b_e)` (torch's nn.Linear stores its weight (out, in), and code
written on it multiplies by `W_e.T`), with the weight's shape as the checked function's
signature comment gives it (`[P*P*C, d]`). `multiplied` lists the checked function's arguments
that reach such a product, which order.argument_transposed leaves to this sentence (the same
rewrite of a 2-D weight, `W_e.swapaxes(0, 1)`, is one mistake, told once).
"""
from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Callable

from .change import Context, code, where
from .tree import PREFIX

SHAPES = re.compile(r"#\s*(.*?)\s*->")  # the reference's `# [H, W, C], [P*P*C, d], [d] -> ...`


def _parameters(function: Callable | None) -> list[str]:
    try:
        return list(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return []


def _groups(text: str) -> list[str]:
    """The comma-separated groups of a signature comment, brackets kept whole."""
    out, depth, start = [], 0, 0
    for i, char in enumerate(text + ","):
        depth += {"[": 1, "(": 1, "]": -1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    return out


def shape(function: Callable | None, name: str) -> tuple[str, str] | None:
    """The two sizes of the matrix parameter `name` as `function`'s signature comment writes
    them (`("P*P*C", "d")`); None where it writes none."""
    try:
        first = inspect.getsourcelines(function)[0][0]
    except (OSError, TypeError):
        return None
    found, params = SHAPES.search(first), _parameters(function)
    if found is None or name not in params:
        return None
    groups = _groups(found[1])
    index = params.index(name)
    sizes = (re.fullmatch(r"\[([^,\[\]]+),([^,\[\]]+)\]", groups[index])
             if index < len(groups) else None)
    return None if sizes is None else (sizes[1].strip(), sizes[2].strip())


def bound(context: Context, operand: ast.AST) -> ast.AST | None:
    """The argument the caller passes for the helper's parameter `operand` (`W` of `linear`,
    called `linear(..., W_e, b_e)`: `W_e`); the operand itself in the checked function; None
    for anything else."""
    if not isinstance(operand, ast.Name):
        return None
    if "/" not in context.instance.path:
        return operand if operand.id in _parameters(context.function) else None
    call = ast.parse(context.instance.call).body[0].value
    params = _parameters(context.instance.function)
    if operand.id not in params or not isinstance(call, ast.Call):
        return None
    index = params.index(operand.id)
    given = {k.arg: k.value for k in call.keywords}
    value = call.args[index] if index < len(call.args) else given.get(operand.id)
    return value if isinstance(value, (ast.Name, ast.Subscript)) else None


def transposed_sentence(context: Context, node: ast.BinOp) -> str | None:
    """The sentence of `x @ W` with `W` transposed, naming the weight as passed; None where the
    right operand is no weight the caller names."""
    weight = bound(context, node.right)
    if weight is None:
        return None
    name = code(weight)
    sizes = (shape(context.function, weight.id) if isinstance(weight, ast.Name)
             and context.instance.path.count("/") <= 1 else None)
    stored, lecture = (f"({sizes[1]}, {sizes[0]})", f"({sizes[0]}, {sizes[1]})") if sizes else (
        "(out, in)", "(in, out)")
    return (f"In {where(context)}, `{name}` is used transposed, `x @ {name}.T` (torch's "
            f"nn.Linear stores its weight as {stored}); the lecture's `{name}` is {lecture} and "
            f"multiplies from the right as it is: `x @ {name}` (where its two sizes differ, "
            f"numpy's matmul refuses the transposed one with ValueError).")


def multiplied(context: Context, node: ast.FunctionDef) -> set[str]:
    """The checked function's arguments some product `x @ W` multiplies by, in its own code or
    passed on as a helper's `W`."""
    found = {n.right.id for n in ast.walk(node) if isinstance(n, ast.BinOp)
             and isinstance(n.op, ast.MatMult) and isinstance(n.right, ast.Name)}
    for child in context.instance.children.values():
        call = ast.parse(child.call).body[0].value
        params = _parameters(child.function)
        weights = {n.right.id for n in ast.walk(child.node) if isinstance(n, ast.BinOp)
                   and isinstance(n.op, ast.MatMult) and isinstance(n.right, ast.Name)}
        for index, value in enumerate(getattr(call, "args", [])):
            if index < len(params) and params[index] in weights and isinstance(value, ast.Name):
                found.add(value.id)
    return {name.removeprefix(PREFIX) for name in found}
