"""Operators on a windowed step that reads one side of the image for the other, as windows.py's.

The grid of output positions sized the other way round, (W', H') for (H', W'), as code that
reads an (H, W, C) image as `W, H, C = image.shape` sizes and loops it (blind round 59's
b59_12, dino's `B, nc, w, h = x.shape` naming ported), `grid_swapped`: right where H' == W',
elsewhere a window runs off the image and meeting the kernel raises numpy's own ValueError.

`row_stride_from_height`: the image read through a flat index whose row stride is the height
where it is the width, `ih * in_height + iw` for `ih * in_width + iw` (MACE's reference
Conv2d's NCHW planes, `input_data[in_base + ih * in_height + iw]`, blind round 61's b61_13), the
image flattened plane by plane (`image.transpose(2, 0, 1).ravel()`; pixel by pixel,
`image.ravel()` with the channel last, reads the same pixels): right when H == W; when H < W
the windows read the wrong pixels; when H > W the last rows' indices run past the end of the
flat array, numpy's IndexError ("index 34 is out of bounds for axis 0 with size 30"), or into
the next plane.

`grid_transposed`: the grid of windows laid out (W', H'), its rows and columns swapped before
the kernel meets it (fsdl-text-recognizer's `slide_window`, `tf.transpose(patches, (0, 2, 1,
3))`, ported to one image, blind round 75's b75_14): the output holds the window at row i,
column j at [j, i]: transposed values where H' == W' (but a 1 x 1 grid), the shape (W', H', d)
elsewhere.

Operators as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, code, where
from .tree import PREFIX
from .window_sites import grid_read
from .windows import sides_differ

# how a loop's window meets the kernel, each raising numpy's own ValueError on a window cut
# short by the image's edge: (the kernel [k, k, C, 1] for a window [k', k'', C]) -> anything
MEETS = {"tensordot": lambda window, kernel: np.tensordot(window, kernel, axes=3),
         "flattened": lambda window, kernel: window.reshape(-1) @ kernel.reshape(-1, 1)}


def grid_sides_swapped(windows: np.ndarray, image: np.ndarray, stride: int,
                       meet: str) -> np.ndarray:
    """`windows` [H', W', C, k, k] as loops over a grid sized the other way round read them,
    `for i in range(W'): for j in range(H'): image[i * s:i * s + k, j * s:j * s + k]` (the
    image's height read as its width): the same where H' == W'; elsewhere the first window past
    the shorter side is cut short by the image's edge, and meeting the kernel (MEETS) raises
    numpy's own ValueError."""
    rows, columns = windows.shape[:2]
    if rows == columns:
        return windows
    image = np.asarray(image)
    image = image[..., None] if image.ndim == 2 else image  # [H, W, C]
    channels, kh, kw = windows.shape[2:]
    i, j = (rows, 0) if columns > rows else (0, columns)  # the first window off the image
    window = image[i * stride:i * stride + kh, j * stride:j * stride + kw]
    MEETS[meet](window, np.zeros((kh, kw, channels, 1)))
    raise ValueError(f"a window {window.shape[:2]} meets a kernel ({kh}, {kw})")  # never here


def grid_swapped(context: Context, node: ast.AST) -> Iterator[Change]:
    """The grid of output positions sized the other way round, (W', H') for (H', W'), both
    loops running over the other side's count: dino's `B, nc, w, h = x.shape` naming ported as
    `w, h, C = image.shape` (blind round 59's b59_12: the image's height read as its width, and
    every size and loop from it), or a grid laid out (x, y). Right when H' == W'; elsewhere a
    window runs off the image and meeting the kernel raises (MEETS: numpy's message, which the
    student's must be)."""
    image = grid_read(context.instance.node, node)
    if image is None:
        return
    bound = f"{PREFIX}grid_sides_swapped"
    for meet in MEETS:
        yield Change(
            f"{node.value.id}-grid-sides-swapped-{meet}",
            f"In {where(context)}, `W, H, C = {code(image)}.shape` reads the image's height as "
            f"its width, so the output grid is sized the other way round, (W', H') for (H', "
            f"W'), the rows looped over the count of windows across the width and the columns "
            f"over the count down the height: right only when H' == W'; otherwise a window runs "
            f"off the image's bottom or right edge, cut short, and meeting the kernel raises "
            f"ValueError. An image is (H, W, C), its height first: `H, W, C = "
            f"{code(image)}.shape`, the rows over H' and the columns over W'.",
            lambda n, meet=meet: ast.Call(
                ast.Name(bound, ast.Load()),
                [n, copy.deepcopy(image), copy.deepcopy(n.slice.elts[0].step),
                 ast.Constant(meet)], []),
            ((bound, grid_sides_swapped),), holds=sides_differ)


def rows_strided_by_height(windows: np.ndarray, image: np.ndarray, stride: int) -> np.ndarray:
    """`windows` [H', W', C, kh, kw] (every `stride`-th window of `image` [H, W, C]) read from
    the image flattened plane by plane at a flat index whose row stride is H, not W, `c * H * W
    + ih * H + iw`: the same where H == W; elsewhere other pixels (a pixel-by-pixel flattening,
    `(ih * H + iw) * C + c`, reads the same ones), or numpy's own IndexError for an index past
    the flat array's end (the first in the loops' order: rows, columns, channels, kernel rows,
    kernel columns)."""
    windows, s = np.asarray(windows), int(stride)
    image = np.asarray(image)
    image = image[..., None] if image.ndim == 2 else image  # [H, W, C]
    (H, W, C), (rows, columns, _, kh, kw) = image.shape, windows.shape
    if H == W:
        return windows
    i = (np.arange(rows) * s)[:, None, None, None, None] + np.arange(kh)[:, None]
    j = (np.arange(columns) * s)[None, :, None, None, None] + np.arange(kw)
    c = np.arange(C)[:, None, None]
    at = np.ascontiguousarray(np.broadcast_to(c * H * W + i * H + j, windows.shape))
    return image.transpose(2, 0, 1).ravel()[at]


def row_stride_from_height(context: Context, node: ast.AST) -> Iterator[Change]:
    """The image read through a flat index `ih * H + iw` where its rows are W long (MACE's
    reference convolution): right when H == W."""
    image = grid_read(context.instance.node, node)
    if image is None:
        return
    bound = f"{PREFIX}rows_strided_by_height"
    yield Change(
        f"{node.value.id}-row-stride-from-height",
        f"In {where(context)}, the flat index into the flattened image steps a row by the "
        f"height, `ih * H + iw` (`c * H * W + ih * H + iw` plane by plane), where a row is W "
        f"pixels long (right only when H == W). On a non-square image the windows read other "
        f"pixels, and on a tall one (H > W) the last rows' indices run past the end of the "
        f"array and indexing raises IndexError. Step a row by the width: `ih * W + iw`.",
        lambda n: ast.Call(ast.Name(bound, ast.Load()), [
            n, copy.deepcopy(image), copy.deepcopy(n.slice.elts[0].step)], []),
        ((bound, rows_strided_by_height),))


def grid_transposed(context: Context, node: ast.AST) -> Iterator[Change]:
    """The grid of windows transposed, `windows[::s, ::s].swapaxes(0, 1)`: the output (W', H',
    d), window (i, j)'s result at [j, i]."""
    if grid_read(context.instance.node, node) is None:
        return
    yield Change(
        f"{node.value.id}-grid-transposed",
        f"In {where(context)}, the grid of windows has its rows and columns swapped, laid out "
        f"(W', H') where (H', W') belongs (a transpose of the windows' first two axes, as code "
        f"that lists windows column by column does): the result of the window at row i, column "
        f"j lands at [j, i], so the output is (W', H', d), its values transposed even where "
        f"H' == W'. Keep the windows' grid as (H', W'): row i of the output from the windows "
        f"starting at row i * stride.",
        lambda n: ast.Call(ast.Attribute(n, "swapaxes", ast.Load()),
                           [ast.Constant(0), ast.Constant(1)], []))


OPERATORS = {"grid_swapped": grid_swapped, "row_stride_from_height": row_stride_from_height,
             "grid_transposed": grid_transposed}
