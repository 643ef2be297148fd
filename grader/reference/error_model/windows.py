"""Operators on a windowed step (a convolution read from `sliding_window_view`): how far its
windows stride and how many there are along each side. The reference's convolution reads every
window and keeps every `stride`-th, `windows[::s, ::s]`; a student's loop over output positions
gets the stride or the count of one side wrong. Each is an operator as in operators.py
(`f(context, node) -> iterator of Change`); OPERATORS lists them in the order tried. Where
the windows stand in the code is window_sites.py's; the padding operator is window_padding.py's.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .change import Change, Context, code, where, with_first
from .kernel_fit import counted_from
from .tree import PREFIX
from .window_padding import padding
from .window_sites import (
    grid_read,
    returned_through,
    strided_axes,
    window_call,
    window_shape,
    windows_returned,
)

AXIS_WORDS = {0: "the rows", 1: "the columns"}
SIDES = {0: ("H", "height"), 1: ("W", "width")}  # an image's axis: its size's name, in words
CLIPPED = "-clipped"  # a detail's ending: windows off the image broadcast, not raise
COUNT_WORDS = {0: ("taller", "shorter", "bottom"), 1: ("wider", "narrower", "right")}


def _unstrided(node: ast.Subscript, axis: int) -> ast.Subscript:
    """`a[::s, ::s]` with axis `axis` read one at a time, as many as the stride gives:
    `a[::s, :-(-a.shape[1] // s)]`."""
    step = node.slice.elts[axis].step
    count = ast.parse(f"-(-{node.value.id}.shape[{axis}] // ({ast.unparse(step)}))",
                      mode="eval").body
    new = copy.copy(node)
    parts = list(node.slice.elts)
    parts[axis] = ast.Slice(None, count, None)
    new.slice = ast.Tuple(parts, ast.Load())
    return new


def stride_one_axis(context: Context, node: ast.AST) -> Iterator[Change]:
    """A stride applied on one axis only: `windows[::s, ::s]` read as `windows[::s, :W']`, the
    first W' columns one at a time (a convolution loop `j:j + k` where it should read
    `j * s:j * s + k`; right for stride 1)."""
    axes = strided_axes(node)
    if len(axes) < 2:
        return
    for axis in axes:
        words = AXIS_WORDS.get(axis, f"axis {axis}")
        step = code(node.slice.elts[axis].step)
        yield Change(f"{node.value.id}-axis{axis}-unstrided",
                     f"In {where(context)}, `{code(node)}` steps {words} one at a time: the "
                     f"first ones, as many as the stride gives, `{code(_unstrided(node, axis))}`,"
                     f" instead of every `{step}`-th (a loop reading `j:j + k` where it should "
                     f"read `j * {step}:j * {step} + k`).",
                     lambda n, axis=axis: _unstrided(n, axis) if len(strided_axes(n)) > 1 else None)
    step = code(node.slice.elts[axes[0]].step)
    yield Change(f"{node.value.id}-unstrided",
                 f"In {where(context)}, `{code(node)}` takes the first windows one at a time on "
                 f"both axes, as many as the stride gives, instead of every `{step}`-th: the "
                 f"stride sets the output's size but not where each window starts (`i:i + k` "
                 f"where `i * {step}:i * {step} + k` belongs).",
                 lambda n: _unstrided(_unstrided(n, axes[0]), axes[1])
                 if len(strided_axes(n)) > 1 else None)
    yield Change(f"{node.value.id}-stride-ignored",
                 f"In {where(context)}, `{code(node)}` is not taken: every window position is "
                 f"used, as with a stride of 1 (overlapping windows), where every `{step}`-th "
                 "belongs.", lambda n: n.value)


def _strided_by_window(node: ast.Subscript, shape: ast.AST) -> ast.Subscript | None:
    """`a[::s, ::s]` as `a[::shape[0], ::shape[1]]`: each axis stepped by the window's size."""
    axes = strided_axes(node)
    if len(axes) < 2:
        return None
    new = copy.copy(node)
    parts = list(node.slice.elts)
    for axis in axes:
        size = ast.Subscript(copy.deepcopy(shape), ast.Constant(axis), ast.Load())
        parts[axis] = ast.Slice(None, None, size)
    new.slice = ast.Tuple(parts, ast.Load())
    return new


