"""An operator on a swap of an array's last two axes written with numpy's `.T`, which reverses
every axis: `k.swapaxes(-1, -2)` as `k.T`. Code written for one (T, d_h) matrix per head, where
`.T` is the transpose, ported to a batched (heads, T, d_h) array: `q @ k.T` (the scores of the
numpy attention tutorials and of "Attention Is All You Need" ports, `np.matmul(q, k.T)`, with
the heads split by a reshape first) gets (d_h, T, heads), not (heads, d_h, T): numpy's matmul
error, or other values where the sizes happen to line up. broadcasts.py's last-axis trick is the
same slip in a softmax's division.

Only where the reference swaps exactly its last two axes (`x.swapaxes(-1, -2)`,
`np.swapaxes(x, -2, -1)`): a transpose of a matrix.
An operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, code, literal, where

LAST_TWO = ({-1, -2}, {-2, -1})


def _swapped(node: ast.AST) -> ast.AST | None:
    """The array whose last two axes `node` swaps (`a.swapaxes(-1, -2)`, `np.swapaxes(a, -2,
    -1)`), else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "swapaxes" and not node.keywords):
        return None
    array, axes = ((node.func.value, node.args) if len(node.args) == 2
                   else (node.args[0], node.args[1:]) if len(node.args) == 3 else (None, ()))
    if array is None or {literal(a) for a in axes} not in LAST_TWO:
        return None
    return array


def full_transpose(context: Context, node: ast.AST) -> Iterator[Change]:
    """`k.swapaxes(-1, -2)` as `k.T`: every axis reversed where the last two were swapped."""
    array = _swapped(node)
    if array is None:
        return
    shown = f"{code(array)}.T"
    yield Change(f"{code(array)}.swapaxes-as-T",
                 f"In {where(context)}, `{code(node)}` is written `{shown}`: `.T` reverses "
                 f"every axis of the array, not only the last two, so on an array of more than "
                 f"two axes (a batch of matrices, (heads, T, d_h) say) it gives the axes in "
                 f"reverse order, (d_h, T, heads), not each matrix transposed (numpy's matmul "
                 f"error, or other values where the sizes happen to line up). `.T` is the "
                 f"transpose only of a 2-D array: swap the last two axes, `{code(node)}`.",
                 lambda n: ast.Attribute(copy.deepcopy(_swapped(n)), "T", ast.Load()))


OPERATORS = {"full_transpose": full_transpose}
