"""Operators on an axis cut into equal chunks by a reshape: `x.reshape(*lead, T, heads, d //
heads)` (the heads' columns), `image.reshape(H // P, P, W // P, P, C)` (the patch grid). The
reference cuts with one reshape; a student who loops over the chunks writes each one's start and
how many there are, and gets one of them wrong:

- chunk j started at j instead of j * size (`Q[:, h:h + d_h]` for `Q[:, h * d_h:(h + 1) * d_h]`,
  `image[i:i + P]` for `image[i * P:(i + 1) * P]`): the chunks overlap, one step apart;
- the last chunk never cut, a loop `range(0, H - P, P)` where `H - P + 1` belongs: a grid of
  patches one row and one column short;
- every window cut, one step apart, where the chunks tile (scikit-learn's `extract_patches_2d`).

Each is an operator as in operators.py (`f(context, node) -> iterator of Change`); the new code
calls a function of this module, bound in the rewritten function's globals.
"""
from __future__ import annotations

import ast
import copy
import math
from collections.abc import Iterator

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .change import Change, Context, code, slug, where
from .tree import PREFIX


def _is_reshape(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "reshape" and not node.keywords and len(node.args) > 1)


def _chunk_pairs(args: list[ast.AST]) -> list[int]:
    """The places, counted from the end, where sizes i, i + 1 of a reshape cut one axis into
    chunks: (X // size, size) or (count, X // count). Only after the last starred size."""
    starred = max((i for i, a in enumerate(args) if isinstance(a, ast.Starred)), default=-1)
    found: list[int] = []
    for i in range(starred + 1, len(args) - 1):
        a, b = args[i], args[i + 1]
        if found and found[-1] == i - 1 - len(args):
            continue  # a size belongs to one cut: (H // P, P, W // P) has two, not three
        if ((isinstance(a, ast.BinOp) and isinstance(a.op, ast.FloorDiv)
             and ast.dump(a.right) == ast.dump(b))
                or (isinstance(b, ast.BinOp) and isinstance(b.op, ast.FloorDiv)
                    and ast.dump(b.right) == ast.dump(a))):
            found.append(i - len(args))
    return found


def _split_axis(array: np.ndarray, shape: tuple[int, ...], at: int) -> tuple[int, int, int]:
    """(axis of `array`, count, size) that sizes `at`, `at + 1` of `shape` (from its end) cut."""
    i = len(shape) + at
    count, size = shape[i], shape[i + 1]
    before = math.prod(shape[:i])
    for axis in range(array.ndim):
        if math.prod(array.shape[:axis]) == before and array.shape[axis] == count * size:
            return axis, count, size
    raise ValueError("no axis of the array is cut there")


def _shape(sizes) -> tuple[int, ...]:
    return tuple(int(s) for s in sizes)


def overlapping(array, sizes, places) -> np.ndarray:
    """`array.reshape(sizes)`, but with the axes that the pairs of sizes at `places` (counted from
    the end) cut taken as overlapping chunks: chunk j starts at j, not j * size."""
    array, shape = np.asarray(array), _shape(sizes)
    cuts = sorted((_split_axis(array, shape, at) for at in places), reverse=True)
    for axis, count, size in cuts:  # the last axis first: the earlier ones keep their place
        windows = sliding_window_view(array, size, axis=axis)  # the window last
        windows = windows[(slice(None),) * axis + (slice(0, count),)]
        if windows.shape[axis] != count:
            raise ValueError("too few elements for overlapping chunks")
        array = np.moveaxis(windows, -1, axis + 1)
    return array.reshape(shape)


def grid_short(value, counts, short) -> np.ndarray:
    """`value` [rows * cols, ...] (a grid's cells in raster order) without its last row of cells
    (short[0]) and its last column (short[1]): a loop `range(0, H - P, P)` one short."""
    value = np.asarray(value)
    rows, cols = _shape(counts)
    if value.ndim < 1 or value.shape[0] != rows * cols:
        raise ValueError("not a grid's cells")
    grid = value.reshape(rows, cols, *value.shape[1:])
    grid = grid[:rows - 1 if short[0] else rows, :cols - 1 if short[1] else cols]
    return grid.reshape(-1, *value.shape[1:])


def _places(node: ast.Call, places: tuple[int, ...]) -> str:
    """"`heads` chunks of `d // heads`" for each cut at `places`."""
    return " and ".join(f"`{code(node.args[len(node.args) + at])}` chunks of "
                        f"`{code(node.args[len(node.args) + at + 1])}`" for at in places)


def _size(node: ast.Call, at: int) -> ast.AST:
    """The chunk's size of the cut at `at`: the size that is not `X // ...`."""
    a, b = node.args[len(node.args) + at], node.args[len(node.args) + at + 1]
    return a.right if isinstance(a, ast.BinOp) and isinstance(a.op, ast.FloorDiv) else b