def stride_as_window(context: Context, node: ast.AST) -> Iterator[Change]:
    """Sliding windows stepped by their own size instead of the stride given: `windows[::s,
    ::s]` as `windows[::k, ::k]` (the patch embedding's kernel P and stride P taken as one
    number: right only when the stride is the kernel's size)."""
    if not strided_axes(node) or len(strided_axes(node)) < 2:
        return
    shape = window_shape(context.instance.node, node.value.id)
    if shape is None:
        return
    yield Change(f"{node.value.id}-stride-as-window",
                 f"In {where(context)}, `{code(node)}` steps by the window's own size, "
                 f"`{code(_strided_by_window(node, shape))}`, instead of the stride it is given: "
                 f"right only when the stride equals the kernel size.",
                 lambda n: _strided_by_window(n, shape) if len(strided_axes(n)) > 1 else None)


def stride_as_subsampling(context: Context, node: ast.AST) -> Iterator[Change]:
    """The stride applied to the image instead of the windows: every `s`-th pixel kept, then
    every window of that smaller image (d2l's corr2d run on `image[::s, ::s]`), where the
    lecture takes every `s`-th window of the whole image; right for stride 1."""
    axes = strided_axes(node)
    call = window_call(context.instance.node, node.value.id) if axes == [0, 1] else None
    if call is None:
        return
    step = node.slice.elts[0].step
    image = call.args[0]
    smaller = ast.Subscript(copy.deepcopy(image), ast.Tuple(
        [ast.Slice(None, None, copy.deepcopy(step))] * 2, ast.Load()), ast.Load())
    yield Change(f"{node.value.id}-image-subsampled",
                 f"In {where(context)}, the stride is applied to the image, `{code(smaller)}`, "
                 f"and the kernel then slides over every position of that smaller image, where "
                 f"the lecture slides it over the whole image and keeps every "
                 f"`{code(step)}`-th window, `{code(node)}`: each window should read "
                 f"neighbouring pixels, `image[i * {code(step)}:i * {code(step)} + k]` (right "
                 "only for stride 1).",
                 lambda n: with_first(copy.deepcopy(call), smaller))


def counted_like(windows: np.ndarray, image: np.ndarray, stride: int, counted: int,
                 source: int, clipped: bool) -> np.ndarray:
    """`windows` [H', W', C, k, k] (every `stride`-th of `image`'s [H, W, C]) with as many
    positions along axis `counted` as along `source`: the first ones when there are more; when
    there are fewer, the extra windows run off the image, as a loop over that many positions
    reads them: a slice cut short by the edge. `clipped`: that short slice meets the kernel by
    broadcasting (`np.sum(window * K)`, einsum: one pixel wide is spread over the kernel, none
    with a one-pixel kernel adds nothing, else ValueError); else every short one raises
    ValueError (`window.reshape(-1) @ K`, tensordot)."""
    n, have = windows.shape[source], windows.shape[counted]
    if n <= have:
        return windows[(slice(None),) * counted + (slice(0, n),)]
    image = np.asarray(image)
    image = image[..., None] if image.ndim == 2 else image  # [H, W, C]
    k, extra = windows.shape[3 + counted], []
    for position in range(have, n):
        width = max(0, min(image.shape[counted], position * stride + k) - position * stride)
        if not clipped or not (width == 1 or (width == 0 and k == 1)):
            raise ValueError(f"operands could not be broadcast together: a window {width} "
                             f"pixels wide meets a kernel {k} wide")
        shape = list(windows.shape)
        shape[counted] = 1
        if width == 0:  # a one-pixel kernel over nothing: the bias alone
            extra.append(np.zeros(shape, windows.dtype))
            continue
        cut = np.take(image, [position * stride], axis=counted)  # the edge's pixel
        along = sliding_window_view(cut, windows.shape[3 + source], axis=source)
        along = along[(slice(None),) * source + (slice(None, None, stride),)]
        along = along[(slice(None),) * source + (slice(0, n),)]  # [H', 1, C, k] or [1, W', C, k]
        extra.append(np.broadcast_to(np.expand_dims(along, 3 + counted), shape))
    return np.concatenate([windows, *extra], axis=counted)


