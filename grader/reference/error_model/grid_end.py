"""Operators on where a convolution's output grid ends, written from the tiling remainder or
rounded up, where the reference keeps every `s`-th window that fits, `sliding_window_view(image, (k,
k))[::s, ::s]`, `(H - k) // s + 1` of them down and `(W - k) // s + 1` across:

- `grid_end_from_remainder`: the windows start at `range(0, H - H % k, stride)` down (and
  `range(0, W - W % k, stride)` across): up to where the image's whole k x k tiles end, the
  end a loop written for k == stride takes, or one short of it, `range(0, H - H % k - 1,
  stride)` (squeakus/bitsandbytes' convops/stride_conv.py, `xlim = (width - (width % kernw)) -
  1`; numpy patch loops that crop the image to its tiles first). Each window is read as
  `image[i:i + k, j:j + k]` and contracted with the kernel as the lecture's tensordot contracts
  it: a start past `H - k` reads a window cut short by the image's edge, and numpy refuses it
  ("shape-mismatch for sum"); fewer starts lose the last windows that fit (with k = 1 and the
  `- 1`, the last row and column). Right when k == stride (the end is then the tiles'), and
  with k = 1 without the `- 1`.

- `grid_rounded_up`: the output size rounded up, `ceil((H - k) / stride) + 1` (TNN's and a
  pooling's ceil mode, `int(math.ceil((height - kernel_y) / stride)) + 1`, blind round 61's
  b61_09; `-(-(H - k) // stride) + 1`) and likewise across, each window read by loops as
  `image[i * s:i * s + k, j * s:j * s + k]`: where the stride leaves rows or columns over, the
  last start lies past `H - k`, its window is cut short by the image's edge, and meeting the
  kernel in numpy's tensordot raises numpy's own ValueError ("shape-mismatch for sum", the
  student's message); right wherever the stride divides `H - k` and `W - k`.

Applied only at the windows a `sliding_window_view` call's function keeps every `s`-th (the
convolution). Operators as in operators.py (`f(context, node) -> iterator of Change`); a
rewrite is named only where it reproduces every case the check ran; the two ends are two names,
and where the cases cannot tell them apart neither is said.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, where
from .tree import PREFIX
from .window_sites import strided_window_call


def started_before_tiles_end(windows, image, stride, short) -> np.ndarray:
    """`windows` [H', W', C, kh, kw] (every `stride`-th window of `image` [H, W, C]) at the
    starts `range(0, H - H % kh - short, stride)` down and likewise across, as loops over those
    ranges read them, `image[i:i + kh, j:j + kw]`: the first ones when there are fewer; a window
    cut short by the image's edge meets the kernel in numpy's tensordot, which refuses it."""
    windows, image, s = np.asarray(windows), np.asarray(image), int(stride)
    image = image[..., None] if image.ndim == 2 else image  # [H, W, C]
    (kh, kw), (height, width) = windows.shape[-2:], image.shape[:2]
    rows = range(0, height - height % kh - short, s)
    columns = range(0, width - width % kw - short, s)
    if len(rows) <= windows.shape[0] and len(columns) <= windows.shape[1]:
        return windows[:len(rows), :len(columns)]  # no window past the edge: the first ones
    kernel = np.ones((kh, kw, *image.shape[2:]))
    for i in rows:  # in the loops' order: the first window cut short raises
        for j in columns:
            window = image[i:i + kh, j:j + kw]
            np.tensordot(window, kernel, axes=([0, 1, 2], [0, 1, 2]))
    raise AssertionError("unreachable: a start past the edge cuts its window")  # pragma: no cover


def grid_end_from_remainder(context: Context, node: ast.AST) -> Iterator[Change]:
    """The convolution's windows started up to `H - H % k` (or one short of it), the end of
    the image's whole tiles, instead of up to `H - k`, the last start that fits."""
    call = strided_window_call(context, node)
    if call is None:
        return
    image, bound = call.args[0], f"{PREFIX}started_before_tiles_end"
    for short, end, also in ((0, "H - H % k", "W - W % k"),
                             (1, "H - H % k - 1", "W - W % k - 1")):
        yield Change(
            f"{node.value.id}-grid-to-tiles-end" + "-less-one" * short,
            f"In {where(context)}, the windows start at `range(0, {end}, stride)` down and "
            f"`range(0, {also}, stride)` across: the end is taken from where the image's whole "
            f"k x k tiles end{', less one' * short}, as for a kernel that moves by its own size, "
            f"where the last window that fits starts at `H - k` (and `W - k`): where the stride "
            f"is not k, the last starts can run past the image's edge, cutting their windows "
            f"short so that they no longer match the kernel, or the last windows that fit are "
            f"never read{' (with k = 1, the last row and column)' * short}. Start the windows "
            f"at `range(0, H - k + 1, stride)` and `range(0, W - k + 1, stride)`: "
            f"`(H - k) // stride + 1` by `(W - k) // stride + 1` outputs.",
            lambda n, short=short: ast.Call(ast.Name(bound, ast.Load()), [
                n, copy.deepcopy(image), copy.deepcopy(n.slice.elts[0].step),
                ast.Constant(short)], []),
            ((bound, started_before_tiles_end),))


