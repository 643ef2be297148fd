"""The image cut into H // P by W // P equal blocks, not P x P patches (issue 38): code that
splits the image into as many strips as whole patches fit, `np.split(image, H // P, axis=0)`, then
each strip into `W // P` parts (KiLJ4EdeN's img_to_patch `im2patch` with its `nseg`, blind round
82's b82_06), with no tiling test. Where P tiles the image the blocks are its P x P patches; where
it does not but each side divides into that many equal parts (30 x 32 with P = 16: 1 x 2 blocks
of 30 x 16, H / (H // P) by W / (W // P) pixels), the blocks are returned as patches and nothing
raises; elsewhere numpy refuses the unequal split (ValueError: np.split's own, or np.array_split's
unequal blocks refused when stacked). An image with no whole patch (a count of 0) is refused with
ValueError (the code's own test, np.array_split) or by np.split's ZeroDivisionError: each its own
name, told apart by the probe sizes (`checks/kinds/refusals.PROBES`' 8 x 2 with P = 4).

The grid's cut, `grid = image.reshape(H // P, P, W // P, P, C)` in a function that tests the
tiling itself, returns the blocks instead, one row each in raster order, flattened (p1, p2, c):
the statements after it read P x P. Alone it changes nothing (the test refuses first):
`checks/kinds/refusals.py` (`named_refusal`) tries it only as a pair's second part after a tiling
test that lets such a size through, and only where nothing else reproduces the calls; the search
never tries it (`modules.NAMED_ELSEWHERE`), and the pair is told as one slip (slips.FOLLOWS).

An operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
import re
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, code, near_checked, where
from .tiling import article, tested_patch_size
from .tree import PREFIX


def equal_blocks(image, rows, cols, zero_refused: bool = True) -> np.ndarray:
    """[H, W, C] -> [rows * cols, (H / rows) * (W / cols) * C]: the image cut by np.split into
    `rows` strips, each into `cols` blocks, one flattened block a row in raster order; numpy's
    ValueError where a side does not divide into its count; a count of 0: ValueError where
    `zero_refused`, else np.split's own ZeroDivisionError."""
    image = np.asarray(image)
    if zero_refused and (rows <= 0 or cols <= 0):
        raise ValueError("number sections must be larger than 0.")
    return np.stack([block.reshape(-1) for strip in np.split(image, rows, axis=0)
                     for block in np.split(strip, cols, axis=1)])


def split_by_zero(image, rows, cols) -> np.ndarray:
    """`equal_blocks` with no test of a count of 0: np.split raises ZeroDivisionError."""
    return equal_blocks(image, rows, cols, zero_refused=False)


def _counts(node: ast.AST) -> tuple[ast.AST, ast.AST, ast.AST] | None:
    """(array, rows, cols) of `grid = array.reshape(H // P, P, W // P, P, C)`, else None."""
    if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr == "reshape" and len(node.value.args) == 5):
        return None
    rows, P, cols, Q = node.value.args[:4]
    if not all(isinstance(count, ast.BinOp) and isinstance(count.op, ast.FloorDiv)
               and ast.dump(count.right) == ast.dump(size)
               for count, size in ((rows, P), (cols, Q))):
        return None
    return node.value.func.value, rows, cols


# marks where `with_blocks_example` puts a size the student's code returned blocks for
NOTHING_RAISES = "not P x P, and nothing raises"
BLOCKS_EXAMPLE = re.compile(r" \(an? \d+ x \d+ image with P = \d+ gives \d+ x \d+ blocks of \d+ x "
                            r"\d+\)")  # that example, as `with_blocks_example` words it
# detail -> (its cut, what it says beyond the blocks)
CUTS = {"equal-blocks": (equal_blocks, ""),
        "equal-blocks-zero-division": (split_by_zero, " (and an image with no whole patch is "
                                       "split into 0 parts: ZeroDivisionError)")}


def cut_into_equal_blocks(context: Context, node: ast.AST) -> Iterator[Change]:
    """The grid's cut `grid = image.reshape(H // P, P, W // P, P, C)` as `return
    equal_blocks(image, H // P, W // P)`, in a function that tests the tiling itself."""
    found = _counts(node) if near_checked(context) else None
    if found is None or tested_patch_size(context.instance.node) is None:
        return
    array, rows, cols = found
    H, W = code(rows.left), code(cols.left)
    for detail, (cut, zero) in CUTS.items():
        bound = f"{PREFIX}{cut.__name__}"
        yield Change(detail,
                     f"In {where(context)}, the image is cut into `{code(rows)}` by "
                     f"`{code(cols)}` equal blocks (`np.split` into that many parts, the rows "
                     f"then each strip's columns), each returned as a patch{zero}: where P tiles "
                     f"the image these are its P x P patches, but where it does not and each "
                     f"side divides into that many equal parts, the blocks are {H} / "
                     f"({code(rows)}) by {W} / ({code(cols)}) pixels, {NOTHING_RAISES}. Test "
                     f"`{H} % P` and `{W} % P` first: P x P patches tile the image only where "
                     f"both are 0.",
                     lambda n, bound=bound: ast.Return(ast.Call(ast.Name(bound, ast.Load()), [
                         copy.deepcopy(array), copy.deepcopy(rows), copy.deepcopy(cols)], [])),
                     names=((bound, cut),))


def with_blocks_example(hint: str, sizes) -> str:
    """`hint` (the equal blocks') with an example after NOTHING_RAISES: the first of `sizes`
    ((H, W, P) the student's code returned a value for, as the rewrite that names it does)
    that P does not tile and whose sides divide into H // P and W // P parts; as it is where
    none does."""
    for H, W, P in sizes:
        rows, cols = H // P, W // P
        if (NOTHING_RAISES in hint and (H % P or W % P) and rows and cols
                and not H % rows and not W % cols):
            example = (f"{article(H)} {H} x {W} image with P = {P} gives {rows} x {cols} "
                       f"blocks of {H // rows} x {W // cols}")
            return hint.replace(NOTHING_RAISES, f"{NOTHING_RAISES} ({example})", 1)
    return hint


OPERATORS = {"equal_blocks": cut_into_equal_blocks}
