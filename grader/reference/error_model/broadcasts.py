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

Only where the pattern is: a quotient whose divisor is a reduction called with keepdims=True.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, callee, code, where, with_keyword

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


OPERATORS = {"divided_by_transpose": divided_by_transpose}
