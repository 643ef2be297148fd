"""Operators on the patch grid taken as square: both its sides the square root of the patch
count, `h = w = int((H * W // (P * P)) ** 0.5)`, as an unpatchify written for square images takes
them (DiT's and Stable Diffusion 3's `h = w = int(x.shape[1] ** 0.5)`; blind round 62's b62_11
ported it into `patchify`). Right when H == W; otherwise the count is no square and the grid's
reshape raises numpy's own ValueError, or (a 4 x 16 image with P = 2: a count of 16) its root
is neither side and the patches come out of order. The same rewrite in a count: `(H // P) * (W
// P)` returned as the square of that root (`n = int(math.sqrt(H * W)) // P; return n * n`).
Operators as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from grader.report.quotes import ROOT_LINE as LINE  # their line, or none (report/steps.py)

from .change import Change, Context, code, returned, where
from .tree import PREFIX

# the root cut to an integer: `int(sqrt(N))` and `math.isqrt(N)` floor it, `round(sqrt(N))`
# rounds it (blind round 7's b7_09); told alike (aliases.py: the calls may not tell)
ROUNDINGS = {"": False, "-rounded": True}


def square_side(H, W, P, rounded: bool = False) -> int:
    """The side of a square grid of the image's patch count, as the student's code takes it."""
    root = (H * W // (P * P)) ** 0.5
    return int(round(root)) if rounded else int(root)


def _sides(node: ast.AST) -> tuple[ast.AST, ast.AST] | None:
    """(H // P, W // P): the two floor divisions of one reshape's arguments by the same name,
    of two different names (the grid's rows and columns), else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "reshape"):
        return None
    divided = [a for a in node.args if isinstance(a, ast.BinOp)
               and isinstance(a.op, ast.FloorDiv) and isinstance(a.left, ast.Name)
               and isinstance(a.right, ast.Name)]
    if len(divided) != 2:
        return None
    rows, columns = divided
    if rows.right.id != columns.right.id or rows.left.id == columns.left.id:
        return None
    return rows, columns


def non_square(rewritten, calls, same) -> bool:
    """Whether one of `calls` cuts an image whose two sides differ: elsewhere the square grid is
    the right one, and the rewrite is the reference."""
    return any(np.ndim(c.args[0]) >= 2 and np.shape(c.args[0])[0] != np.shape(c.args[0])[1]
               for c in calls if c.args)


def grid_square(context: Context, node: ast.AST) -> Iterator[Change]:
    """The patch grid's two sides in a reshape, `x.reshape(H // P, P, W // P, P, C)`, each taken
    as the square root of the patch count (the module's docstring)."""
    sides = _sides(node)
    if sides is None:
        return
    rows, columns = sides
    bound = f"{PREFIX}square_side"
    H, W, P = rows.left.id, columns.left.id, rows.right.id

    def squared(n: ast.Call, rounded: bool) -> ast.Call:
        new = copy.deepcopy(n)
        side = _side(bound, H, W, P, rounded)
        new.args = [copy.deepcopy(side) if ast.dump(a) in (ast.dump(rows), ast.dump(columns))
                    else a for a in new.args]
        return new

    for suffix, rounded in ROUNDINGS.items():
        yield Change(
            f"grid-taken-as-square{suffix}",
            f"In {where(context)}, the patch grid is taken as square{LINE}: both its sides are the "
            f"square root of the patch count, as an unpatchify written for square images takes "
            f"them (DiT's and SD3's `h = w = int(x.shape[1] ** 0.5)`) (right only when H == W). "
            f"On a non-square image the count is no square and the grid's reshape raises, or its "
            f"root is neither side (a 4 x 16 image with P = 2: a 4 x 4 grid for 2 x 8) and the "
            f"patches come out of order. The grid has {H} // {P} rows and {W} // {P} columns: "
            f"`{code(node)}`.",
            lambda n, rounded=rounded: squared(n, rounded), ((bound, square_side),),
            holds=non_square)


def _side(bound: str, H: str, W: str, P: str, rounded: bool) -> ast.Call:
    """`square_side(H, W, P[, True])`, bound to `bound` in the rewritten function."""
    return ast.Call(ast.Name(bound, ast.Load()),
                    [ast.Name(H, ast.Load()), ast.Name(W, ast.Load()), ast.Name(P, ast.Load()),
                     ast.Constant(rounded)], [])


def count_square(context: Context, node: ast.AST) -> Iterator[Change]:
    """A returned `(H // P) * (W // P)` as the square of the square root of the patch count:
    the image's patches counted as if it were square."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)
            and id(node) in returned(context.instance.node)):
        return
    parts = (node.left, node.right)
    if not all(isinstance(p, ast.BinOp) and isinstance(p.op, ast.FloorDiv)
               and isinstance(p.left, ast.Name) and isinstance(p.right, ast.Name)
               for p in parts) or parts[0].right.id != parts[1].right.id \
            or parts[0].left.id == parts[1].left.id:
        return
    H, W, P = parts[0].left.id, parts[1].left.id, parts[0].right.id
    bound = f"{PREFIX}square_side"
    for suffix, rounded in ROUNDINGS.items():
        yield Change(
            f"count-taken-as-square{suffix}",
            f"In {where(context)}, the patches are counted as if the image were square{LINE}: the "
            f"square of the square root of the patch count, a square grid's rows times its "
            f"columns. That is right where the count is a square, as a square image's is; a 4 x 6 "
            f"image with P = 2 has 2 x 3 = 6 patches, not 2 x 2. Count the rows of patches times "
            f"the columns: `{code(node)}`.",
            lambda n, rounded=rounded: ast.BinOp(_side(bound, H, W, P, rounded), ast.Pow(),
                                                 ast.Constant(2)),
            ((bound, square_side),), holds=non_square_count)


def non_square_count(rewritten, calls, same) -> bool:
    """Whether one of `calls` counts an image whose two sides differ (H, W its first two)."""
    return any(len(c.args) >= 2 and c.args[0] != c.args[1] for c in calls)


OPERATORS = {"grid_square": grid_square, "count_square": count_square}