def looped_like(windows: np.ndarray, image: np.ndarray, stride: int, counted: int,
                source: int, clipped: bool) -> np.ndarray:
    """`windows` [H', W', C, k, k] as a loop over a buffer of the right size reads them when its
    loop along axis `counted` runs as many times as there are positions along `source`: where
    that is fewer, the positions past it are never written (zero windows: the bias alone); where
    it is more, the first position past the buffer reads a window cut short by the edge and
    raises, ValueError where that slice does not meet the kernel, IndexError where it does
    (`clipped`: a one-pixel slice broadcast by einsum or `*`) and the write lands past the
    buffer. Not `counted_like`, whose output has the loop's size."""
    n, have = windows.shape[source], windows.shape[counted]
    if n <= have:
        out = np.array(windows)
        out[(slice(None),) * counted + (slice(n, None),)] = 0
        return out
    image = np.asarray(image)
    size, k = (image[..., None] if image.ndim == 2 else image).shape[counted], windows.shape[
        3 + counted]
    width = max(0, min(size, have * stride + k) - have * stride)
    if clipped and (width == 1 or (width == 0 and k == 1)):
        raise IndexError(f"index {have} is out of bounds for axis {counted} with size {have}")
    raise ValueError(f"operands could not be broadcast together: a window {width} pixels wide "
                     f"meets a kernel {k} wide")


def sides_differ(rewritten, calls, same) -> bool:
    """Whether one of `calls` has an output whose two sides differ (H' != W'): elsewhere a count
    taken from the other side is right, and windows at their index are the one slip shown."""
    return any(np.ndim(c.expected) >= 2 and np.shape(c.expected)[0] != np.shape(c.expected)[1]
               for c in calls)


def count_from_sibling(context: Context, node: ast.AST) -> Iterator[Change]:
    """One side's count of windows taken from the other side's: `W' = (H - k) // s + 1`, a
    line written for the height and copied for the width (timm's and d2l's square images),
    so a wider image loses its last columns and a taller one runs its windows off the image
    (right only when H == W). Two readings of the windows off the image, told alike
    (aliases.py): their short slices broadcast against the kernel, or raise."""
    image = grid_read(context.instance.node, node)
    if image is None:
        return
    bound = f"{PREFIX}counted_like"
    for counted, source in ((1, 0), (0, 1)):
        (mine, _), (other, _) = SIDES[counted], SIDES[source]
        more, fewer, edge = COUNT_WORDS[counted]
        for clipped in (False, True):
            yield Change(
                f"{node.value.id}-{mine}-count-from-{other}" + (CLIPPED if clipped else ""),
                f"In {where(context)}, {AXIS_WORDS[counted]} of the output are counted from "
                f"{other}, `({other} - k) // stride + 1`, where `({mine} - k) // stride + 1` "
                f"belongs (a line written for {AXIS_WORDS[source]} and copied): a {more} image "
                f"loses its last {AXIS_WORDS[counted][4:]}, a {fewer} one has windows that run "
                f"off its {edge} edge (right only when {other} == {mine}).",
                lambda n, counted=counted, source=source, clipped=clipped: ast.Call(
                    ast.Name(bound, ast.Load()),
                    [n, copy.deepcopy(image), copy.deepcopy(n.slice.elts[0].step),
                     ast.Constant(counted), ast.Constant(source), ast.Constant(clipped)], []),
                ((bound, counted_like),  # and where no kernel test stands, its empty output
                 (f"{PREFIX}no_windows", counted_from(counted, source))))
            yield Change(  # both slips of d2l's corr2d loop given a stride: one line
                f"{node.value.id}-unstrided-{mine}-count-from-{other}"
                + (CLIPPED if clipped else ""),
                f"In {where(context)}, two slips of one loop: {AXIS_WORDS[counted]} of the "
                f"output are counted from {other}, `({other} - k) // stride + 1`, where "
                f"`({mine} - k) // stride + 1` belongs (a line written for "
                f"{AXIS_WORDS[source]} and copied), and each window starts at its index, "
                f"`i:i + k`, where `i * stride:i * stride + k` belongs (the stride sets the "
                f"output's size but not where its windows start). Right only when {other} == "
                f"{mine} and the stride is 1.",
                lambda n, counted=counted, source=source, clipped=clipped: ast.Call(
                    ast.Name(bound, ast.Load()),
                    [_unstrided(_unstrided(n, 0), 1), copy.deepcopy(image), ast.Constant(1),
                     ast.Constant(counted), ast.Constant(source), ast.Constant(clipped)], []),
                ((bound, counted_like),), holds=sides_differ)
    looped = f"{PREFIX}looped_like"
    for counted, source in ((1, 0), (0, 1)):  # the buffer right, its loop counted from the other
        (mine, _), (other, _) = SIDES[counted], SIDES[source]
        more, fewer, edge = COUNT_WORDS[counted]
        for clipped in (False, True):
            yield Change(
                f"{node.value.id}-{mine}-looped-over-{other}" + (CLIPPED if clipped else ""),
                f"In {where(context)}, the loop over {AXIS_WORDS[counted]} of the output runs "
                f"as many times as there are {AXIS_WORDS[source][4:]}, `range({other}_out)` "
                f"where `range({mine}_out)` belongs (the output itself has the right size): a "
                f"{more} image leaves its last {AXIS_WORDS[counted][4:]} at the bias, a "
                f"{fewer} one reads windows off its {edge} edge and writes past the output "
                f"(right only when {other} == {mine}).",
                lambda n, counted=counted, source=source, clipped=clipped: ast.Call(
                    ast.Name(looped, ast.Load()),
                    [n, copy.deepcopy(image), copy.deepcopy(n.slice.elts[0].step),
                     ast.Constant(counted), ast.Constant(source), ast.Constant(clipped)], []),
                ((looped, looped_like),))


