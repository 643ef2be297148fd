"""An operator on a convolution's output grid sized by the stride alone, where a hand-written
loop counts its windows otherwise than the reference's `sliding_window_view(image, (k,
k))[::s, ::s]`:

- `grid_by_stride`: the output grid is `H // stride` by `W // stride` positions, filled by
  loops over `range(H // stride)` and `range(W // stride)` that read each window as
  `image[i * s:i * s + k, j * s:j * s + k]` and multiply it with the kernel, `np.sum(window
  * K[:, :, :, o]) + b[o]` (Flowergift/Python_AI_Sample's 5110_1.py and other numpy
  convolutions written to keep the image's size, run without their padding; patch-embedding
  code written for k == stride, where the two counts agree): with a kernel larger than the
  stride the last windows run past the image's edge, cut short, and numpy refuses to multiply
  them with the kernel (a cut side of one pixel is spread over it); with a smaller one the last
  windows that fit are left out. Right only when k == stride (or the sizes happen to agree).

Applied only at the windows the function keeps every `s`-th, `windows[::s, ::s]`, of a
`sliding_window_view` call (the convolution). An operator as in operators.py (`f(context, node)
-> iterator of Change`); a rewrite is named only where it reproduces every case the check ran.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, where
from .tree import PREFIX
from .window_sites import strided_window_call


def counted_by_stride(windows, image, stride) -> np.ndarray:
    """`windows` [H', W', C, kh, kw] (every `stride`-th window of `image` [H, W, C]) for an
    output grid of H // stride by W // stride positions, as loops over `range(H // stride)` read
    them, `image[i * s:i * s + kh, j * s:j * s + kw]`: the first ones when there are fewer; a
    window cut short by the image's edge meets the kernel by broadcasting (`window * K`):
    numpy's own ValueError, its shapes the cut window's and the kernel's, unless a cut side is
    one pixel, then spread over the kernel."""
    windows, image, s = np.asarray(windows), np.asarray(image), int(stride)
    image = image[..., None] if image.ndim == 2 else image  # [H, W, C]
    (kh, kw), rows, columns = windows.shape[-2:], image.shape[0] // s, image.shape[1] // s
    if rows <= windows.shape[0] and columns <= windows.shape[1]:
        return windows[:rows, :columns]  # no window past the edge: the first ones
    kernel = np.ones((kh, kw, *image.shape[2:]))
    out = np.empty((rows, columns, *windows.shape[2:]), dtype=windows.dtype)
    for i in range(rows):  # in the loops' order: the first window that does not fit raises
        for j in range(columns):
            cut = image[i * s:i * s + kh, j * s:j * s + kw]
            out[i, j] = np.moveaxis(cut * kernel, -1, 0)  # [C, kh, kw], as the windows are
    return out


def grid_by_stride(context: Context, node: ast.AST) -> Iterator[Change]:
    """The convolution's output grid sized `H // stride` by `W // stride`, each window read
    from where its index times the stride starts, cut short by the image's edge."""
    call = strided_window_call(context, node)
    if call is None:
        return
    image, bound = call.args[0], f"{PREFIX}counted_by_stride"
    yield Change(
        f"{node.value.id}-grid-H-over-stride",
        f"In {where(context)}, the output grid is sized `H // stride` by `W // stride` (loops "
        f"over `range(H // stride)` and `range(W // stride)`, the size of a convolution padded "
        f"to keep the image's size, the windows' count too when the kernel is the stride) where "
        f"the windows that fit number `(H - k) // stride + 1` down and `(W - k) // stride + 1` "
        f"across: with a kernel larger than the stride the last windows can run past the "
        f"image's edge, cut short, and a cut window no longer matches the kernel; with a "
        f"smaller one the last windows that fit are left out. Count the outputs as `(H - k) "
        f"// stride + 1` and `(W - k) // stride + 1`.",
        lambda n: ast.Call(ast.Name(bound, ast.Load()), [
            n, copy.deepcopy(image), copy.deepcopy(n.slice.elts[0].step)], []),
        ((bound, counted_by_stride),))


OPERATORS = {"grid_by_stride": grid_by_stride}
