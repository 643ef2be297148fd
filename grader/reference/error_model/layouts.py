"""Operators on the layout a port assumes its arrays have, where the lecture's function takes
any: code written for one (T, d) sequence, for a batch, or for a flat list.

- The input's shape unpacked into two sizes first, `T, d = x.shape` (a function written for one
  (T, d) matrix, as most numpy tutorials' layer norms are): right on two axes, a ValueError for
  any other number of axes.
- The result reshaped by the input's first axis, `Y.reshape(len(x), -1)` (d2l's layer norm on a
  (tokens, d) matrix, flattened to rows and reshaped back): right on two axes, leading axes
  merged with the features otherwise.
- The result returned with a batch axis of 1 in front, `out[None]` (Hugging Face's and timm's
  batch-first code, `unsqueeze(0)`, ported to one image).
- A row put in front with `np.insert(x, 0, row)` and no axis (the Keras PatchEncoder tutorial's
  port): numpy flattens the array first, so one long row of numbers comes back.
- The last of three sizes read from the array as given, before a step reshaped it
  (`C = image.shape[-1]` where `image = as_hwc(image)` gives a gray (H, W) image its channel axis:
  chaiNNer-org/chaiNNer#2206, opencv_transforms#6): for a 2-D image that is its width.
- A table added to a sequence cut to its rows counted on axis 1, `pos[:x.shape[1]]` (timm's
  batch-first `pos_embed[:, :x.shape[1]]` ported to one sequence): axis 1 is then the width.

Each applies only where the reference has the pattern it rewrites (a reduction over the last
axis of the first argument; a returned array; a two-part vertical stack), so the sites stay few.
An operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, code, is_checked_function, is_result, prepended, where
from .tree import PREFIX


def _last_axis_input(function: ast.FunctionDef) -> str | None:
    """The name of `function`'s first parameter when the function reduces it over its last
    axis (`np.mean(x, axis=-1, ...)`): an input [..., d], any leading axes; else None."""
    if not function.args.args:
        return None
    given = function.args.args[0].arg
    for node in ast.walk(function):
        if (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name)
                and node.args[0].id == given
                and any(k.arg == "axis" and isinstance(k.value, ast.UnaryOp)
                        and isinstance(k.value.op, ast.USub)
                        and isinstance(k.value.operand, ast.Constant)
                        and k.value.operand.value == 1 for k in node.keywords)):
            return given
    return None


def two_axes_unpacked(context: Context, node: ast.AST) -> Iterator[Change]:
    """`T, d = x.shape` run first, in a function that takes x [..., d]: written for one (T, d)
    sequence, it raises numpy's unpacking ValueError for any other number of axes."""
    if not is_checked_function(context, node):
        return
    given = _last_axis_input(node)
    if given is None:
        return
    statement = ast.parse(f"{PREFIX}T, {PREFIX}d = np.shape({given})").body[0]
    yield Change(f"{given}-shape-as-T-d",
                 f"In {where(context)}, the shape of `{given}` is read as two sizes, `T, d = "
                 f"{given}.shape`: code written for one (T, d) sequence, so an input with "
                 f"another number of axes (a batch (B, T, d), or a single token (d,)) raises "
                 "\"too many (or not enough) values to unpack\". The model solution's function "
                 f"works on the last axis of `{given}` and keeps any leading axes: take `d = "
                 f"{given}.shape[-1]` and reduce with `axis=-1`.",
                 lambda n: prepended(n, statement))


def by_first_axis(value, given):
    """`value` reshaped to (len(given), -1): a result computed on rows and reshaped back by the
    input's first axis only; `value` itself when it is no float array."""
    if not (isinstance(value, np.ndarray) and np.issubdtype(value.dtype, np.floating)):
        return value
    return value.reshape(len(given), -1)


def reshaped_by_first_axis(context: Context, node: ast.AST) -> Iterator[Change]:
    """The result of a function that takes x [..., d] reshaped back to `(len(x), -1)` (d2l's
    `Y.reshape(len(X), -1)`): right on (T, d), leading axes merged with the features otherwise."""
    if not is_result(context, node):
        return
    given = _last_axis_input(context.instance.node)
    if given is None:
        return
    bound = f"{PREFIX}by_first_axis"
    yield Change(f"result-reshaped-len-{given}",
                 f"In {where(context)}, the result `{code(node)}` is reshaped to "
                 f"`(len({given}), -1)`, a shape written for a (T, d) matrix: right for an input "
                 f"of two axes, but a batch (B, T, d) comes back as (B, T * d) and a single token "
                 "(d,) as a column (d, 1). The model solution's result has the shape of "
                 f"`{given}`: reshape back to `{given}.shape`.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()),
                                    [n, ast.Name(given, ast.Load())], []),
                 ((bound, by_first_axis),))


def batch_axis(value):
    """`value` with an axis of length 1 in front, `value[None]`; itself when it is no array."""
    return value[None] if isinstance(value, np.ndarray) and value.ndim >= 1 else value


