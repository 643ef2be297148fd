"""A row read as a column: `x[:, i]` where `x[i]` belongs. torch code works on a batch (B, T, d),
where `x[:, 0]` is the [CLS] token of every sequence (`self.mlp_head(x[:, 0])`, with mlp_head a
LayerNorm then a Linear); ported to one sequence (T, d) unchanged, it takes entry 0 of every
token, a (T,) column, where the row (d,) belongs.

The column read where the reference reads the row is operators.py's `index` (`x[:,0]`); this
module reads it before the step that computes the row's array, where that step works on each row
alone (the final LayerNorm: torch's head normalises
the [CLS] row after taking it, the lecture takes it after normalising): for a row the two orders
are the same, for a column they are not, and the step is what refuses a (T,) vector of the wrong
length. Whether the step works row by row is tried on each call (`column_through`), so a step
that mixes rows (an encoder block) keeps the reference there and names nothing. Only the checked
function's own reads of an array's name by an integer, in its top-level statements.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, callee, code, is_checked_function, where
from .tree import PREFIX

THROUGH = f"{PREFIX}column_through"


def column_through(step, x, i):
    """`step(x[:, i])` where `step` works on each row of the 2-D `x` alone (`step(x)[i]` is
    `step(x[i:i + 1])[0]`: a row read before or after it is the same), else `step(x)[i]`, the
    reference's row: a rewrite that cannot be this mistake there is the reference there."""
    full = step(x)
    array = np.asarray(x)
    try:
        alone = np.asarray(step(array[i:i + 1]))[0]
        row_wise = array.ndim == 2 and np.allclose(alone, np.asarray(full)[i], equal_nan=True)
    except (ValueError, TypeError, IndexError):
        row_wise = False
    return step(array[:, i]) if row_wise else np.asarray(full)[i]


def _row_reads(statement: ast.stmt) -> list[ast.Subscript]:
    """The reads `x[i]` of an array's name by a non-negative integer in `statement`, in walk
    order."""
    return [n for n in ast.walk(statement)
            if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load)
            and isinstance(n.value, ast.Name) and isinstance(n.slice, ast.Constant)
            and isinstance(n.slice.value, int) and not isinstance(n.slice.value, bool)
            and n.slice.value >= 0]


def _step_on(statement: ast.stmt, name: str) -> ast.Call | None:
    """The call of `name = step(name, ...)`, else None."""
    if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name) and statement.targets[0].id == name
            and isinstance(statement.value, ast.Call) and statement.value.args
            and isinstance(statement.value.args[0], ast.Name)
            and statement.value.args[0].id == name):
        return statement.value
    return None


def _before_step(k: int, j: int):
    """The function with the j-th row read of statement k read as the whole name, and the column
    taken through the statement before it, `x = step(x, ...)`: `x = column_through(lambda v:
    step(v, ...), x, i)`."""
    def replace(function: ast.FunctionDef) -> ast.FunctionDef:
        new = copy.deepcopy(function)
        read = _row_reads(new.body[k])[j]
        name, index = read.value.id, read.slice.value

        class Whole(ast.NodeTransformer):
            def visit_Subscript(self, node):
                if node is read:
                    return ast.Name(name, ast.Load())
                return self.generic_visit(node)

        new.body[k] = Whole().visit(new.body[k])
        step = _step_on(new.body[k - 1], name)
        v = f"{PREFIX}v"
        through = copy.copy(step)
        through.args = [ast.Name(v, ast.Load()), *step.args[1:]]
        lam = ast.Lambda(ast.arguments([], [ast.arg(v)], None, [], [], None, []), through)
        new.body[k - 1] = ast.Assign(
            [ast.Name(name, ast.Store())],
            ast.Call(ast.Name(THROUGH, ast.Load()),
                     [lam, ast.Name(name, ast.Load()), ast.Constant(index)], []))
        return ast.fix_missing_locations(new)
    return replace


def row_as_column(context: Context, node: ast.AST) -> Iterator[Change]:
    """`x[i]` read as `x[:, i]` (torch's batched [CLS] index on one sequence) before the
    row-by-row step that made `x` (`x = layer_norm(x, ...)`)."""
    if not is_checked_function(context, node):
        return
    for k, statement in enumerate(node.body[1:], start=1):
        for j, read in enumerate(_row_reads(statement)):
            name, index = read.value.id, read.slice.value
            step = _step_on(node.body[k - 1], name)
            if step is None:
                continue
            yield Change(f"{name}[{index}]-as-column-before-{callee(step)}",
                         f"In {where(context)}, the row `{code(read)}` is read as the column "
                         f"`{name}[:, {index}]`, taken before `{callee(step)}` (which works on "
                         f"each row alone: for the row either order is the same), as torch code "
                         f"on a batch (B, T, d) takes token {index} of every sequence; on one "
                         f"(T, d) array it takes entry {index} of every row, shape (T,), where "
                         f"the row, shape (d,), belongs. Index the row itself, `{name}[{index}]`.",
                         _before_step(k, j), ((THROUGH, column_through),))


OPERATORS = {"row_as_column": row_as_column}