def _counted(node: ast.Call, at: int) -> str:
    """What the cut at `at` divides: `H` of (H // P, P), `heads` of (heads, d // heads)."""
    a = node.args[len(node.args) + at]
    return code(a.left if isinstance(a, ast.BinOp) and isinstance(a.op, ast.FloorDiv) else a)


def chunks_overlapping(context: Context, node: ast.AST) -> Iterator[Change]:
    """Chunk j of a cut axis started at j instead of j * size: the chunks overlap, one element
    apart (a head loop's `Q[:, h:h + d_h]`, a patch loop's `image[i:i + P, j:j + P]`); each cut
    alone, and all of a reshape's cuts at once."""
    if not _is_reshape(node):
        return
    pairs = _chunk_pairs(node.args)
    bound = f"{PREFIX}overlapping"
    for group in [(at,) for at in pairs] + ([tuple(pairs)] if len(pairs) > 1 else []):
        sizes = [code(size) if isinstance(size := _size(node, at), (ast.Name, ast.Constant))
                 else f"({code(size)})" for at in group]
        starts = ", ".join(f"`j:j + {s}` where `j * {s}:(j + 1) * {s}` belongs" for s in sizes)
        yield Change("-".join(slug(_counted(node, at)) for at in group) + "-chunks-overlap",
                     f"In {where(context)}, `{code(node)}` cuts {_places(node, group)}; yours "
                     f"start chunk j at j instead of j times its size ({starts}): the chunks "
                     "overlap, one element apart (right only with a single chunk).",
                     lambda n, group=group: ast.Call(ast.Name(bound, ast.Load()), [
                         n.func.value, ast.Tuple(list(n.args), ast.Load()),
                         ast.Tuple([ast.Constant(at) for at in group], ast.Load())], []),
                     ((bound, overlapping),))


def first_chunk(array, sizes, at) -> np.ndarray:
    """`array.reshape(sizes)` with every chunk of the cut at `at` (counted from the end) a copy of
    the first: each head given head 0's columns."""
    shape = _shape(sizes)
    chunks = np.asarray(array).reshape(shape)
    axis = len(shape) + at
    return np.broadcast_to(np.take(chunks, [0], axis=axis), shape).copy()


def chunk_shared(context: Context, node: ast.AST) -> Iterator[Change]:
    """Every chunk of a cut made by its count, (count, X // count), given the first chunk's
    values: each head reads head 0's d // heads columns (multi-query attention's one key and value
    head shared by every query head, where the lecture gives each head its own)."""
    if not _is_reshape(node):
        return
    bound = f"{PREFIX}first_chunk"
    for at in _chunk_pairs(node.args):
        count, size = node.args[len(node.args) + at], node.args[len(node.args) + at + 1]
        if not (isinstance(size, ast.BinOp) and isinstance(size.op, ast.FloorDiv)):
            continue  # (H // P, P): patches, not heads
        yield Change(f"{slug(code(count))}-chunk-0-shared",
                     f"In {where(context)}, `{code(node)}` cuts `{code(count)}` chunks of "
                     f"`{code(size)}`; yours gives every one of them the first chunk's values "
                     f"(one chunk shared by all, as multi-query attention shares one key and "
                     f"value head), where chunk j has its own values, from `j * "
                     f"({code(size)})` on.",
                     lambda n, at=at: ast.Call(ast.Name(bound, ast.Load()), [
                         n.func.value, ast.Tuple(list(n.args), ast.Load()), ast.Constant(at)],
                         []),
                     ((bound, first_chunk),))


def _grid(function: ast.AST) -> tuple[ast.AST, ast.AST] | None:
    """The two counts (rows, columns) of a reshape in `function` that cuts two axes into chunks
    as (X // P, P, Y // P, P, ...): a grid of patches."""
    for sub in ast.walk(function):
        if not _is_reshape(sub):
            continue
        pairs = _chunk_pairs(sub.args)
        counts = [sub.args[len(sub.args) + at] for at in pairs
                  if isinstance(sub.args[len(sub.args) + at], ast.BinOp)]
        if len(pairs) == 2 and len(counts) == 2:
            return counts[0], counts[1]
    return None


