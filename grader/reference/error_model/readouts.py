"""Operators on what a classifier's head reads, as operators in operators.py (`f(context, node)
-> iterator of Change`): steps.py's `pool` reads a pooling of the rows where one row is meant
(timm's average pooling, max pooling); this module keeps the row and adds a pooling to it:

- the [CLS] row plus the average of the other rows (`x[:, 0] + x[:, 1:].mean(1)`, the "CLS +
  GAP" heads of ViT variants that combine the class token with global average pooling, as
  cvogtlaender/mif-deep-learning's ViT_CLS_GAP), where the lecture reads the [CLS] row alone.

Only a row read in the checked function's own code (the head's input), never in a helper's:
a student-API step's own rows have their own checks.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, code, where


def _row_read(node: ast.AST) -> int | None:
    """k for a read `x[k]` of a name's row (k a non-negative integer), else None."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
            and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Constant)):
        return None
    k = node.slice.value
    return k if isinstance(k, int) and not isinstance(k, bool) and k >= 0 else None


def _plus_mean_after(node: ast.Subscript) -> ast.BinOp:
    """`x[k] + x[k + 1:].mean(axis=0)`."""
    k = node.slice.value
    rest = ast.Subscript(ast.Name(node.value.id, ast.Load()),
                         ast.Slice(ast.Constant(k + 1), None), ast.Load())
    mean = ast.Call(ast.Attribute(rest, "mean", ast.Load()), [],
                    [ast.keyword("axis", ast.Constant(0))])
    return ast.BinOp(copy.deepcopy(node), ast.Add(), mean)


def row_plus_pooling(context: Context, node: ast.AST) -> Iterator[Change]:
    """A row read as itself plus the average of the rows after it: `x[0]` as `x[0] +
    x[1:].mean(axis=0)` (a CLS + GAP head). Only in the checked function's own code."""
    k = _row_read(node)
    if k is None or "/" in context.instance.path:
        return
    new = _plus_mean_after(node)
    yield Change(f"{node.value.id}[{k}]-plus-mean-after",
                 f"In {where(context)}, `{code(node)}` is read as `{code(new)}`: row {k} plus "
                 f"the average of the rows after it (the [CLS] token combined with global "
                 f"average pooling of the patch tokens), instead of row {k} alone.",
                 _plus_mean_after)


OPERATORS = {"row_plus_pooling": row_plus_pooling}
