"""Operators on a normalisation's statistics as code written with a loop over the rows computes
them: the variance collected in the same pass as the mean, `mean(x**2) - mean(x)**2` (a
teaching note's "Var(x) = E[x^2] - (Ex)^2", the textbook identity a streaming one-pass kernel
sums), and each row `x[i]` summed as a whole and divided by the last axis's width (`for i in
range(x.shape[0]): mean[i] = np.sum(x[i]) / dim`, a LayerNorm written for (T, d) tokens, as
torch teaching notes and BatchNorm-turned-LayerNorm code write it). Only in the checked function
itself, which states its statistics as `np.mean` / `np.var` over the last axis: a caller's tree
is left as it is (few sites). An operator as in operators.py (`f(context, node) -> iterator of
Change`). Both are often made together and each alone hides the other (a one-pass variance
changes nothing on ordinary float64 tokens): `PARTNERS` has the search pair them as two edits of
one operator are paired.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, callee, code, is_checked_function, where
from .tree import PREFIX

STATISTICS = ("mean", "var")


def _over_last(node: ast.AST, names: tuple[str, ...] = STATISTICS) -> bool:
    """Whether `node` is `np.<name>(x, axis=-1, ...)` with one positional argument."""
    return (isinstance(node, ast.Call) and callee(node) in names and len(node.args) == 1
            and isinstance(node.func, ast.Attribute)
            and any(k.arg == "axis" and isinstance(k.value, ast.UnaryOp)
                    and isinstance(k.value.op, ast.USub)
                    and isinstance(k.value.operand, ast.Constant)
                    and k.value.operand.value == 1 for k in node.keywords))


def _own(context: Context) -> bool:
    return "/" not in context.instance.path


def in_order(x, keepdims=False, squared=False):
    """The mean (of `x * x` when `squared`) over the last axis from a running sum added one
    number at a time in `x`'s own float type (a loop's `s += x[i, j]`), not numpy's pairwise
    sums."""
    x = np.asarray(x)
    kind = x.dtype if x.dtype.kind == "f" else np.dtype(float)
    total = np.cumsum(x * x if squared else x, axis=-1, dtype=kind)[..., -1:] / x.shape[-1]
    return total if keepdims else total[..., 0]


def in_order_var(x, keepdims=False):
    """`mean(x**2) - mean(x)**2`, both sums running ones (`in_order`)."""
    mean = in_order(x, keepdims)
    return in_order(x, keepdims, squared=True) - mean * mean


def float64_mean(x, keepdims=False):
    return np.mean(x, axis=-1, keepdims=keepdims, dtype=np.float64)


def float64_var(x, keepdims=False):
    """`mean(x**2) - mean(x)**2`, its sums in float64 (a float64 accumulator's, or
    `np.mean(..., dtype=np.float64)`), the squares in `x`'s own type."""
    mean = float64_mean(x, keepdims)
    return np.mean(x * x, axis=-1, keepdims=keepdims, dtype=np.float64) - mean * mean


# how a one-pass variance's code adds its sums, the mean's too, beyond numpy's pairwise `np.mean`:
# far from zero in float32 each way loses other digits (0.015 apart at 100 +- 0.5), so each is a
# rewrite of its own; where several reproduce a student (float64 tokens) they are one mistake
# (error_model/aliases.py), said the first way
ACCUMULATED = (("in-order", (in_order, in_order_var),
                "as running sums added one number at a time, in order (a loop's `s += x[i, j]`, "
                "in float32 where the numbers or the sums are)"),
               ("float64", (float64_mean, float64_var), "its two sums taken in float64"))
REREADINGS = frozenset(f"var.one-pass-{detail}" for detail, _, _ in ACCUMULATED)  # silent
# where the pairwise one is: the search leaves them out of its silent partners (slips.with_twins)


def _said(context: Context, var: str, how: str = "") -> str:
    return (f"In {where(context)}, the variance is collected in the same pass as the mean, "
            f"`mean(x**2) - mean(x)**2`{how}, where the model solution's `{var}` takes it about "
            "the mean, `mean((x - mean)**2)`: far from zero the two terms are huge and nearly "
            "equal, so their difference loses its digits (and can fall below zero). "
            "Subtract the mean first.")


