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

from .change import Change, Context, callee, where
from .norms import moments, with_axis

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


OPERATORS = {"batch_axis": batch_axis}