def offset_from_other_index(windows: np.ndarray, image: np.ndarray, stride: int, axis: int,
                            clipped: bool) -> np.ndarray:
    """`windows` [H', W', C, k, k] (every `stride`-th of `image`'s [H, W, C]) as a loop reads
    them when the offset along `axis` comes from the other axis's index: axis 1, window (i, j)
    taken at columns `i * stride:i * stride + k` (the row index `i` where `j` belongs), so every
    window of row i is window (i, i); axis 0, the rows from `j`, every window of column j is
    (j, j). An index past the other side's last window starts a slice cut short by the image's
    edge: `clipped`, it meets the kernel by broadcasting (one pixel wide is spread over the
    kernel, none with a one-pixel kernel adds nothing, else ValueError); else every short one
    raises ValueError (`window.reshape(-1) @ K`, tensordot), as `counted_like`'s do."""
    image = np.asarray(image)
    image = image[..., None] if image.ndim == 2 else image  # [H, W, C]
    rows, columns = windows.shape[:2]
    out = np.empty_like(windows)
    k = windows.shape[4 - (axis == 0)]  # the kernel's size along `axis`
    for index in range(rows if axis == 1 else columns):  # the index the offset is taken from
        at = (index, slice(None)) if axis == 1 else (slice(None), index)
        if index < windows.shape[axis]:
            out[at] = windows[index, index]
            continue
        start = index * stride
        width = max(0, min(image.shape[axis], start + k) - start)
        if not clipped or not (width == 1 or (width == 0 and k == 1)):
            raise ValueError(f"operands could not be broadcast together: a window {width} "
                             f"pixels wide meets a kernel {k} wide")
        if width == 0:  # a one-pixel kernel over nothing: the bias alone
            out[at] = 0
            continue
        other = windows.shape[4 - (axis == 1)]  # the kernel's size along the other axis
        if axis == 1:  # rows start*..start+other of column `start`: [other, C] -> [C, other, 1]
            edge = image[start:start + other, start, :].T[:, :, None]
        else:  # columns start..start+other of row `start`: [other, C] -> [C, 1, other]
            edge = image[start, start:start + other, :].T[:, None, :]
        out[at] = np.broadcast_to(edge, windows.shape[2:])
    return out


OFFSET_WORDS = {1: ("columns", "row", "i", "j", "right"), 0: ("rows", "column", "j", "i", "bottom")}


def offset_from_index(context: Context, node: ast.AST) -> Iterator[Change]:
    """Each window's offset along one axis computed from the other axis's loop index: `image[i
    * s:i * s + k, i * s:i * s + k]` where `j * s:j * s + k` belongs for the columns (a loop
    over output positions whose column slice was copied from the row slice), or the rows taken
    from `j`. Every window of an output row (column) is then the one on the diagonal: right
    only on the diagonal windows, i == j. Two readings of the windows that run off the image
    (an index past the other side's last window), told alike (aliases.py): their short
    slices broadcast against the kernel, or raise."""
    image = grid_read(context.instance.node, node)
    if image is None:
        return
    bound = f"{PREFIX}offset_from_other_index"
    for axis, (side, by, index, own, edge) in OFFSET_WORDS.items():
        step = code(node.slice.elts[axis].step)
        for clipped in (False, True):
            yield Change(
                f"{node.value.id}-{side}-at-{by}-index" + (CLIPPED if clipped else ""),
                f"In {where(context)}, each window's {side} start at the {by} index, `{index} "
                f"* {step}:{index} * {step} + k`, where `{own} * {step}:{own} * {step} + k` "
                f"belongs (`{own}` replaced by `{index}` in the {side}' slice): every window of "
                f"output {by} {index} is the one on the diagonal, ({index}, {index}), so only "
                f"the diagonal windows ({index} == {own}) are right, and where the output has "
                f"more {by}s than {side}, the windows of the last ones run off the image's "
                f"{edge} edge.",
                lambda n, axis=axis, clipped=clipped: ast.Call(
                    ast.Name(bound, ast.Load()),
                    [n, copy.deepcopy(image), copy.deepcopy(n.slice.elts[0].step),
                     ast.Constant(axis), ast.Constant(clipped)], []),
                ((bound, offset_from_other_index),))


