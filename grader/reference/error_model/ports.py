"""Operators on a result shaped as the library code a student ports returns it: a tuple of sizes
returned as the keyword arguments of the layer they configure (timm's and Hugging Face's patch
embedding, `nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)`, ported
as `dict(kernel_size=P, stride=P)`), and a convolution's fast path for windows that tile the
image (cs231n's `max_pool_forward_fast`, which takes `max_pool_forward_reshape` when the pools
tile, and im2col otherwise) whose reshape back to the grid has its first two sizes the other way
round, while the general path is right; and Hugging Face's `interpolate_pos_encoding` (ViT's
and DINOv2's), which keeps the table of positions only when `num_patches == num_positions and
height == width` and otherwise reads its patch rows as a sqrt(N) x sqrt(N) grid resampled to
the image's (H // P, W // P) grid: on a non-square image wrong positions, or numpy's refusal of
the reshape where N is not a square; and a gray (H, W) image's patches returned as P x P tiles,
(N, P, P), by a function that flattens an (H, W, C) image's (a blog's `image_to_patches`, which
keeps patch images to plot them, written apart for gray images).

The keyword names are the reference's own: the return comment of its function names the parts
of the tuple (`def conv_equivalent(P):  # -> (kernel_size, stride)`); a function that does not
name them is left alone. An operator as in operators.py (`f(context, node) -> iterator of
Change`).
"""
from __future__ import annotations

import ast
import contextvars
import copy
import functools
import inspect
import math
import re
from collections.abc import Iterator

import numpy as np

from .change import (
    Change,
    Context,
    callee,
    code,
    is_checked_function,
    is_result,
    key_of,
    prepended,
    where,
)
from .evidence import agree, recorded
from .forward import IMAGE, positions_added
from .inputs import PROMOTES
from .tree import PREFIX
from .window_sites import returned_through, windows_returned

RETURN_NAMES = re.compile(r"#\s*->\s*\(\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)+)\s*\)")


@functools.lru_cache(maxsize=64)
def part_names(function) -> tuple[str, ...]:
    """The names the return comment of `function`'s `def` line gives its tuple's parts,
    `# -> (kernel_size, stride)`; () where it gives none."""
    try:
        first = inspect.getsource(function).splitlines()[0]
    except (OSError, TypeError, IndexError):
        return ()
    found = RETURN_NAMES.search(first)
    return tuple(re.split(r"\s*,\s*", found[1])) if found else ()


