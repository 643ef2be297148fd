"""Operators on the order of the patch grid: the reference numbers its patches in raster order,
row by row, from the grid `image.reshape(H // P, P, W // P, P, C)`. A port of a vision-language
model's image processor numbers them window by window instead: Hugging Face's Qwen2-VL (and
Qwen2.5-VL) `_preprocess` with `merge_size=2` lists each 2 x 2 block of neighbouring patches
together, the blocks in raster order, so that a later step can merge each block into one token
(the same order as Swin's `window_partition` over windows of 2 x 2 patches). Where a grid side is
odd the port cannot cut it into blocks: it either falls back to raster order (a merge size of 1)
or raises.

An operator as in operators.py (`f(context, node) -> iterator of Change`); the new code calls a
function of this module, bound in the rewritten function's globals.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

import numpy as np

from ..counting import check_tiling
from .change import Change, Context, callee, code, where
from .inputs import PROMOTES
from .tree import PREFIX
from .trial import Raised

MERGE = 2  # Qwen2-VL's merge_size, InternVL's and LLaVA-OneVision's 2 x 2 pixel shuffle


def window_order(grid: np.ndarray, size: int, fallback: bool) -> np.ndarray:
    """`grid` [rows, P, cols, P, ...] with its patches moved so that raster order over the result
    lists them window by window: each `size` x `size` window of patches in raster order, the
    windows in raster order. A grid whose sides `size` does not divide: as it is (`fallback`,
    a merge size of 1), else ValueError."""
    rows, cols = grid.shape[0], grid.shape[2]
    if rows % size or cols % size:
        if fallback:
            return grid
        raise ValueError(f"a {rows} x {cols} grid of patches is not cut into {size} x {size} "
                         f"windows")
    patches = np.swapaxes(grid, 1, 2).reshape(rows * cols, *grid.shape[1:2], *grid.shape[3:])
    order = np.arange(rows * cols).reshape(rows // size, size, cols // size, size)
    order = order.transpose(0, 2, 1, 3).reshape(-1)  # the t-th patch listed: its raster index
    moved = patches[order].reshape(rows, cols, *patches.shape[1:])
    return np.swapaxes(moved, 1, 2)


def _patch_grid(node: ast.AST) -> bool:
    """Whether `node` is `x.reshape(A // P, P, B // P, P, ...)`: an image cut into a grid."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "reshape" and not node.keywords and len(node.args) >= 4):
        return False
    a = node.args
    return all(isinstance(a[i], ast.BinOp) and isinstance(a[i].op, ast.FloorDiv)
               and ast.dump(a[i].right) == ast.dump(a[i + 1]) for i in (0, 2))


# what reading an image with its rows and columns swapped does to the lecture's patches, in
# words a student who wrote loops can find (b50_07: MATLAB's im2col, blocks column-major)
READ_TRANSPOSED = ("the patches are numbered down the columns of the grid first (top to bottom, "
                   "then left to right) and each patch is read column by column")


def cuts_patches(function: ast.AST, name: str) -> bool:
    """Whether `function` cuts its array `name` into a patch grid, `name.reshape(H // P, P,
    W // P, P, C)`: then `name` read with its first two axes swapped is READ_TRANSPOSED."""
    return any(_patch_grid(n) and isinstance(n.func.value, ast.Name) and n.func.value.id == name
               for n in ast.walk(function))


def merge_windows(context: Context, node: ast.AST) -> Iterator[Change]:
    """The patches numbered window by window (Qwen2-VL's merge_size=2) instead of row by row."""
    if not _patch_grid(node):
        return
    bound = f"{PREFIX}window_order"
    for fallback in (True, False):
        odd = ("where a side of the grid is odd, row by row (a merge size of 1)" if fallback
               else "where a side of the grid is odd, an error")
        yield Change(f"patches-in-{MERGE}x{MERGE}-windows" + ("" if fallback else "-or-raise"),
                     f"In {where(context)}, the patches of `{code(node)}` are numbered window "
                     f"by window, as Qwen2-VL's image processor does with merge_size={MERGE}: "
                     f"each {MERGE} x {MERGE} block of neighbouring patches together, the blocks "
                     f"in raster order ({odd}). The lecture numbers the patches in raster order, "
                     f"row by row over the whole grid, left to right.",
                     lambda n, fallback=fallback: ast.Call(
                         ast.Name(bound, ast.Load()),
                         [n, ast.Constant(MERGE), ast.Constant(fallback)], []),
                     ((bound, window_order),))