def grid_one_short(context: Context, node: ast.AST) -> Iterator[Change]:
    """A loop over a grid's rows and columns one short, `range(0, H - P, P)` where `range(0,
    H - P + 1, P)` belongs: the last row and column of patches are never cut (or only the last
    row, only the last column). Only a function that returns one row per cell of a grid its
    reshape cuts (`image.reshape(H // P, P, W // P, P, C)`)."""
    if not (isinstance(node, ast.Return) and node.value is not None):
        return
    counts = _grid(context.instance.node)
    if counts is None:
        return
    rows, cols = (code(c) for c in counts)
    bound = f"{PREFIX}grid_short"
    for short, what in (((True, True), "the last row and the last column of patches are"),
                        ((True, False), "the last row of patches is"),
                        ((False, True), "the last column of patches is")):
        loops = " and ".join(f"`range(0, {side} - P, P)` where `range(0, {side} - P + 1, P)` "
                             "belongs" for side, on in zip("HW", short, strict=True) if on)
        yield Change("grid-" + "-".join(n for n, on in zip(("rows", "cols"), short, strict=True)
                                        if on) + "-one-short",
                     f"In {where(context)}, {what} never cut: the loop stops one short "
                     f"({loops}), so the grid of {rows} by {cols} patches loses "
                     f"{'them' if all(short) else 'it'}.",
                     lambda n, short=short: ast.Return(ast.Call(ast.Name(bound, ast.Load()), [
                         n.value, ast.Tuple(copy.deepcopy([*counts]), ast.Load()),
                         ast.Tuple([ast.Constant(s) for s in short], ast.Load())], [])),
                     ((bound, grid_short),))


def every_window(image, size) -> np.ndarray:
    """Every `size` x `size` window of `image` [H, W, C], one step apart, in raster order, each
    flattened as (p1, p2, c): [(H - size + 1) * (W - size + 1), size * size * C]."""
    image, size = np.asarray(image), int(size)
    windows = sliding_window_view(image, (size, size), axis=(0, 1))  # [H', W', C, p1, p2]
    return windows.transpose(0, 1, 3, 4, 2).reshape(-1, size * size * image.shape[2])


def grid_as_windows(context: Context, node: ast.AST) -> Iterator[Change]:
    """A grid of tiles cut as every window one step apart (scikit-learn's
    `extract_patches_2d`, a convolution's sliding windows): (H - P + 1) * (W - P + 1)
    overlapping patches instead of (H // P) * (W // P) tiles. Only a function that returns the
    cells of a grid its reshape cuts from an (H, W, C) array. The statement that cuts the grid
    returns the windows instead, so that nothing after it (the grid's count of cells) refuses a
    size the tiles do not fit, where the code tests no tiling."""
    if not (isinstance(node, ast.Assign) and _is_reshape(node.value)
            and len(node.value.args) == 5 and len(_chunk_pairs(node.value.args)) == 2
            and any(isinstance(sub, ast.Return) and sub.value is not None
                    for sub in ast.walk(context.instance.node))):
        return
    cut = node.value
    array, size = cut.func.value, _size(cut, _chunk_pairs(cut.args)[0])
    bound = f"{PREFIX}every_window"
    yield Change("grid-as-every-window",
                 f"In {where(context)}, every {code(size)} x {code(size)} window is cut, one "
                 f"pixel apart ((H - {code(size)} + 1) * (W - {code(size)} + 1) overlapping "
                 f"patches, as scikit-learn's `extract_patches_2d` or a convolution's windows), "
                 f"where the lecture's patches tile the image: (H // {code(size)}) * (W // "
                 f"{code(size)}) of them, side by side.",
                 lambda n: ast.Return(ast.Call(ast.Name(bound, ast.Load()),
                                               [copy.deepcopy(array), copy.deepcopy(size)], [])),
                 ((bound, every_window),))


def averaged(array, sizes) -> np.ndarray:
    """`array.reshape(sizes)`, its last two axes merged, with the mean over the second-to-last
    axis repeated along the merged axis in its place: the chunks averaged, then tiled back."""
    array = np.asarray(array)
    mean = array.mean(axis=-2)
    return np.tile(mean, array.shape[-2]).reshape(_shape(sizes))


def chunks_averaged(context: Context, node: ast.AST) -> Iterator[Change]:
    """A merge of an array's last two axes, `y.reshape(..., heads * d_h)` (the heads' outputs
    side by side), written as their average, tiled back to the merged width (`np.tile(
    out.mean(axis=0), heads)`: PyG's GATConv with concat=False averages its heads)."""
    if not (_is_reshape(node) and isinstance(last := node.args[-1], ast.BinOp)
            and isinstance(last.op, ast.Mult) and isinstance(last.left, ast.Name)
            and isinstance(last.right, ast.Name)):
        return
    bound, count = f"{PREFIX}averaged", code(last.left)
    yield Change(f"{slug(count)}-chunks-averaged",
                 f"In {where(context)}, `{code(node)}` puts the `{count}` chunks of "
                 f"`{code(last.right)}` side by side; yours averages them and tiles the "
                 f"average `{count}` times (as GATConv's concat=False averages its heads, then "
                 f"`np.tile(mean, {count})` back to the width), so every chunk holds the mean "
                 "of all, where each keeps its own values (right only with a single chunk).",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), [
                     n.func.value, ast.Tuple(list(n.args), ast.Load())], []),
                 ((bound, averaged),))


OPERATORS = {"chunks_overlap": chunks_overlapping, "chunk_shared": chunk_shared,
             "chunks_averaged": chunks_averaged,
             "grid_short": grid_one_short,
             "grid_windows": grid_as_windows}
