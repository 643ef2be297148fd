"""Which arrays' axes a sentence may number as the student's (blind round 68's b68_05).

The axis operator (operators.axis) says "taken over axis 1": true of the student's array only
where it has the model solution's axes. An attention that loops over its heads holds (T, T)
scores where the model solution holds (heads, T, T), and its axis 0 is the model solution's
axis 1. So an array the checked function makes itself (reshaped, multiplied, split) or that a
helper holds has its axes tried, and so said, from the end first; a number from the start is
said as the model solution's array's.
"""
from __future__ import annotations

import ast

from .change import Context, callee

# an array the checked function makes itself (a head's scores), whose leading axes a student's
# code may have otherwise (one head at a time: (T, T) for the model solution's (heads, T, T)):
# an axis counted from the end is tried, and so said, first (blind round 68's b68_05, "taken
# over axis 1" of a per-head softmax over axis 0); a number from the start is said as the model
# solution's array's
AXES_FROM_END = (-1, -2, 0, 1, None)
THEIRS = " of the model solution's array (yours may have other leading axes)"


# calls that may give an array other axes than their input's (a student's code may lay them
# out otherwise): an array made with one is not numbered as the caller's
SHAPERS = frozenset(("reshape", "transpose", "swapaxes", "moveaxis", "split", "stack",
                     "concatenate", "einsum", "dot", "matmul", "tensordot", "expand_dims",
                     "squeeze", "split_heads", "merge_heads"))


def reduced_operand(node: ast.Call) -> ast.AST | None:
    """The array a reduction call takes: `x` of `x.max()`, of `np.max(x)` and of a helper's
    `softmax(x)`; None where it is given by keyword alone."""
    func = node.func
    if isinstance(func, ast.Attribute) and not (
            isinstance(func.value, ast.Name) and func.value.id in ("np", "numpy")):
        return func.value
    return node.args[0] if node.args else None


def given_array(context: Context, node: ast.Call) -> bool:
    """Whether the array `node` reduces has the axes of one of the checked function's own
    parameters, as the caller gives it: the parameter, or a name the function binds from
    parameters elementwise (softmax's `e = np.exp(x - ...)`). The student's array is then
    numbered alike; one the function reshapes, multiplies or splits may not be (a head's
    scores), nor any array of a helper's."""
    if "/" in context.instance.path:
        return False
    array = reduced_operand(node)
    function = context.instance.node
    given = {a.arg for a in function.args.args}
    for statement in ast.walk(function):  # in order: a name bound elementwise from given ones
        if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)):
            value = statement.value
            names = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
            reshaped = any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.MatMult)
                           or isinstance(n, ast.Call) and callee(n) in SHAPERS
                           or isinstance(n, ast.Subscript) for n in ast.walk(value))
            if names & given and not reshaped:
                given.add(statement.targets[0].id)
            else:
                given.discard(statement.targets[0].id)
    return isinstance(array, ast.Name) and array.id in given
