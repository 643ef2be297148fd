"""Operators on where a step reads, in which order the steps run and how far they stride: the
reference's steps each right, but a row read as an average of rows, a step applied after the
pooling instead of before it, a stride kept on one axis only. Each is an operator as in
operators.py (`f(context, node) -> iterator of Change`); OPERATORS lists them in the order
tried, after operators.OPERATORS (the error model tries both).
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

from .operators import Change, Context, code, where


def _row(node: ast.AST) -> int | None:
    """k for a read `x[k]` of a name's row (k a non-negative integer), else None."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
            and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Constant)):
        return None
    k = node.slice.value
    return k if isinstance(k, int) and not isinstance(k, bool) and k >= 0 else None


def _mean_of_rows(name: str, lower: int | None, upper: int | None) -> ast.AST:
    """`name[lower:upper].mean(axis=0)` (`name.mean(axis=0)` for every row)."""
    rows = ast.Name(name, ast.Load())
    if lower is not None or upper is not None:
        rows = ast.Subscript(rows, ast.Slice(None if lower is None else ast.Constant(lower),
                                             None if upper is None else ast.Constant(upper)),
                             ast.Load())
    return ast.Call(ast.Attribute(rows, "mean", ast.Load()), [],
                    [ast.keyword("axis", ast.Constant(0))])


def _poolings(k: int) -> list[tuple[str, str, int | None, int | None]]:
    """(detail, words, lower, upper) of each average read where row k is meant."""
    return [("mean-after", f"the rows after row {k} averaged (average pooling of the other "
                           "tokens, as timm's global_pool='avg')", k + 1, None),
            ("mean-all", "every row averaged (average pooling of all the tokens)", None, None),
            ("mean-with-next", f"rows {k} and {k + 1} averaged (as DeiT's head averages its "
                               "[CLS] and distillation tokens)", k, k + 2)]


def pool(context: Context, node: ast.AST) -> Iterator[Change]:
    """A row read as an average of rows: `x[0]` as `x[1:].mean(axis=0)` (the mean of the patch
    tokens, timm's avg pool), `x.mean(axis=0)` or `x[0:2].mean(axis=0)` (two tokens averaged)."""
    k = _row(node)
    if k is None:
        return
    name = node.value.id
    for detail, words, lower, upper in _poolings(k):
        new = _mean_of_rows(name, lower, upper)
        yield Change(f"{name}[{k}]-{detail}",
                     f"In {where(context)}, `{code(node)}` is read as `{code(new)}`: "
                     f"{words}, instead of row {k} alone.",
                     lambda n, lower=lower, upper=upper: _mean_of_rows(n.value.id, lower, upper))


# tried in this order, after operators.OPERATORS
OPERATORS = {"pool": pool}