def left_unwritten(value: np.ndarray, image: np.ndarray, window, stride: int) -> np.ndarray:
    """`value` [H', W', d] with the positions a loop over `range(0, H - k, stride)` (one short)
    never writes set to 0, its buffer's start: the last row, and the last column, whenever a
    window starts exactly at H - k (W - k)."""
    value, sides = np.array(value, dtype=float), np.shape(image)[:2]
    for axis, (side, k) in enumerate(zip(sides, tuple(window)[:2], strict=True)):
        written = len(range(0, side - k, stride))
        value[(slice(None),) * axis + (slice(written, None),)] = 0.0
    return value


def collected(value: np.ndarray, image: np.ndarray, window, stride: int) -> np.ndarray:
    """`value` [H', W', d] cut to the windows loops over `range(0, H - k, stride)` (one short)
    collect, the output built from them: a list of rows of windows (no row: no column)."""
    value, sides = np.asarray(value), np.shape(image)[:2]
    rows, columns = (len(range(0, side - k, stride))
                     for side, k in zip(sides, tuple(window)[:2], strict=True))
    return value[:rows, :columns if rows else 0]


def range_one_short(context: Context, node: ast.AST) -> Iterator[Change]:
    """The loops over window positions stop one short, `range(0, H - k, stride)` where `H - k
    + 1` belongs, over an output buffer of the right size (cs231n's conv_forward_naive): its last
    row and column stay 0 whenever a window starts exactly at H - k (always when the windows
    tile the image); or with the output built from the windows they collect (a list of rows):
    that row and column are missing."""
    found = windows_returned(context, node)
    if found is None:
        return
    yield Change(f"{found[0]}-range-one-short",
                 f"In {where(context)}, the loops over window positions stop one short, "
                 f"`range(0, H - k, stride)` where `range(0, H - k + 1, stride)` belongs (and "
                 f"likewise for W): the output's last row and column stay at the buffer's 0 "
                 f"whenever a window starts exactly at H - k (W - k), as it always does when the "
                 f"windows tile the image.", *returned_through(found, left_unwritten))
    yield Change(f"{found[0]}-range-one-short-collected",
                 f"In {where(context)}, the loops over window positions stop one short, "
                 f"`range(0, H - k, stride)` where `range(0, H - k + 1, stride)` belongs (and "
                 f"likewise for W), and the output is built from the windows they collect: its "
                 f"last row and column of windows are missing whenever a window starts exactly "
                 f"at H - k (W - k), as it always does when the windows tile the image.",
                 *returned_through(found, collected))


