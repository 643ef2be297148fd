"""An operator on a normalisation's statistics as code that keeps the features on the rows of a
[d x T] array takes them (C++ or channels-first code: `np.swapaxes(x, -1, -2)`, then `axis=0`;
blind round 66's b66_06, a C++ LayerNorm port): axis 0 of the swapped array is the features of a
(T, d) input, but the batch of a (B, T, d) one, so the same for (T, d) and wrong for a batch.
(A row loop's sums over each `x[i]` are row_sums.py's; the true mean over every axis but the
first, norms.py's `over_sample`.) Every mean and variance over the last axis of the checked
function at once (a port writes them alike). An operator as in operators.py (`f(context, node)
-> iterator of Change`).
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, callee, code, where
from .norms import moments, with_axis
from .tree import PREFIX
from .trial import Raised

BATCH = "0 if np.ndim({x}) > 2 else -1"  # axis 0 of the swapped array, in the input's axes


def _moments(node: ast.FunctionDef) -> list[ast.Call]:
    """The function's `np.mean(x, axis=-1, ...)` and `np.var(x, axis=-1, ...)` calls of one
    array `x`: one of each, else none."""
    calls = [c for c in moments(node) if len(c.args) == 1]
    if sorted(callee(c) for c in calls) != ["mean", "var"] or \
            len({ast.dump(c.args[0]) for c in calls}) != 1:
        return []
    return calls


def batch_axis(context: Context, node: ast.AST) -> Iterator[Change]:
    """The mean and variance over axis 0 of the input with its last two axes swapped (a [d x T]
    layout's rows): each token's features for (T, d) (and one token), the batch of (B, T, d)."""
    if not (isinstance(node, ast.FunctionDef) and node is context.instance.node
            and "/" not in context.instance.path):
        return
    found = _moments(node)
    if not found:
        return
    axis = BATCH.format(x=ast.unparse(found[0].args[0]))

    yield Change("batch-axis",
                 f"In {where(context)}, the mean and variance are taken over axis 0 of the "
                 "input with its last two axes swapped, as code that keeps the features on the "
                 "rows of a [d x T] array does (`np.swapaxes(x, -1, -2)`, then `axis=0`): for a "
                 "(T, d) input that is each token's features, but for a batch (B, T, d) axis 0 "
                 "is the batch, so each feature of each token is normalised across the batch. "
                 "Take each token's statistics over the last axis, `axis=-1, keepdims=True`.",
                 lambda n: with_axis(n, _moments, axis))


def summed_leading(value) -> np.ndarray:
    """`value` [..., T, d] with its axes before the last two summed away -> [T, d] (an
    einsum's output without the batch letter); as it is with two axes or fewer (a size's
    product, `P * P * C`, stays an int)."""
    return np.sum(value, axis=tuple(range(np.ndim(value) - 2))) if np.ndim(value) > 2 else value


def _slices_summed(rewritten, calls, same) -> bool:
    """Whether a call whose value the rewrite reproduces summed two slices or more: a batch of
    one (1, T, d) only drops an axis, which `summed` would overstate."""
    return any(not isinstance(c.got, Raised) and np.ndim(c.expected) > 2
               and np.prod(np.shape(c.expected)[:-2]) >= 2 for c in calls)


# the einsum a port writes, the shapes (input, its result) it returns for a batch
EINSUMS = {ast.Mult: ("'ijk,k->jk'", "'...k,k->...k'", "(B, T, d) it returns (T, d)"),
           ast.MatMult: ("'ijk,kl->jl'", "'...k,kl->...l'", "(B, T, d_in) it returns (T, d_out)")}


def batch_summed(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's product of a computed array with one of its weight parameters
    (`x_hat * gamma`, `x @ W`; not the first parameter, the input) summed over its leading
    axes: an einsum whose output leaves out the batch letter."""
    if not (isinstance(node, ast.BinOp) and type(node.op) in EINSUMS
            and "/" not in context.instance.path
            and isinstance(context.instance.node, ast.FunctionDef)):
        return
    weights = [a.arg for a in context.instance.node.args.args][1:]
    named = [isinstance(side, ast.Name) and side.id in weights for side in (node.left, node.right)]
    if sum(named) != 1:
        return
    weight = (node.left if named[0] else node.right).id
    wrong, right, shapes = EINSUMS[type(node.op)]
    bound = f"{PREFIX}{summed_leading.__name__}"
    yield Change(f"{weight}-batch-summed",
                 f"In {where(context)}, `{code(node)}` is summed over the input's leading "
                 "(batch) axes, as an einsum whose output leaves out the batch letter does "
                 f"(`np.einsum({wrong}, ...)` sums over `i`): right for an input of two axes "
                 f"(T, d), but for a batch {shapes}: the sum over its B slices, where each "
                 "slice's result is its own and keeps its place. Keep the leading axes: "
                 f"`np.einsum({right}, ...)` (or the plain product `{code(node)}`).",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), [n], []),
                 ((bound, summed_leading),), holds=_slices_summed)


OPERATORS = {"batch_axis": batch_axis, "batch_summed": batch_summed}
UNPAIRED = frozenset({"batch_summed"})  # the reference's very values on every (T, d) call: no
# silent partner of the search's pairs (as column_major.UNPAIRED)