def rounded_up(windows, image, stride) -> np.ndarray:
    """`windows` [H', W', C, kh, kw] (every `stride`-th window of `image` [H, W, C]) on a grid
    sized `ceil((H - kh) / stride) + 1` by `ceil((W - kw) / stride) + 1`, as loops over it read
    them, `image[i * s:i * s + kh, j * s:j * s + kw]`: the same where the stride leaves nothing
    over; elsewhere the first window past `H - kh` (or `W - kw`), cut short by the image's edge,
    meets the kernel in numpy's tensordot, which refuses it."""
    windows, image, s = np.asarray(windows), np.asarray(image), int(stride)
    image = image[..., None] if image.ndim == 2 else image  # [H, W, C]
    (kh, kw), (height, width) = windows.shape[-2:], image.shape[:2]
    rows, columns = -(-(height - kh) // s) + 1, -(-(width - kw) // s) + 1
    if (rows, columns) == windows.shape[:2]:
        return windows
    kernel = np.ones((kh, kw, *image.shape[2:]))
    for i in range(rows):  # in the loops' order: the first window cut short raises
        for j in range(columns):
            window = image[i * s:i * s + kh, j * s:j * s + kw]
            np.tensordot(window, kernel, axes=([0, 1, 2], [0, 1, 2]))
    raise AssertionError("unreachable: a start past H - k cuts its window")  # pragma: no cover


def grid_rounded_up(context: Context, node: ast.AST) -> Iterator[Change]:
    """The convolution's output size rounded up, `ceil((H - k) / stride) + 1` for `(H - k) //
    stride + 1` (ceil mode), its windows read by loops: a last window cut short by the edge."""
    call = strided_window_call(context, node)
    if call is None:
        return
    image, bound = call.args[0], f"{PREFIX}grid_rounded_up"
    yield Change(
        f"{node.value.id}-grid-rounded-up",
        f"In {where(context)}, the output size is rounded up, `ceil((H - k) / stride) + 1` "
        f"down and `ceil((W - k) / stride) + 1` across (a pooling's ceil mode): where the "
        f"stride leaves rows or columns over, the last window starts past `H - k` (or `W - "
        f"k`), runs off the image's edge cut short, and no longer matches the kernel, so "
        f"numpy raises ValueError. A valid convolution floors: `(H - k) // stride + 1` by "
        f"`(W - k) // stride + 1` outputs, the rows and columns left over unread.",
        lambda n: ast.Call(ast.Name(bound, ast.Load()), [
            n, copy.deepcopy(image), copy.deepcopy(n.slice.elts[0].step)], []),
        ((bound, rounded_up),))


OPERATORS = {"grid_end_from_remainder": grid_end_from_remainder,
             "grid_rounded_up": grid_rounded_up}