def at_pixel_offsets(value: np.ndarray, image: np.ndarray, window, stride: int) -> np.ndarray:
    """`value` [H', W', d] written by loops over pixel offsets, `for i in range(0, H - k + 1,
    stride)`, at `out[i, j]` where `out[i // stride, j // stride]` belongs: right for stride 1
    (or one window), an IndexError on the buffer of the right size otherwise."""
    value, (height, width) = np.asarray(value), np.shape(image)[:2]
    out = np.zeros_like(value)
    for i in range(0, height - window[0] + 1, stride):
        for j in range(0, width - window[1] + 1, stride):
            out[i, j] = value[i // stride, j // stride]
    return out


def output_at_pixel(context: Context, node: ast.AST) -> Iterator[Change]:
    """The loops run over the windows' pixel offsets and write the output at them, `out[i, j]`
    with `i` in `range(0, H - k + 1, stride)`, where the window's index, `i // stride`, belongs
    (a textbook four-loop convolution's loop variable walking over pixels)."""
    found = windows_returned(context, node)
    if found is None:
        return
    yield Change(f"{found[0]}-written-at-pixel-offset",
                 f"In {where(context)}, the output is written at the window's pixel offset, "
                 f"`out[i, j]` with `i` in `range(0, H - k + 1, stride)`, where the window's "
                 f"index belongs, `out[i // stride, j // stride]`: right for stride 1, but with a "
                 f"larger stride the offsets run past the (H', W') output.",
                 *returned_through(found, at_pixel_offsets))


def first_windows(value: np.ndarray, image: np.ndarray, window, stride: int) -> np.ndarray:
    """`value` [H', W', d] cut to its first (H - k + 1) // stride rows and (W - k + 1) //
    stride columns: the count of windows with the +1 inside the floor division."""
    value, sides = np.asarray(value), np.shape(image)[:2]
    for axis, (side, k) in enumerate(zip(sides, tuple(window)[:2], strict=True)):
        value = value[(slice(None),) * axis + (slice(0, (side - k + 1) // stride),)]
    return value


def count_floored(context: Context, node: ast.AST) -> Iterator[Change]:
    """The output's size computed as `(H - k + 1) // stride` where `(H - k) // stride + 1`
    belongs (burn's and other ports' `out_h`): one window short unless (H - k) % stride is
    stride - 1 (never with stride 1)."""
    found = windows_returned(context, node)
    if found is None:
        return
    yield Change(f"{found[0]}-count-floored",
                 f"In {where(context)}, the number of window positions is computed as "
                 f"`(H - k + 1) // stride` where `(H - k) // stride + 1` belongs (and likewise "
                 f"for W): with the +1 inside the floor division the last window is lost unless "
                 f"(H - k) % stride is stride - 1.", *returned_through(found, first_windows))


def ends_at_index(value: np.ndarray, image: np.ndarray, window, stride: int,
                  axis: int) -> np.ndarray:
    """`value` [H', W', d] where each window's end along `axis` is written from its index, `j +
    k`, its start from the stride, `j * stride`: the first window cut short (any but the first
    when the stride is above 1) meets the kernel in the reference's contraction, np.tensordot,
    which raises numpy's own error; with none short, `value`."""
    image, window = np.asarray(image), tuple(window)[:2]
    image = image[..., None] if image.ndim == 2 else image
    for j in range(np.shape(value)[axis]):
        width = max(0, min(j + window[axis], image.shape[axis]) - j * stride)
        if width != window[axis]:
            cut = (*window[:axis], width, *window[axis + 1:], image.shape[2])
            np.tensordot(np.zeros(cut), np.zeros((*window, image.shape[2])), axes=3)
    return value


def end_at_index(context: Context, node: ast.AST) -> Iterator[Change]:
    """Each window's end along one axis written from its index, `j + k`, its start from the
    stride, `image[i * s:i * s + k, j * s:j + k]` (cs231n's conv_forward_naive with one bound
    edited): right for stride 1; with a larger one every window after the first is cut short."""
    found = windows_returned(context, node)
    if found is None:
        return
    _, image, window, stride = found
    bound = f"{PREFIX}ends_at_index"
    for axis, (side, (_, word)) in enumerate(zip(("rows", "columns"), SIDES.values(),
                                                 strict=True)):
        index = "ij"[axis]
        yield Change(f"{side}-end-at-index",
                     f"In {where(context)}, each window's {side} end at `{index} + k`, its index "
                     f"plus the kernel's size, though they start at `{index} * stride`: the "
                     f"slice `{index} * stride:{index} + k` where `{index} * stride:{index} * "
                     f"stride + k` belongs, so with a stride above 1 every window after the first "
                     f"is cut short in its {word} (right only for stride 1).",
                     lambda n, axis=axis: ast.Return(ast.Call(ast.Name(bound, ast.Load()), [
                         n.value, copy.deepcopy(image), copy.deepcopy(window),
                         copy.deepcopy(stride), ast.Constant(axis)], [])),
                     ((bound, ends_at_index),))


OPERATORS = {"stride": stride_one_axis, "stride_window": stride_as_window,  # tried after
             "stride_subsampled": stride_as_subsampling,
             "window_count": count_from_sibling, "window_range": range_one_short,
             "padding": padding, "window_count_floored": count_floored,
             "window_at_pixel": output_at_pixel, "window_end": end_at_index,
             "window_offset": offset_from_index}  # steps'