def _int_axes(node: ast.AST) -> list[int] | None:
    """The axes of `x.transpose(0, 2, 1, 3, 4)`, else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "transpose" and not node.keywords and len(node.args) >= 3
            and all(isinstance(a, ast.Constant) and type(a.value) is int for a in node.args)):
        return None
    return [a.value for a in node.args]


def channels_first(context: Context, node: ast.AST) -> Iterator[Change]:
    """Each patch flattened channels first, (c, p1, p2), where the reference's transpose of
    the grid puts its channel axis last, (p1, p2, c): the last axis moved before the two before
    it, as torch's (C, H, W) tensors flatten (`x.unfold(...)...reshape(N, C * P * P)`, Conv2d's
    weight layout, Qwen2-VL's processor)."""
    axes = _int_axes(node)
    if axes is None or not isinstance(node.func.value, ast.Name):
        return
    if not any(_patch_grid(sub) for sub in ast.walk(context.instance.node)):
        return  # only the transpose of a patch grid
    moved = [*axes[:-3], axes[-1], *axes[-3:-1]]
    written = f"{node.func.value.id}.transpose({', '.join(map(str, moved))})"
    yield Change("patch-flattened-channels-first",  # in words true beside a swap's (b50_07)
                 f"In {where(context)}, each patch is flattened channels first: the channel "
                 f"varies slowest (all of a patch's values of its first channel, then all of "
                 f"the next), as torch's channel-first (C, H, W) tensors flatten (Conv2d's "
                 f"weight layout), where the lecture's (p1, p2, c) varies it fastest, each "
                 f"pixel's channels side by side (the model solution's code read as if "
                 f"`{code(node)}` were `{written}`).",
                 lambda n, moved=moved: ast.Call(n.func, [ast.Constant(a) for a in moved], []))


def read_channels_first(image: np.ndarray, sizes: tuple, flattened: bool) -> np.ndarray:
    """The grid [rows, P, cols, P, C] of `image` [H, W, C] as `image.reshape(C, rows, P, cols, P)`
    reads it, channels first with no transpose before (a reshape keeps the numbers' order: each
    "channel" is a slice of rows), its axes then moved to where the reference's grid has them.
    `flattened`: each patch then flattened channel first, (c, p1, p2), as torch's `img_to_patch`
    does: the grid laid out so that the reference's `transpose(0, 2, 1, 3, 4)` and reshape to
    rows read each patch in that order."""
    rows, P, cols, _, C = sizes
    grid = np.asarray(image).reshape(C, rows, P, cols, P).transpose(1, 2, 3, 4, 0)
    if not flattened:
        return grid
    patches = np.ascontiguousarray(grid.transpose(0, 2, 4, 1, 3))  # [rows, cols, C, P, P]
    return patches.reshape(rows, cols, P, P, C).transpose(0, 2, 1, 3, 4)


def channels_read_first(context: Context, node: ast.AST) -> Iterator[Change]:
    """A channels-last (H, W, C) image cut into its grid by a reshape written for channels-first
    data, `image.reshape(C, H // P, P, W // P, P)`, with no transpose before it: torch's
    `img_to_patch(x, patch_size)` (the UvA deep-learning tutorials' ViT, `x.reshape(B, C, H //
    P, P, W // P, P)`) ported to numpy's (H, W, C) images; then each patch flattened as there,
    (c, p1, p2), or as the lecture's, (p1, p2, c). Right for one channel only."""
    if not (_patch_grid(node) and len(node.args) == 5
            and not isinstance(node.args[4], ast.Starred)):
        return
    image, (rows, size, cols, _, channels) = code(node.func.value), map(code, node.args)
    bound = f"{PREFIX}read_channels_first"
    for flattened in (True, False):
        order = "(c, p1, p2), as torch's `img_to_patch` does" if flattened else "(p1, p2, c)"
        yield Change("read-channels-first" + ("-flattened-channels-first" if flattened else ""),
                     f"In {where(context)}, the channels-last (H, W, C) image is cut as if it "
                     f"were channels first, `{image}.reshape({channels}, {rows}, {size}, {cols}, "
                     f"{size})` where `{code(node)}` belongs, with no transpose before it: a "
                     f"reshape keeps the numbers' order, so each \"channel\" is a slice of rows "
                     f"of the image and each \"pixel\" mixes its channels (as torch's "
                     f"(C, H, W) code run on an (H, W, C) array does); each patch is then "
                     f"flattened {order}. Right for one channel only: the lecture's image is "
                     f"(H, W, C), cut by `{code(node)}` and each patch flattened (p1, p2, c).",
                     lambda n, flattened=flattened: ast.Call(
                         ast.Name(bound, ast.Load()),
                         [n.func.value, ast.Tuple(list(n.args), ast.Load()),
                          ast.Constant(flattened)], []),
                     ((bound, read_channels_first),))


