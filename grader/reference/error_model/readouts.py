"""Operators on what a classifier's head reads, as operators in operators.py (`f(context, node)
-> iterator of Change`): steps.py's `pool` reads a pooling of the rows where one row is meant
(timm's average pooling, max pooling); this module keeps the row and adds a pooling to it:

- the [CLS] row plus the average of the other rows (`x[:, 0] + x[:, 1:].mean(1)`, the "CLS +
  GAP" heads of ViT variants that combine the class token with global average pooling, as
  cvogtlaender/mif-deep-learning's ViT_CLS_GAP), where the lecture reads the [CLS] row alone.
- the head's output on the row plus a factor times the largest (or the average) of the same
  head's outputs on the rows after it (`x_cls + 0.5 * x_aux.max(0)`: LV-ViT's token-labeling
  head, zihangJiang/TokenLabeling's `return_dense` inference; blind round 61's b61_10), where
  the lecture returns the [CLS] row's logits alone.

Only a row read in the checked function's own code (the head's input), never in a helper's:
a student-API step's own rows have their own checks.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, code, where
from .poolings import row_read


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
    k = row_read(node)
    if k is None or "/" in context.instance.path:
        return
    new = _plus_mean_after(node)
    yield Change(f"{node.value.id}[{k}]-plus-mean-after",
                 f"In {where(context)}, `{code(node)}` is read as `{code(new)}`: row {k} plus "
                 f"the average of the rows after it (the [CLS] token combined with global "
                 f"average pooling of the patch tokens), instead of row {k} alone.",
                 _plus_mean_after)


# the other rows' outputs pooled: (how, words); the factors the term is added with
POOLED_OUTPUTS = {"max": "each column's largest value among", "mean": "each column's average over"}
FACTORS = (0.5, 1.0)


def _returned(function: ast.FunctionDef, node: ast.AST) -> bool:
    return any(isinstance(s, ast.Return) and s.value is node for s in ast.walk(function))


def _others_through(node: ast.Call, how: str, factor: float) -> ast.AST:
    """`factor * step(x[k + 1:], ...).how(axis=0)` for the call `step(x[k], ...)`."""
    row = node.args[0]
    others = copy.deepcopy(node)
    others.args = [ast.Subscript(ast.Name(row.value.id, ast.Load()),
                                 ast.Slice(ast.Constant(row.slice.value + 1), None), ast.Load()),
                   *others.args[1:]]
    term = ast.Call(ast.Attribute(others, how, ast.Load()), [],
                    [ast.keyword("axis", ast.Constant(0))])
    return term if factor == 1 else ast.BinOp(ast.Constant(factor), ast.Mult(), term)


def head_plus_others(context: Context, node: ast.AST) -> Iterator[Change]:
    """The returned output of a step on a row plus a term from the other rows: the same step's
    outputs on the rows after it, their largest (or average) per column, times a factor:
    `linear(x[0], W, b)` as `linear(x[0], W, b) + 0.5 * linear(x[1:], W, b).max(axis=0)`
    (LV-ViT's token-labeling head at inference, `x_cls + 0.5 * x_aux.max(1)[0]`). Only a step
    call the checked function returns itself, on a row it reads by an integer."""
    if not (isinstance(node, ast.Call) and "/" not in context.instance.path and node.args
            and isinstance(node.func, ast.Name) and node.func.id in context.instance.children
            and row_read(node.args[0]) is not None
            and _returned(context.instance.node, node)):
        return
    k, name = node.args[0].slice.value, node.args[0].value.id
    for how, words in POOLED_OUTPUTS.items():
        for factor in FACTORS:
            times = "" if factor == 1 else f"{factor:g} times "
            yield Change(
                f"{name}[{k}]-plus-{factor:g}-{how}-after",
                f"In {where(context)}, the result `{code(node)}` has a term from the other "
                f"tokens added, `+ {code(_others_through(node, how, factor))}`: {times}{words} "
                f"the same step's outputs on the rows after row {k} (as LV-ViT's token-labeling "
                f"head does at inference, adding 0.5 times the patch tokens' largest class "
                f"scores to the [CLS] token's). The lecture returns row {k}'s output alone, with "
                f"nothing from the other tokens.",
                lambda n, how=how, factor=factor: ast.BinOp(
                    n, ast.Add(), _others_through(n, how, factor)))


OPERATORS = {"row_plus_pooling": row_plus_pooling, "head_plus_others": head_plus_others}
