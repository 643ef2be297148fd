"""A LayerNorm ported from column-major code, as an operator in operators.py (`f(context,
node) -> iterator of Change`): mlpack's and Armadillo's layers keep one sample per column, a
(size, batch) matrix, and Eigen's `colwise()` reduces down the columns; ported to numpy as
`x.T`, statistics over axis 0, `gamma[:, None]` and `beta[:, None]`, the result transposed
back, it is right for a (T, d) input only (blind round 61's b61_04). norms.py's `by_transpose`
transposes the statistics alone and `as_columns` takes the parameters as columns alone; this
is the whole normalisation in that layout.

Its own module, tried after every other operator, and left out of the silent partners the
search pairs (UNPAIRED): it takes no other single's place among them.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, is_checked_function, where
from .norms import Columns, affine_parameters, last_axis


class _TokensAsColumns(ast.NodeTransformer):
    """A reduction over the last axis taken over the first; each returned value transposed."""

    def visit_Call(self, call: ast.Call) -> ast.AST:
        self.generic_visit(call)
        if last_axis(call):
            call.keywords = [ast.keyword("axis", ast.Constant(0)) if k.arg == "axis" else k
                             for k in call.keywords]
        return call

    def visit_Return(self, statement: ast.Return) -> ast.AST:
        self.generic_visit(statement)
        if statement.value is not None:
            statement.value = ast.Attribute(statement.value, "T", ast.Load())
        return statement


def samples_as_columns(context: Context, node: ast.AST) -> Iterator[Change]:
    """The whole normalisation done on the transposed input, one token per column, as
    column-major code lays a batch out (mlpack's and Armadillo's (size, batch), Eigen's
    colwise): `x.T`, its statistics over axis 0, gamma and beta broadcast as columns
    (`gamma[:, None]`), the result transposed back. Right for a (T, d) input only: with leading
    axes `.T` reverses them all and a column no longer fits them (numpy's broadcast error, or
    other values where the sizes happen to fit), and one token comes back (d, d). The checked
    function's own definition, where it has a scale and a shift and reduces over the last
    axis."""
    if not (is_checked_function(context, node) and node.args.args
            and any(isinstance(c, ast.Call) and last_axis(c) for c in ast.walk(node))):
        return
    found = affine_parameters(node)
    if not found:
        return
    data = node.args.args[0].arg
    said = " and ".join(f"`{name}[:, None]`" for name in found)

    def by_columns(n: ast.FunctionDef) -> ast.FunctionDef:
        new = _TokensAsColumns().visit(Columns(found).visit(copy.deepcopy(n)))
        new.body = [ast.parse(f"{data} = np.asarray({data}).T").body[0], *new.body]
        return new

    yield Change(f"{'-'.join(found)}-samples-as-columns",
                 f"In {where(context)}, the normalisation is done on the transposed input, "
                 f"`{data}.T`, one token per column (mlpack's and Armadillo's column-major "
                 f"layout): its statistics over axis 0, the parameters broadcast as columns, "
                 f"{said}, and the result transposed back. That is right only for a 2-D (T, d) "
                 f"input: with leading axes `.T` reverses all of them and the columns no longer "
                 f"fit (a ValueError, or other values where the sizes happen to fit). Normalise "
                 f"over the last axis (`axis=-1, "
                 f"keepdims=True`) and use {' and '.join(found)} as they are.", by_columns)


OPERATORS = {"samples_as_columns": samples_as_columns}
UNPAIRED = frozenset(OPERATORS)  # the reference's very values on every (T, d) call: silent on
# most failing calls, it would be every other single's silent partner and take the place of one
# the search's groups try (slips.with_twins' ANCHORED): the search leaves it out of them
