"""Operators on a windowed step's loops written by hand where the bias is added after them:

- the loops over window positions stop one short, `range(0, H - k, stride)` where `range(0, H -
  k + 1, stride)` belongs, over an output buffer of zeros, and the bias is added to the whole
  output once the loops are done (`out.transpose(1, 2, 0) + b`: a numpy `convolve(image,
  filter, stride, pad)` helper with `get_size_out`, channels first inside, that fills
  `out[:, i_out, j_out]` with the window's sum and adds the bias at the end; Stanford CS231n
  style loops with the bias moved out of them): the last row and column of the output, never
  written, hold the bias alone. windows.py's `range_one_short` is the same loop with the bias
  added inside it (those positions stay 0).

Each is an operator as in operators.py (`f(context, node) -> iterator of Change`); OPERATORS
lists them in the order tried. It applies only at the return statement of a function that
returns `sliding_window_view(image, shape)[::s, ::s]`'s product plus a bias (the convolution).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, code, where
from .tree import PREFIX
from .window_sites import windows_returned
from .windows import left_unwritten


def range_one_short_bias_after(context: Context, node: ast.AST) -> Iterator[Change]:
    """`return product + b` as the product with the positions a loop over `range(0, H - k,
    stride)` never writes left at 0, the bias then added to every position: its last row and
    column the bias alone."""
    if not (isinstance(node, ast.Return) and isinstance(node.value, ast.BinOp)
            and isinstance(node.value.op, ast.Add)):
        return
    found = windows_returned(context, node)
    if found is None:
        return
    _, image, window, stride = found
    bias = code(node.value.right)
    bound = f"{PREFIX}left_unwritten"
    yield Change(f"{found[0]}-range-one-short-{bias}-after",
                 f"In {where(context)}, the loops over window positions stop one short, "
                 f"`range(0, H - k, stride)` where `range(0, H - k + 1, stride)` belongs (and "
                 f"likewise for W), and `{bias}` is added to the whole output after the loops: "
                 f"the output's last row and column are never computed and hold `{bias}` alone "
                 f"whenever a window starts exactly at H - k (W - k), as it always does when "
                 f"the windows tile the image.",
                 lambda n: ast.Return(ast.BinOp(ast.Call(ast.Name(bound, ast.Load()), [
                     n.value.left, copy.deepcopy(image), copy.deepcopy(window),
                     copy.deepcopy(stride)], []), ast.Add(), n.value.right)),
                 ((bound, left_unwritten),))


OPERATORS = {"window_range_bias_after": range_one_short_bias_after}
