"""Two readings of the student's code's syntax the report's line finders share: the name a call
calls (`np.sqrt(...)` and `sqrt(...)` alike: `sqrt`) and the value of a number written with
literals only (`-1e9`, `-10 ** 9`, `1 / 2`, `float("-inf")`). Nothing here runs student code."""
from __future__ import annotations

import ast
import operator

OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
             ast.Div: operator.truediv, ast.Pow: operator.pow}


def called_name(func: ast.AST) -> str | None:
    """The name a call's `func` calls: an attribute's (`np.sqrt`: `sqrt`) or a name's."""
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


def literal_number(node: ast.AST) -> float | None:
    """The value of a number written with literals only (`-1e9`, `-10 ** 9`, `1 / 2`,
    `float("-1e4")`, `float("-inf")`), else None."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = literal_number(node.operand)
        return None if inner is None else -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
        left, right = literal_number(node.left), literal_number(node.right)
        if left is None or right is None or (isinstance(node.op, ast.Pow) and abs(right) > 400):
            return None
        try:
            return float(OPERATORS[type(node.op)](left, right))
        except (ArithmeticError, ValueError):
            return None
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float"
            and len(node.args) == 1 and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)):
        try:
            return float(node.args[0].value)
        except ValueError:
            return None
    return None
