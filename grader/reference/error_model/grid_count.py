"""An operator on how many windows a convolution's output grid counts along each side, where
the reference keeps every `s`-th window that fits, `sliding_window_view(image, (k,
k))[::s, ::s]`: `(H - k) // s + 1` of them down and `(W - k) // s + 1` across.

- `count_without_plus_one`: the count written without its `+ 1`, `n_h = (H - k) // stride`
  and `n_w = (W - k) // stride` (harahu/ocr-chars' sliding_window.py, whose windows are
  reshaped into `(img.shape[0] - 20) * (img.shape[1] - 20)` rows: the strides between the first
  window and the last, not the windows), the output buffer and its loops sized by it: the last
  row and column of windows are never read, and a kernel as tall (or wide) as the image gives an
  empty output. Wrong on every input; `(H - k + 1) // stride` (windows.py's `count_floored`)
  agrees with it wherever (H - k) % stride is not stride - 1, and where the cases cannot tell
  the two apart neither is said.

Applied only at the windows a `sliding_window_view` call's function keeps every `s`-th (the
convolution). An operator as in operators.py (`f(context, node) -> iterator of Change`); a
rewrite is named only where it reproduces every case the check ran.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

from .change import Change, Context, where
from .window_sites import strided_window_call


def _last_dropped(node: ast.AST) -> ast.Subscript:
    """`node[:-1, :-1]`: the grid without its last row and column of windows."""
    short = ast.Slice(None, ast.UnaryOp(ast.USub(), ast.Constant(1)), None)
    return ast.Subscript(node, ast.Tuple([short, short], ast.Load()), ast.Load())


def count_without_plus_one(context: Context, node: ast.AST) -> Iterator[Change]:
    """The output grid counted `(H - k) // stride` by `(W - k) // stride`, without the `+ 1`
    that counts the first window: the last row and column of windows lost."""
    if strided_window_call(context, node) is None:
        return
    yield Change(
        f"{node.value.id}-grid-count-without-plus-one",
        f"In {where(context)}, the output grid is counted `(H - k) // stride` by `(W - k) // "
        f"stride`, without the `+ 1`: that counts the strides from the first window to the last, "
        f"one fewer than the windows, so the last row and column of windows are never read, "
        f"and a kernel as tall or as wide as the image gives an empty output. Count the windows "
        f"that fit as `(H - k) // stride + 1` down and `(W - k) // stride + 1` across.",
        _last_dropped)


OPERATORS = {"grid_count_without_plus_one": count_without_plus_one}