SIDE_WORDS = {0: ("rows", "height", "H"), 1: ("columns", "width", "W")}


def square_grid(image: np.ndarray, P: int, counted: int) -> np.ndarray:
    """`image` [H, W, C] as loops over an n x n grid read it, n counted from the other side
    (`n = H // P` for both loops): the first n patches along axis `counted` when it has more,
    else ValueError, a patch off the image being empty (`patches[k] = image[...].flatten()`
    or `np.stack` of patches that are not all the same size). A size P does not tile: as the
    reference refuses it."""
    check_tiling(image.shape[0], image.shape[1], P)
    n = image.shape[1 - counted] // P
    if n > image.shape[counted] // P:
        raise ValueError(f"a patch off the image: an {n} x {n} grid of {P} x {P} patches does "
                         f"not fit in a {image.shape[0]} x {image.shape[1]} image")
    return image[:, :n * P] if counted else image[:n * P]


def _both_ways(rewritten, calls, same) -> bool:
    """Whether `calls` hold a taller image and a wider one: with only one of them, other loops
    over a square grid read alike (both to the longer side, or `min(H, W)` for both), and
    which side was counted is not known."""
    shapes = [np.shape(c.kwargs.get("image", c.args[0] if c.args else None)) for c in calls]
    sides = {(s[0] > s[1]) - (s[0] < s[1]) for s in shapes if len(s) >= 2}
    return {1, -1} <= sides


def square(context: Context, node: ast.AST) -> Iterator[Change]:
    """A grid of patches counted n x n from one side: Brian Pulfer's "ViT from scratch"
    patchify (`n_patches = h // patch_size`, both loops over `range(n_patches)`, written for
    square images), on the image the function reads."""
    if not (isinstance(node, ast.Call) and callee(node) == PROMOTES and len(node.args) == 1
            and any(_patch_grid(sub) for sub in ast.walk(context.instance.node))):
        return
    size = next((a for a in context.instance.node.args.args if a.arg == "P"), None)
    if size is None:
        return
    bound = f"{PREFIX}square_grid"
    for counted in (1, 0):
        (mine, side, letter), (other, _, source) = SIDE_WORDS[counted], SIDE_WORDS[1 - counted]
        yield Change(f"{mine}-counted-from-{source}",
                     f"In {where(context)}, the grid of patches is counted n x n from the "
                     f"{SIDE_WORDS[1 - counted][1]}, `n = {source} // P` for the {other} and "
                     f"the {mine} alike (as code written for square images does, Pulfer's "
                     f"`n_patches = h // patch_size`): a {'wider' if counted else 'taller'} "
                     f"image loses its last {mine} of patches, a "
                     f"{'narrower' if counted else 'shorter'} one has patches off its edge. "
                     f"Count the {mine} from the {side}, `{letter} // P` (right only when "
                     f"H == W).",
                     lambda n, counted=counted: ast.Call(
                         ast.Name(bound, ast.Load()),
                         [n, ast.Name("P", ast.Load()), ast.Constant(counted)], []),
                     ((bound, square_grid),), holds=_both_ways)


