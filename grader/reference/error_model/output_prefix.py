"""An operator on the loops that fill a convolution's output: their bounds cut short by a
factor, so only a top-left block of the output is computed and the rest keeps the buffer's
first value:

- `output_loops_over_stride`: the loops over output positions run over `range(H' // stride)`
  and `range(W' // stride)`, where H' = (H - k) // stride + 1 and W' likewise are already the
  output's own size (which counts the stride): the stride divided in twice (a cython
  `conv2D_forward`, `for i in range(OH//sh): for j in range(OW//sw)` over `Xout =
  np.zeros((OH, OW, OF))`). Only the first H' // stride rows and W' // stride columns are
  computed; the others stay at the buffer's 0, plus b where the bias is added to the whole
  buffer after the loops (`return Xout + b`), or 0 where it is added inside them (`out[i, j] =
  np.sum(window * K) + b`): two readings, two names. Right for stride 1.

Applied only at the return of a function that returns the product of the windows it keeps
every `s`-th (`window_sites.windows_returned`: the convolution), the bias reading only where that
return adds a term last (`... + b`). An operator as in operators.py (`f(context, node) ->
iterator of Change`); a rewrite is named only where it reproduces every case the check ran.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, code, where
from .tree import PREFIX
from .window_sites import windows_returned


def top_left_written(value, stride, bias=None) -> np.ndarray:
    """`value` [H', W', ...] with only its first H' // stride rows and W' // stride columns
    written into a buffer of zeros (the loops' bounds divided by the stride again), then
    `bias` added to the whole buffer when given (the rest reads b; else 0)."""
    value, s = np.asarray(value), int(stride)
    out = np.zeros_like(value)
    rows, columns = value.shape[0] // s, value.shape[1] // s
    out[:rows, :columns] = value[:rows, :columns]
    return out if bias is None else out + bias


LOOPS = ("the loops over output positions run over `range(H' // stride)` and `range(W' // "
         "stride)`, where H' = (H - k) // stride + 1 and W' = (W - k) // stride + 1 are already "
         "the output's own size, which counts the stride: only the first H' // stride rows and "
         "W' // stride columns of the H' x W' output are computed")
FIX = ("Loop over `range(H')` and `range(W')`, every output position (right only for stride 1, "
       "where the two agree).")


def output_loops_over_stride(context: Context, node: ast.AST) -> Iterator[Change]:
    """The loops over the output's positions bounded by its size divided by the stride again:
    the rest of the output stays at b (the bias added after the loops) or 0 (added inside)."""
    found = windows_returned(context, node)
    if found is None:
        return
    name, stride, bound = found[0], found[3], f"{PREFIX}top_left_written"
    value = node.value
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        bias = code(value.right)
        yield Change(
            f"{name}-loops-over-stride",
            f"In {where(context)}, {LOOPS}; the rest stay at the bias `{bias}` (the buffer's 0 "
            f"with `{bias}` added after the loops). {FIX}",
            lambda n: ast.Return(ast.Call(ast.Name(bound, ast.Load()), [
                n.value.left, copy.deepcopy(stride), n.value.right], []))
            if isinstance(n.value, ast.BinOp) and isinstance(n.value.op, ast.Add) else None,
            ((bound, top_left_written),))
    yield Change(
        f"{name}-loops-over-stride-rest-zero",
        f"In {where(context)}, {LOOPS}; the rest stay at the buffer's 0 (the bias is added only "
        f"where an output is computed). {FIX}",
        lambda n: ast.Return(ast.Call(ast.Name(bound, ast.Load()), [
            n.value, copy.deepcopy(stride)], [])),
        ((bound, top_left_written),))


OPERATORS = {"output_loops_over_stride": output_loops_over_stride}
