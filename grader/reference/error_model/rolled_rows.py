"""An operator on a table of rows added to a sequence: its rows taken rolled by one row.

- `rows_rolled`: `x + params['pos']` as `x + np.roll(params['pos'], 1, axis=0)`: row 0 gets the
  table's last row and row i its row i - 1; as when the rows after the first get the table's
  rows 0..N-1 and the first row, [CLS] in a ViT, its row N (danbev/learning-ai's notes,
  `C = E + pos[:n]`, then `cls + pos[n]` put first: blind round 66's b66_09). Also the reverse
  roll, `np.roll(..., -1, axis=0)`: row i gets row i + 1, the last row gets row 0.

Applied where a table read from a parameter (`params['pos']`) is added whole, as
choices.first_row_only is. An operator as in operators.py (`f(context, node) -> iterator of
Change`); a rewrite is named only where it reproduces every case the check ran.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

from .change import Change, Context, code, slug, where

ROLLS = {  # detail: (shift, what each row gets)
    "down": (1, "row 0 gets its last row, `{t}[-1]`, and row i its row i - 1 "
                "(`np.roll({t}, 1, axis=0)`: as when the patches get rows 0..N-1 and [CLS] "
                "row N, [CLS] put first)"),
    "up": (-1, "row i gets its row i + 1 and the last row its row 0 "
               "(`np.roll({t}, -1, axis=0)`: as when [CLS] gets row 1, the patches rows 2..N "
               "and the last patch row 0)"),
}


def _rolled(node: ast.BinOp, shift: int) -> ast.BinOp:
    roll = ast.Attribute(ast.Name("np", ast.Load()), "roll", ast.Load())
    return ast.BinOp(node.left, ast.Add(), ast.Call(
        roll, [node.right, ast.Constant(shift)], [ast.keyword("axis", ast.Constant(0))]))


def rows_rolled(context: Context, node: ast.AST) -> Iterator[Change]:
    """A table of rows added rolled by one row, down (its last row first) or up."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
            and isinstance(node.right, ast.Subscript) and isinstance(node.right.slice, ast.Constant)
            and isinstance(node.right.slice.value, str)):
        return
    table = code(node.right)
    for detail, (shift, gets) in ROLLS.items():
        yield Change(f"{slug(table)}-rolled-{detail}",
                     f"In {where(context)}, the rows of `{table}` are taken in another order, "
                     f"rolled by one row: {gets.format(t=table)}. Each row i gets row i of "
                     f"`{table}`, as the model solution's `{code(node)}` adds it.",
                     lambda n, shift=shift: _rolled(n, shift))


OPERATORS = {"rows_rolled": rows_rolled}