def square_grid_rows(image: np.ndarray, P: int, counted: int,
                     channel_first: bool = False) -> np.ndarray:
    """`image` [H, W, C] as loops over an n x n grid cut it into a buffer whose rows are the
    image's size over the patch count wide, n counted from the other side (`n = H // P` for both
    loops, `np.zeros((n ** 2, H * W * C // n ** 2))`, `patches[i * n + j] =
    image[...].flatten()`): numpy's own assignment, so a patch that does not fit its row raises
    numpy's ValueError (a non-square image). A size P does not tile: as the reference refuses
    it. `channel_first`: the loops read the image moved to (C, H, W), each patch flattened
    (c, p1, p2)."""
    check_tiling(image.shape[0], image.shape[1], P)
    n = image.shape[1 - counted] // P
    patches = np.zeros((n * n, image.size // (n * n)))
    planes = np.moveaxis(image, -1, 0) if channel_first else image
    for i in range(n):
        for j in range(n):
            patches[i * n + j] = (planes[:, i * P:(i + 1) * P, j * P:(j + 1) * P] if channel_first
                                  else image[i * P:(i + 1) * P, j * P:(j + 1) * P]).reshape(-1)
    return patches


def square_rows(context: Context, node: ast.AST) -> Iterator[Change]:
    """A grid of patches counted n x n from one side into rows as wide as the image's size over
    n ** 2: Brian Pulfer's "ViT from scratch" patchify and akshathmangudi/Re-Implementation's
    `patchify(images, n_patches)` (`patches = zeros(n_patches ** 2, h * w * c // n_patches **
    2)`, both loops over `range(n_patches)`, written for square images); ported to (H, W, C)
    as it is or with the image moved to its (N, C, H, W) layout first (`image.transpose(2, 0,
    1)[None]`, numpy's `convert_image_to_patches(images, num_patches_1d)`), each patch then
    flattened (c, p1, p2). Only at the return of the checked function that cuts its promoted
    image into a patch grid, or of such a helper the checked function calls directly."""
    if not isinstance(node, ast.Return) or context.instance.path.count("/") > 1:
        return
    function = context.instance.node
    names = {a.arg for a in function.args.args}
    if not ({"image", "P"} <= names and any(
            isinstance(sub, ast.Call) and callee(sub) == PROMOTES for sub in ast.walk(function))
            and any(_patch_grid(sub) for sub in ast.walk(function))):
        return
    bound = f"{PREFIX}square_grid_rows"
    for (counted, first) in ((1, False), (0, False), (1, True), (0, True)):
        (mine, _, letter), (_, other, source) = SIDE_WORDS[counted], SIDE_WORDS[1 - counted]
        yield Change(f"{mine}-counted-from-{source}-rows-from-size"
                     + "-channels-first" * first,
                     f"In {where(context)}, the grid of patches is counted n x n from the "
                     f"{other}, `n = {source} // P` for both loops (as code written for square "
                     f"images does, `n_patches = {source.lower()} // patch_size`), and each row is "
                     f"`H * W * C // n ** 2` values wide, the image's size over that count: "
                     f"right only when H == W; on another image a patch does not fit its row "
                     f"and numpy raises ValueError (a patch of one value is spread over its row "
                     f"instead). "
                     + ("Each patch is also read from the image moved to (C, H, W), so it is "
                        "flattened channel first, (c, p1, p2), where the lecture's is "
                        "flattened (p1, p2, c) (the same for one channel). " if first else "")
                     + f"Loop over the {mine} with `{letter} // P`, and give each patch's row "
                     f"P * P * C values{', in (p1, p2, c) order' if first else ''}.",
                     lambda n, counted=counted, first=first: ast.Return(ast.Call(
                         ast.Name(bound, ast.Load()),
                         [ast.Name("image", ast.Load()), ast.Name("P", ast.Load()),
                          ast.Constant(counted), ast.Constant(first)], [])),
                     ((bound, square_grid_rows),),
                     holds=_both_ways_in_colour if first else _both_ways)


def _both_ways_in_colour(rewritten, calls, same) -> bool:
    """`_both_ways`, and a call that returned, on an image of several channels cut into patches
    of more than one pixel (P, the functions' last parameter): elsewhere the (c, p1, p2) flatten
    is the lecture's, or nothing is returned, and which one the code does is not known."""
    def colour(call) -> bool:
        image = call.kwargs.get("image", call.args[0] if call.args else None)
        size = call.kwargs.get("P", call.args[-1] if call.args else None)
        return (not isinstance(call.got, Raised) and np.ndim(image) == 3
                and np.shape(image)[-1] > 1 and isinstance(size, (int, np.integer)) and size > 1)

    return _both_ways(rewritten, calls, same) and any(colour(c) for c in calls)


COLLECT = {"stacked": np.stack, "as-array": np.array}  # how a loop's patches become one array


def bounds_swapped(image: np.ndarray, P: int, collect: str) -> np.ndarray:
    """The grid [rows, P, cols, P, C] of `image` [H, W, C] as loops with their bounds swapped
    cut it, `for i in range(0, W, P): for j in range(0, H, P): image[i:i + P, j:j + P]`, and
    collect it (COLLECT): a square image's patches, as the reference's; on any other some
    patches run off the image, cut short, and collecting them raises numpy's own ValueError."""
    H, W, C = image.shape
    tiles = [image[i:i + P, j:j + P].reshape(-1) for i in range(0, W, P) for j in range(0, H, P)]
    patches = COLLECT[collect](tiles)
    return patches.reshape(H // P, W // P, P, P, C).transpose(0, 2, 1, 3, 4)


def loop_bounds(context: Context, node: ast.AST) -> Iterator[Change]:
    """The loops over the grid with their bounds swapped: rows to W, columns to H (a numpy
    tutorial's patch loop written for square images)."""
    if not (_patch_grid(node) and isinstance(node.func.value, ast.Name)
            and isinstance(node.args[1], ast.Name)):
        return
    bound = f"{PREFIX}bounds_swapped"
    for collect, function in COLLECT.items():
        yield Change(f"grid-loop-bounds-swapped-{collect}",
                     f"In {where(context)}, the loops over the grid of patches have their bounds "
                     f"swapped, the rows over `range(0, W, P)` and the columns over `range(0, H, "
                     f"P)` (as a loop written for square images can): right when H == W; on "
                     f"another image some patches run off its edge, cut short, and "
                     f"`np.{function.__name__}` cannot put them together. The rows run to H, the "
                     f"columns to W.",
                     lambda n, collect=collect: ast.Call(
                         ast.Name(bound, ast.Load()),
                         [n.func.value, n.args[1], ast.Constant(collect)], []),
                     ((bound, bounds_swapped),), holds=_both_ways)


def column_major_put_back(grid: np.ndarray) -> np.ndarray:
    """The rows of `grid` [rows, cols, ...] listed column by column (MATLAB's `im2col(I, [P P],
    'distinct')`: patch (r, c) at c * rows + r), then put back as `.reshape(rows, cols,
    -1).transpose(1, 0, 2)` where the list is (cols, rows): one patch per row, (rows * cols,
    ...), raster order on a square grid only."""
    rows, cols = grid.shape[:2]
    listed = np.swapaxes(grid, 0, 1).reshape(rows * cols, -1)  # column by column
    return listed.reshape(rows, cols, -1).transpose(1, 0, 2).reshape(rows * cols, -1)


def _grid_rows(function: ast.AST, name: str) -> bool:
    """Whether `name` is assigned, in `function`, a transpose of a name assigned a patch grid
    (`grid = image.reshape(H // P, P, W // P, P, C)`, then `grid = grid.transpose(...)`)."""
    values = [node.value for node in ast.walk(function) if isinstance(node, ast.Assign)
              and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
              and node.targets[0].id == name]
    return any(_patch_grid(v) for v in values) and any(_int_axes(v) for v in values)


def column_major_swapped(context: Context, node: ast.AST) -> Iterator[Change]:
    """The patches listed column by column (a port of MATLAB's im2col 'distinct', blocks walked
    down each column) and put back into raster order by a reshape to the grid's (rows, cols)
    and a transpose, where the column-major list is (cols, rows): the returned
    `grid.reshape(rows * cols, P * P * C)` of a transposed patch grid."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "reshape" and len(node.args) == 2
            and isinstance(node.func.value, ast.Name)
            and isinstance(node.args[0], ast.BinOp) and isinstance(node.args[0].op, ast.Mult)
            and _grid_rows(context.instance.node, node.func.value.id)):
        return
    rows, cols = code(node.args[0].left), code(node.args[0].right)
    bound = f"{PREFIX}column_major_put_back"
    yield Change("column-major-put-back-sizes-swapped",
                 f"In {where(context)}, the patches are listed column by column (as MATLAB's "
                 f"`im2col(I, [P P], 'distinct')` walks down each column of blocks) and put back "
                 f"into raster order by `.reshape({rows}, {cols}, -1).transpose(1, 0, 2)`: a "
                 f"column-major list is ({cols}, {rows}), so it must be reshaped to "
                 f"`({cols}, {rows}, -1)` before the transpose (right only for a square grid). "
                 f"The lecture lists the patches row by row.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), [n.func.value], []),
                 ((bound, column_major_put_back),))


OPERATORS = {"merge_windows": merge_windows, "channels_first": channels_first,
             "channels_read_first": channels_read_first,
             "square_grid": square, "square_rows": square_rows, "loop_bounds": loop_bounds,
             "column_major_swapped": column_major_swapped}