def batch_axis_kept(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's array result returned with a batch axis of 1 in front
    (`embeddings[None]`, `x.unsqueeze(0)` in a batch-first port)."""
    if not is_result(context, node):
        return
    bound = f"{PREFIX}batch_axis"
    yield Change("result-batch-axis-kept",
                 f"In {where(context)}, the result `{code(node)}` comes back with an extra axis "
                 "of length 1 in front (a batch of one, as batch-first code such as Hugging "
                 "Face's or timm's keeps with `[None]` or `unsqueeze(0)`): the values are right, "
                 "but the model solution's function works on one input and returns no batch axis.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), [n], []),
                 ((bound, batch_axis),))


def insert_flattened(context: Context, node: ast.AST) -> Iterator[Change]:
    """`np.vstack([row, x])` written `np.insert(x, 0, row)` with no axis: numpy flattens `x`
    first and returns one 1-D array, the row's numbers in front."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "vstack" and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "np" and len(node.args) == 1 and not node.keywords
            and isinstance(node.args[0], (ast.List, ast.Tuple))
            and len(node.args[0].elts) == 2):
        return
    first, rest = node.args[0].elts
    written = f"np.insert({code(rest)}, 0, {code(first)})"
    yield Change("insert-without-axis",
                 f"In {where(context)}, `{code(node)}` is written with no `axis`, as "
                 f"`{written}` (or `np.append` with no axis): numpy then flattens "
                 f"`{code(rest)}` first and returns one long 1-D array, `{code(first)}`'s "
                 f"numbers in front of all the others, instead of a new first row. Give "
                 f"`axis=0` (or use `np.vstack`).",
                 lambda n: ast.Call(ast.Attribute(ast.Name("np", ast.Load()), "insert",
                                                  ast.Load()),
                                    [rest, ast.Constant(0), first], []))


def table_cut_by_axis_1(context: Context, node: ast.AST) -> Iterator[Change]:
    """`x + p['pos']` with the table cut to `p['pos'][:x.shape[1]]`: its rows counted on axis 1,
    as batch-first code counts its tokens (x (B, T, d)); for one (T, d) sequence that is d."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
            and isinstance(node.left, ast.Name) and isinstance(node.right, ast.Subscript)
            and isinstance(node.right.slice, ast.Constant)
            and isinstance(node.right.slice.value, str)):
        return
    stream, table = node.left.id, code(node.right)
    cut = ast.parse(f"{stream}.shape[1]", mode="eval").body
    yield Change(f"{node.right.slice.value}-cut-to-{stream}.shape[1]",
                 f"In {where(context)}, `{table}` is cut to `{table}[:{stream}.shape[1]]` before "
                 f"it is added: its rows counted on axis 1 of `{stream}`, as batch-first code "
                 f"(timm's `pos_embed[:, :x.shape[1]]`, x (B, T, d)) counts the tokens; for one "
                 f"(T, d) sequence axis 1 is the width d, so the table keeps only d rows and "
                 f"does not fit the T tokens when d < T. Count the tokens as `len({stream})` "
                 f"(axis 0), or add the whole table.",
                 lambda n: ast.BinOp(n.left, ast.Add(), ast.Subscript(
                     n.right, ast.Slice(None, cut), ast.Load())))



def _unpacked_shape(statement: ast.stmt, given: str) -> list[str] | None:
    """The names of `H, W, C = given.shape`, else None."""
    if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Tuple)
            and all(isinstance(e, ast.Name) for e in statement.targets[0].elts)
            and isinstance(statement.value, ast.Attribute) and statement.value.attr == "shape"
            and isinstance(statement.value.value, ast.Name) and statement.value.value.id == given):
        return [e.id for e in statement.targets[0].elts]
    return None


def last_size_as_given(context: Context, node: ast.AST) -> Iterator[Change]:
    """`x = f(x)` (a 2-D image given its channel axis) then `H, W, C = x.shape`, with C read
    from `x` as it was given: a port that takes `C = image.shape[-1]` and never adds the axis."""
    if not (isinstance(node, ast.FunctionDef) and node is context.instance.node):
        return
    for i, first in enumerate(node.body):
        if not (isinstance(first, ast.Assign) and len(first.targets) == 1
                and isinstance(first.targets[0], ast.Name) and isinstance(first.value, ast.Call)
                and any(isinstance(a, ast.Name) and a.id == first.targets[0].id
                        for a in first.value.args)):
            continue
        given = first.targets[0].id
        for j, later in enumerate(node.body[i + 1:], i + 1):
            sizes = _unpacked_shape(later, given)
            if sizes is None or len(sizes) != 3:
                continue
            raw, last = f"{PREFIX}as_given", sizes[-1]
            keep = ast.parse(f"{raw} = {given}").body[0]
            read = ast.parse(f"{last} = np.shape({raw})[-1]").body[0]

            def edited(n: ast.FunctionDef, i=i, j=j, keep=keep, read=read) -> ast.FunctionDef:
                new = copy.copy(n)
                new.body = [*n.body[:i], keep, *n.body[i:j + 1], read, *n.body[j + 1:]]
                return new
            yield Change(f"{last}-from-{given}-as-given",
                         f"In {where(context)}, `{last}` is read from the last axis of `{given}` "
                         f"as it is given, `{last} = {given}.shape[-1]`, where the model "
                         f"solution's code reads it after `{code(first)}`: for a 2-D (gray) image, "
                         f"which that step gives one channel, the last axis is the width, so "
                         f"`{last}` is wrong and the reshape that uses it fails.", edited)
            return


OPERATORS = {"two_axes_unpacked": two_axes_unpacked,
             "reshaped_by_first_axis": reshaped_by_first_axis,
             "batch_axis_kept": batch_axis_kept, "insert_flattened": insert_flattened,
             "table_cut_by_axis_1": table_cut_by_axis_1, "last_size_as_given": last_size_as_given}