def sizes_as_keywords(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's returned tuple `(P, P)` as the keyword arguments its parts are
    called by, `dict(kernel_size=P, stride=P)` (the nn.Conv2d call of a PatchEmbed ported)."""
    if not (isinstance(node, ast.Tuple) and len(node.elts) > 1 and is_result(context, node)):
        return
    names = part_names(context.instance.function)
    if len(names) != len(node.elts):
        return

    def keywords(n: ast.Tuple) -> ast.Call:
        return ast.Call(ast.Name("dict", ast.Load()), [],
                        [ast.keyword(name, e) for name, e in zip(names, n.elts, strict=True)])

    written = code(keywords(node))
    yield Change("as-keyword-arguments",
                 f"In {where(context)}, the result `{code(node)}` is returned as the keyword "
                 f"arguments of the layer it configures, `{written}`, as timm's and Hugging "
                 f"Face's patch embedding write `nn.Conv2d(..., kernel_size=patch_size, "
                 f"stride=patch_size)`: the model solution's answer is the tuple "
                 f"({', '.join(names)}) itself, `{code(node)}`.",
                 lambda n: keywords(n) if isinstance(n, ast.Tuple) and len(n.elts) == len(names)
                 else None)


def fast_path_sides_swapped(value, image, window, stride):
    """`value` [H', W', d] reshaped to [W', H', d] where the windows tile the image (stride ==
    k on both axes, k dividing H and W: the fast path), as it is everywhere else."""
    if not (isinstance(value, np.ndarray) and value.ndim >= 3):
        return value
    (height, width), (kh, kw) = np.shape(image)[:2], tuple(window)[:2]
    if not (stride == kh == kw and height % kh == 0 and width % kw == 0):
        return value
    return value.reshape(value.shape[1], value.shape[0], *value.shape[2:])


def general_path_shown(rewritten, calls, same) -> bool:
    """Whether one of `calls` is right with an output whose two sides differ (H' != W'): only
    there the general path is seen right where a reshape to (W', H') would not be."""
    return any(np.ndim(c.expected) >= 2 and np.shape(c.expected)[0] != np.shape(c.expected)[1]
               and agree(same, c.expected, c.got) for c in calls)


def fast_path_reshape(context: Context, node: ast.AST) -> Iterator[Change]:
    """Where the windows tile the image (stride == k, k dividing H and W), the output computed
    by a fast path that cuts the image into k x k tiles with a reshape and reshapes the product
    back as (W', H', d) for (H', W', d); every other stride by the general path, right."""
    found = windows_returned(context, node)
    if found is None:
        return
    yield Change(f"{found[0]}-fast-path-sides-swapped",
                 f"In {where(context)}, when the windows tile the image (stride == k, k "
                 f"dividing H and W) the output comes from a fast path, the image cut into "
                 f"k x k tiles by a reshape (as cs231n's max_pool_forward_fast does when the "
                 f"pools tile), and that path reshapes its result to (W', H', d) where (H', W', "
                 f"d) belongs: the same on square images, while every other stride goes the "
                 f"general way and is right. Reshape the fast path's result to (H // k, W // k, "
                 f"d).", *returned_through(found, fast_path_sides_swapped),
                 holds=general_path_shown)


# torch's F.interpolate modes a port resamples with: source index of output index i of `new`
INDICES = {"nearest": ("mode='nearest' (the source index floor(i * n / new))",
                       lambda i, side, new: np.floor(i * side / new)),
           "nearest-exact": ("mode='nearest-exact' (the source index floor((i + 0.5) * n / new))",
                             lambda i, side, new: np.floor((i + 0.5) * side / new))}
TOLD = contextvars.ContextVar("ports_told", default=None)  # a list: the modes were told apart


def _source_rows(side: int, new: int, mode: str) -> np.ndarray:
    return np.minimum(INDICES[mode][1](np.arange(new), side, new).astype(int), side - 1)


def square_resampled(table, image, size, mode):
    """`table` [N + 1, d] as it is for a square image; for any other, its patch rows read as a
    sqrt(N) x sqrt(N) grid (numpy's refusal where N is not a square) resampled by `mode` to the
    (H // size, W // size) grid, its first row ([CLS]) kept."""
    table = np.asarray(table)
    height, width = np.shape(image)[:2]
    if height == width or table.ndim != 2 or not size:
        return table
    side, dim = int(math.sqrt(len(table) - 1)), table.shape[1]
    grid = table[1:].reshape(side, side, dim)
    rows, cols = height // size, width // size
    told = TOLD.get()
    if told is not None:  # resampled; the modes told apart where they pick other rows
        told.append(any((_source_rows(side, new, "nearest")
                         != _source_rows(side, new, "nearest-exact")).any()
                        for new in (rows, cols)))
    picked = grid[_source_rows(side, rows, mode)][:, _source_rows(side, cols, mode)]
    return np.concatenate([table[:1], picked.reshape(-1, dim)])


def _resamplings(rewritten, calls) -> list[bool]:
    """For each grid the rewritten function, run on `calls`, resampled: whether the two modes
    pick other rows there (only there do the calls show which one the code uses)."""
    return recorded(TOLD, rewritten, calls)  # a refused reshape resamples nothing


def _modes_told_apart(rewritten, calls, same) -> bool:
    return any(_resamplings(rewritten, calls))


def _resampled_alike(rewritten, calls, same) -> bool:
    """Whether a call resampled a grid (a raise alone does not show that the table is
    resampled) and no call tells the modes apart."""
    told = _resamplings(rewritten, calls)
    return bool(told) and not any(told)


def positions_unless_square(context: Context, node: ast.AST) -> Iterator[Change]:
    """Hugging Face's `interpolate_pos_encoding` ported: `x + params['pos']` as `x +
    square_resampled(params['pos'], image, params['P'], mode)`, the table kept for square
    images only; named only where a call resampled a grid. Each mode said only where the calls
    tell them apart; else one says neither."""
    size = positions_added(context, node)
    if size is None:
        return
    bound, table = f"{PREFIX}square_resampled", code(node.right)
    readings = {"": ("resampled", "nearest", _resampled_alike)}
    for mode, (words, _) in INDICES.items():
        readings[f"-{mode}"] = (f"resampled with F.interpolate's {words}", mode,
                                _modes_told_apart)
    for suffix, (how, mode, holds) in readings.items():
        yield Change(
            f"{key_of(node.right)}-resampled-unless-square{suffix}",
            f"In {where(context)}, `{table}` is added as it is only when the image is square "
            f"(Hugging Face's `interpolate_pos_encoding` keeps it when `num_patches == "
            f"num_positions and height == width`); for any other image its patch rows are read "
            f"as a sqrt(N) x sqrt(N) grid and {how} to the (H // P, W // P) grid of patches: "
            f"wrong positions, or numpy's refusal of that reshape where N is not a square. "
            f"The table already has one row per token of this image, [CLS] first: add "
            f"`{table}` as it is whatever the image's shape.",
            lambda n, mode=mode: ast.BinOp(n.left, ast.Add(), ast.Call(
                ast.Name(bound, ast.Load()), [n.right, ast.Name(IMAGE, ast.Load()),
                                              copy.deepcopy(size), ast.Constant(mode)], [])),
            ((bound, square_resampled),), holds=holds)


def _returns_rows(function: ast.FunctionDef) -> bool:
    """Whether every value `function` returns is a reshape to two sizes (`x.reshape(N, D)`)."""
    values = [n.value for n in ast.walk(function) if isinstance(n, ast.Return) and n.value]
    return bool(values) and all(
        isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute)
        and v.func.attr == "reshape" and len(v.args) == 2 for v in values)


def is_gray(image) -> bool:
    return np.ndim(image) == 2


def gray_tiles(value, was_gray):
    """`value` [N, P * P] as [N, P, P] where the image was 2-D (gray): its patches left as
    tiles; any other value as it is."""
    if not (was_gray and isinstance(value, np.ndarray) and value.ndim == 2):
        return value
    side = math.isqrt(value.shape[1])
    return value.reshape(len(value), side, side) if side * side == value.shape[1] else value


class _ReturnsWrapped(ast.NodeTransformer):
    """Each `return x` of one function (not of a function inside it) as `return f(x, flag)`."""

    def __init__(self, bound: str, flag: str):
        self.bound, self.flag = bound, flag

    def visit_FunctionDef(self, node):  # a nested function keeps its own returns
        return node

    visit_Lambda = visit_FunctionDef

    def visit_Return(self, node):
        if node.value is None:
            return node
        return ast.Return(ast.Call(ast.Name(self.bound, ast.Load()),
                                   [node.value, ast.Name(self.flag, ast.Load())], []))


def _gray_kept_as_tiles(function: ast.FunctionDef) -> ast.FunctionDef:
    flag = f"{PREFIX}was_gray"
    new = prepended(function, ast.parse(f"{flag} = {PREFIX}is_gray({IMAGE})").body[0])
    wrapper = _ReturnsWrapped(f"{PREFIX}gray_tiles", flag)
    new.body = [wrapper.visit(copy.deepcopy(s)) if i else s for i, s in enumerate(new.body)]
    return new


def gray_patches_as_tiles(context: Context, node: ast.AST) -> Iterator[Change]:
    """A gray (H, W) image's patches returned as P x P tiles, (N, P, P), where the function
    flattens an (H, W, C) image's patches, (N, P * P * C): a gray branch written apart that
    keeps its tiles. Only in a checked function that takes the image first, gives it its
    channel axis with the reference's helper and returns a reshape to rows (patchify)."""
    function = context.instance.node
    if not (is_checked_function(context, node) and function.args.args
            and function.args.args[0].arg == IMAGE and _returns_rows(function)
            and any(isinstance(n, ast.Call) and callee(n) == PROMOTES
                    for n in ast.walk(function))):
        return
    yield Change("gray-patches-as-tiles",
                 f"In {where(context)}, a 2-D (gray) image's patches come back as P x P tiles, "
                 f"shape (N, P, P), not flattened, while an (H, W, C) image's are flattened to "
                 f"(N, P * P * C): a gray branch written apart keeps its tiles (as a blog's "
                 f"`image_to_patches` keeps patch images to plot them). A gray image is one "
                 f"channel: flatten its patches too, (N, P * P).",
                 _gray_kept_as_tiles,
                 ((f"{PREFIX}is_gray", is_gray), (f"{PREFIX}gray_tiles", gray_tiles)))


OPERATORS = {"sizes_as_keywords": sizes_as_keywords, "fast_path_reshape": fast_path_reshape,
             "positions_unless_square": positions_unless_square,
             "gray_tiles": gray_patches_as_tiles}
