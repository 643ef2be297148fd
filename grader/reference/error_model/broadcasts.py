"""Operators on how a reduction is broadcast back against the array it came from, as operators
in operators.py (`f(context, node) -> iterator of Change`):

- a division by a sum kept with keepdims=True written with numpy's transpose trick instead,
  `(e.T / np.sum(e, axis=axis)).T` (the "Self Attention for Transformers" notebooks of
  CodeEmporium / ajhalthor's Transformer-Neural-Network, `(np.exp(x).T / np.sum(np.exp(x),
  axis=-1)).T`, and numpy answers' softmax of the rows of a 2-D array): the reduced axis dropped
  and the quotient transposed there and back. For a 2-D array along its last axis it is the same;
  along another axis, or with more axes (`.T` reverses them all), the sums no longer line up
  with their slices: other values, or numpy's broadcast error. norms.py's `by_transpose` is the
  same idiom for LayerNorm's statistics (a difference, the last axis only).
- the same trick with the reduction over the last axis whatever the checked function's axis
  parameter says, `(e.T / np.sum(e, axis=-1)).T` (the notebooks' very line, written for the
  rows of a (T, T) score matrix, and numpy answers' `(np.exp(x).T / np.exp(x).sum(-1)).T`):
  the sum ignoring the parameter (said as the step that ignores it: the model solution's max
  still reads it, as a student's may; report/fixed_axis.py says "never read" where the
  student's function reads it nowhere), and `.T` reversing every axis of a batched input; said
  only where a call has 3 axes or more and a call asks for another axis than the last (on 1-D
  and 2-D inputs it reads as the axis taken as its default, `choices.py`'s).

Only where the pattern is: a quotient whose divisor is a reduction called with keepdims=True.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, callee, code, literal, where, with_keyword

REDUCTIONS = ("sum", "max", "mean", "norm")


def _kept_reduction(node: ast.AST) -> bool:
    """Whether `node` is `np.sum(e, axis=..., keepdims=True)` (or another reduction so)."""
    return (isinstance(node, ast.Call) and callee(node) in REDUCTIONS and any(
        k.arg == "keepdims" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in node.keywords))


def _through_transpose(node: ast.BinOp) -> ast.Attribute:
    """`(left.T / reduction(..., no keepdims)).T` for `left / reduction(..., keepdims=True)`."""
    quotient = ast.BinOp(ast.Attribute(copy.deepcopy(node.left), "T", ast.Load()), ast.Div(),
                         with_keyword(copy.deepcopy(node.right), "keepdims", None))
    return ast.Attribute(quotient, "T", ast.Load())


def divided_by_transpose(context: Context, node: ast.AST) -> Iterator[Change]:
    """`e / np.sum(e, axis=axis, keepdims=True)` as `(e.T / np.sum(e, axis=axis)).T`."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
            and _kept_reduction(node.right)):
        return
    shown = code(_through_transpose(node))
    yield Change(f"{callee(node.right)}-by-transpose",
                 f"In {where(context)}, `{code(node)}` is written `{shown}` (the transpose "
                 f"trick for the rows of a 2-D array, the {callee(node.right)} taken without "
                 "keepdims=True): the same for a 2-D array along its last axis, but along "
                 "another axis, or with more axes (`.T` reverses all of them), the "
                 f"{callee(node.right)}s no longer line up with their slices (other values, or "
                 "a broadcast error). Keep the reduced axis (keepdims=True) and divide "
                 "directly, with no transposes.", _through_transpose)
    parameter = _axis_parameter(context, node.right)
    if parameter is None:
        return
    name, position, default = parameter
    last = with_keyword(node.right, "axis", ast.Constant(-1))
    last_shown = code(_through_transpose(ast.BinOp(node.left, ast.Div(), last)))
    yield Change(f"{callee(node.right)}-by-transpose-last-axis",
                 f"In {where(context)}, `{code(node)}` is written `{last_shown}`, the transpose "
                 f"trick for the rows of a 2-D array: the {callee(node.right)} ignores "
                 f"`{name}` (it is always over the last axis, as if `{name}` were -1), "
                 "and `.T` reverses every axis of the array, not only the last two. Right for a "
                 "1-D array and for a 2-D one along its last axis; along another axis the "
                 f"{callee(node.right)}s are still the last axis's, and with 3 axes or more the "
                 f"{callee(node.right)}s no "
                 "longer line up with their slices (other values even along the last axis, or "
                 f"a broadcast error). Reduce over `{name}` with keepdims=True and divide "
                 "directly, with no transposes.",
                 lambda n: _through_transpose(ast.BinOp(n.left, ast.Div(), with_keyword(
                     n.right, "axis", ast.Constant(-1)))),
                 holds=lambda function, calls, same: _batched_off_last(
                     calls, name, position, default))


def _axis_parameter(context: Context, reduction: ast.Call) -> tuple[str, int, int] | None:
    """(name, position, default) of the checked function's own parameter the reduction's axis
    reads (`axis=axis` in `def softmax(x, axis=-1)`), else None: a helper's axis is not the one
    its caller's cases give."""
    axis = next((k.value for k in reduction.keywords if k.arg == "axis"), None)
    function = context.instance.node
    if "/" in context.instance.path or not isinstance(axis, ast.Name):
        return None
    names = [a.arg for a in function.args.args]
    defaults = dict(zip(names[len(names) - len(function.args.defaults):],
                        function.args.defaults, strict=True))
    default = literal(defaults[axis.id]) if axis.id in defaults else None
    if not isinstance(default, int):
        return None
    return axis.id, names.index(axis.id), default


def _batched_off_last(calls: list, name: str, position: int, default) -> bool:
    """Whether a call's input has 3 axes or more and a call asks for another axis than its
    input's last: what the last-axis trick says beyond `axis` taken as its default."""
    def axis_of(call):
        return call.kwargs.get(name, call.args[position] if len(call.args) > position
                               else default)

    shaped = [(np.ndim(call.args[0]), axis_of(call)) for call in calls if call.args]
    return (any(ndim >= 3 for ndim, _ in shaped)
            and any(isinstance(axis, (int, np.integer)) and ndim and axis % ndim != ndim - 1
                    for ndim, axis in shaped))


OPERATORS = {"divided_by_transpose": divided_by_transpose}