def one_pass(context: Context, node: ast.AST) -> Iterator[Change]:
    """`np.var(x, axis=-1, ...)` collected in one pass with the mean, `np.mean(x * x, ...) -
    np.mean(x, ...) ** 2` (E[x^2] - E[x]^2: a teaching note's running sums `mean2 - mean *
    mean`, a streaming one-pass kernel's): the same value mathematically, but far from zero its
    two terms are huge and nearly equal, and below zero (-eps) its square root is NaN. At the
    checked function itself, where it states both statistics, also with `ACCUMULATED`'s sums
    (the mean's and the variance's): a loop's, whose lost digits are not numpy's."""
    if is_checked_function(context, node):
        yield from _accumulated(context, node)
    if not (_over_last(node, ("var",)) and _own(context)
            and all(k.arg != "ddof" for k in node.keywords)):
        return

    def collected(n: ast.Call) -> ast.AST:
        keywords = [copy.deepcopy(k) for k in n.keywords]
        x = n.args[0]
        squares = ast.Call(ast.Attribute(copy.deepcopy(n.func.value), "mean", ast.Load()),
                           [ast.BinOp(copy.deepcopy(x), ast.Mult(), copy.deepcopy(x))],
                           keywords)
        mean = ast.Call(ast.Attribute(copy.deepcopy(n.func.value), "mean", ast.Load()),
                        [copy.deepcopy(x)], copy.deepcopy(keywords))
        return ast.BinOp(squares, ast.Sub(), ast.BinOp(mean, ast.Pow(), ast.Constant(2)))

    yield Change("var.one-pass", _said(context, code(node)), collected)


def _accumulated(context: Context, node: ast.FunctionDef) -> Iterator[Change]:
    """The one-pass variance with its sums and the mean's added as `ACCUMULATED` says."""
    calls = [c for c in ast.walk(node) if _over_last(c)]
    variances = [c for c in calls if callee(c) == "var"]
    if ({callee(c) for c in calls} != set(STATISTICS) or len(variances) != 1
            or any(k.arg == "ddof" for k in variances[0].keywords)):
        return
    var = code(variances[0])
    for detail, functions, how in ACCUMULATED:
        bound = {name: f"{PREFIX}one_pass_{detail.replace('-', '_')}_{name}"
                 for name in STATISTICS}

        def summed(n: ast.FunctionDef, bound=bound) -> ast.FunctionDef:
            new = copy.deepcopy(n)
            for call in ast.walk(new):
                if _over_last(call):
                    call.func = ast.Name(bound[callee(call)], ast.Load())
                    call.keywords = [k for k in call.keywords if k.arg == "keepdims"]
            return new

        yield Change(f"var.one-pass-{detail}", _said(context, var, ", " + how), summed,
                     tuple(zip(bound.values(), functions, strict=True)))


def row_mean(x, keepdims=False):
    """Each `x[i]` summed as a whole, divided by the last axis's width (a row loop's
    `np.sum(x[i]) / dim`); a 1-D `x`'s "rows" are its numbers."""
    x = np.asarray(x)
    total = np.sum(x, axis=tuple(range(1, x.ndim)), keepdims=True) / x.shape[-1]
    return total if keepdims else total.reshape(total.shape[:1])


def row_var(x, keepdims=False):
    """The same row loop's two-pass variance: `np.sum((x[i] - mean[i]) ** 2) / dim`."""
    x = np.asarray(x)
    return row_mean((x - row_mean(x, keepdims=True)) ** 2, keepdims=keepdims)


def row_sums(context: Context, node: ast.AST) -> Iterator[Change]:
    """Every `np.mean` / `np.var` over the last axis in the function taken as a loop over the
    rows does when it sums each `x[i]` as a whole and divides by the width `x.shape[-1]`: the
    same for a (T, d) array (each `x[i]` is one token), but for a batch (B, T, d) each sum covers
    a whole sample of T tokens, still divided by d."""
    if not (is_checked_function(context, node) and node.args.args):
        return
    calls = [c for c in ast.walk(node) if _over_last(c)]
    if {callee(c) for c in calls} != set(STATISTICS):
        return
    bound = {name: f"{PREFIX}row_{name}" for name in STATISTICS}

    def looped(n: ast.FunctionDef) -> ast.FunctionDef:
        new = copy.deepcopy(n)
        for call in ast.walk(new):
            if _over_last(call):  # also a mean a one-pass variance (one_pass) wrote
                call.func = ast.Name(bound[callee(call)], ast.Load())
                call.keywords = [k for k in call.keywords if k.arg == "keepdims"]
        return new

    first = node.args.args[0].arg
    yield Change("row-sums",
                 f"In {where(context)}, the mean and the variance sum each row `{first}[i]` as a "
                 f"whole and divide by the width, `np.sum({first}[i]) / {first}.shape[-1]` (a "
                 f"loop over the rows of `{first}`), where the lecture's are each token's, over "
                 "the last axis: the same for a (T, d) array, whose rows are its tokens, but in a "
                 f"batch (B, T, d) each `{first}[i]` is a whole sample of T tokens, its sum T "
                 "tokens' sum still divided by d. Reduce each token over the last axis, "
                 "`axis=-1, keepdims=True`.",
                 looped, ((bound["mean"], row_mean), (bound["var"], row_var)))


OPERATORS = {"one_pass": one_pass, "row_sums": row_sums}
# two mistakes a row loop often makes together, each alone changing little where the other shows:
# the search tries them together as it tries two edits of one operator (SIBLING_OPERATORS),
# told as 2 mistakes
PARTNERS = frozenset({frozenset(OPERATORS)})
