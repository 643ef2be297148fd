"""An operator on projections computed together: q, k and v from one fused product
`x @ [Wq | Wk | Wv]` (timm's and Megatron's `qkv` layer), split per head in the other order.
The columns of the concatenation are [q | k | v], each split into heads: (3, heads, d_h). Read
as (heads, 3, d_h), Megatron's own layout, head h's q, k and v take columns of the wrong
projections (right with one head only). And a reduction over its axis and every later one, as a
kernel that views the array as 2-D at `axis` computes it (ONNX's Softmax before opset 13,
"coerced to 2-D"), or over every axis but the first whatever the axis (a loop over the rows; or
over the rows of the array with the axis moved last), or over a 2-D input's rows and any other
input whole (Saito's softmax).
Operators as in operators.py.
"""
from __future__ import annotations

import ast
import copy
import functools
from collections.abc import Iterator

import numpy as np

from .change import (
    Change,
    Context,
    callee,
    code,
    is_checked_function,
    prepended,
    where,
    with_keyword,
)
from .evidence import named_right
from .tree import PREFIX


def heads_major(x, weights, biases, heads):
    """(q, k, v) [..., heads, T, d_h] from `x @ [W1 | W2 | W3] + [b1 | b2 | b3]` [..., T, 3d]
    read as (heads, 3, d_h) per token."""
    fused = x @ np.concatenate(weights, axis=1) + np.concatenate(biases)  # [..., T, 3d]
    *lead, T, width = fused.shape
    fused = fused.reshape(*lead, T, heads, 3, width // 3 // heads)  # [..., T, heads, 3, d_h]
    return tuple(np.swapaxes(fused[..., i, :], -2, -3) for i in range(3))


def _projection(statement: ast.stmt):
    """(target, x, W, b) of `q = split_heads(linear(x, W, b), heads)`, else None."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(statement.value, ast.Call) and callee(statement.value) == "split_heads"
            and len(statement.value.args) == 2 and isinstance(statement.value.args[0], ast.Call)
            and callee(statement.value.args[0]) == "linear"
            and len(statement.value.args[0].args) == 3):
        return None
    x, W, b = statement.value.args[0].args
    return statement.targets[0].id, x, W, b, statement.value.args[1]


def _three_projections(function: ast.FunctionDef) -> tuple[int, list | None]:
    """(index, the three `_projection`s) of the first three statements in a row of `function`'s
    body that each project and split into heads (q, k, v), else (0, None)."""
    found = [_projection(s) for s in function.body]
    start = next((i for i in range(len(found) - 2) if all(found[i:i + 3])), None)
    return (0, None) if start is None else (start, found[start:start + 3])


def fused_split(context: Context, node: ast.AST) -> Iterator[Change]:
    """Three projections split into heads, computed as one fused product split as (heads, 3,
    d_h) instead of (3, heads, d_h)."""
    if not isinstance(node, ast.FunctionDef):
        return
    start, parts = _three_projections(node)
    if parts is None:
        return
    bound = f"{PREFIX}heads_major"
    if len({code(p[1]) for p in parts}) != 1:
        return  # one input for all three: they can be fused

    def fused(n: ast.FunctionDef) -> ast.FunctionDef:
        new, body = copy.copy(n), list(n.body)
        targets = ast.Tuple([ast.Name(p[0], ast.Store()) for p in parts], ast.Store())
        call = ast.Call(ast.Name(bound, ast.Load()), [
            copy.deepcopy(parts[0][1]), ast.Tuple([copy.deepcopy(p[2]) for p in parts],
                                                  ast.Load()),
            ast.Tuple([copy.deepcopy(p[3]) for p in parts], ast.Load()),
            copy.deepcopy(parts[0][4])], [])
        body[start:start + 3] = [ast.Assign([targets], call)]
        new.body = body
        return new

    names = ", ".join(p[0] for p in parts)
    weights = " | ".join(code(p[2]) for p in parts)
    yield Change("qkv-fused-heads-major",
                 f"In {where(context)}, {names} come from one fused product, `x @ [{weights}]`, "
                 f"split per token as (heads, 3, d_h) where its columns are (3, heads, d_h), "
                 f"[{names}] side by side: head h takes columns of the wrong projections "
                 f"(right with one head only). Reshape to (T, 3, heads, d_h) first.",
                 fused, ((bound, heads_major),))


def block_diagonal(W, heads):
    """`W` [d, d] with every entry outside its `heads` diagonal d_h x d_h blocks zero: `x @`
    it is each head's slice of `x` times that head's block, `x[:, s] @ W[s, s]`."""
    W = np.asarray(W)
    d_h = W.shape[-1] // heads
    return W * np.kron(np.eye(heads), np.ones((d_h, d_h)))


def own_slices(context: Context, node: ast.AST) -> Iterator[Change]:
    """Three projections split into heads, each head's computed from its own d_h-wide slice of
    the input with the diagonal block of the weights (`x[:, s] @ Wq[s, s]`, a small mapping
    per head: Pulfer's MyMSA) instead of the columns s of the whole projection: right with one
    head only. The checked function's own projections."""
    if not isinstance(node, ast.FunctionDef) or "/" in context.instance.path:
        return
    start, parts = _three_projections(node)
    if parts is None:
        return
    bound = f"{PREFIX}block_diagonal"

    def sliced(n: ast.FunctionDef) -> ast.FunctionDef:
        new, body = copy.copy(n), list(n.body)
        for j in range(3):
            statement = copy.deepcopy(body[start + j])
            projection = statement.value.args[0]
            projection.args[1] = ast.Call(ast.Name(bound, ast.Load()), [
                projection.args[1], copy.deepcopy(statement.value.args[1])], [])
            body[start + j] = statement
        new.body = body
        return new

    names = ", ".join(p[0] for p in parts)
    x, W = code(parts[0][1]), code(parts[0][2])
    yield Change("heads-own-slices",
                 f"In {where(context)}, each head's {names} are computed from its own d_h-wide "
                 f"slice `s` of `{x}` with the diagonal block of the weights, `{x}[..., s] @ "
                 f"{W}[s, s]` (a small mapping per head), where the lecture projects the whole "
                 f"token and splits the result, `({x} @ {W})[..., s]`: every input feature "
                 f"feeds every head (right with one head only).",
                 sliced, ((bound, block_diagonal),))


def later_axes(x, axis):
    """`axis` and every axis after it, of `x` (the axes a kernel that views `x` as 2-D at
    `axis` reduces over)."""
    ndim = np.ndim(x)
    return tuple(range(axis % ndim, ndim)) if ndim else axis


def over_later_axes(context: Context, node: ast.AST) -> Iterator[Change]:
    """A reduction given the function's `axis` by name (`np.sum(e, axis=axis)`) over that axis
    and every later one: the same when it is the last axis, not for an earlier one."""
    given = next((k.value for k in getattr(node, "keywords", ()) if k.arg == "axis"), None)
    if not (isinstance(node, ast.Call) and node.args and isinstance(given, ast.Name)):
        return
    bound, name = f"{PREFIX}later_axes", given.id

    def later(n: ast.Call) -> ast.Call:
        axes = ast.Call(ast.Name(bound, ast.Load()), [copy.deepcopy(n.args[0]),
                                                      ast.Name(name, ast.Load())], [])
        return with_keyword(n, "axis", axes)

    yield Change(f"{callee(node)}.axis-and-later",
                 f"In {where(context)}, `{code(node)}` runs over `{name}` and every axis after "
                 f"it, as a kernel that views the array as 2-D at `{name}` does (ONNX's Softmax "
                 f"before opset 13): the model solution's runs over `{name}` alone, the same only "
                 "when it is the last axis.", later, ((bound, later_axes),))


def all_but_first(x):
    """Every axis of `x` but the first: each `x[i]` reduced as a whole (none for a 1-D `x`)."""
    return tuple(range(1, np.ndim(x)))


def over_all_but_first(context: Context, node: ast.AST) -> Iterator[Change]:
    """A reduction given the function's `axis` by name over every axis but the first instead,
    whatever `axis` is: a loop over the rows that reduces each `x[i]` as a whole (a Numba-style
    `for i in range(x.shape[0]): m = x[i].max()`): right for a 2-D array and the last axis. In
    the checked function also over each row of the array with `axis` moved last (`x =
    np.moveaxis(x, axis, -1)`, then `for i, row in enumerate(x): out[i] = ...`, a loop written
    for 2-D score matrices): right for any axis of a 1-D or 2-D array; and, there too, over every
    value of each first-axis entry with a 1-D array one entry (darknet's groups softmax, blind
    round 65's b65_03): right for a 1-D array and a 2-D array's last axis."""
    given = next((k.value for k in getattr(node, "keywords", ()) if k.arg == "axis"), None)
    if not (isinstance(node, ast.Call) and node.args and isinstance(given, ast.Name)):
        return
    bound, name = f"{PREFIX}all_but_first", given.id
    yield Change(f"{callee(node)}.axis-all-but-first",
                 f"In {where(context)}, `{code(node)}` runs over every axis but the first, "
                 f"whatever `{name}` is: each `x[i]` reduced as a whole (a loop over the rows, "
                 f"`for i in range(len(x))`), the same as over `{name}` only for a 2-D array and "
                 "its last axis.",
                 lambda n: with_keyword(n, "axis", ast.Call(ast.Name(bound, ast.Load()), [
                     copy.deepcopy(n.args[0])], [])), ((bound, all_but_first),))
    if "/" in context.instance.path:  # the rows of the moved array: the checked function only
        return
    moved, array = f"{PREFIX}rows_of_moved", code(node.args[0])
    yield Change(f"{callee(node)}.axis-moved-rows",
                 f"In {where(context)}, `{code(node)}` runs over each row of "
                 f"`np.moveaxis({array}, {name}, -1)` as a whole (`{name}` moved last, then a "
                 f"loop over the rows, `for i, row in enumerate(...)`, written for 2-D score "
                 f"matrices): the same as over `{name}` only for a 1-D or 2-D array; for 3-D "
                 "or more each row is a matrix, reduced as a whole.",
                 lambda n: with_keyword(n, "axis", ast.Call(ast.Name(moved, ast.Load()), [
                     copy.deepcopy(n.args[0]), ast.Name(name, ast.Load())], [])),
                 ((moved, rows_of_moved),))
    entry = f"{PREFIX}each_entry"
    yield Change(f"{callee(node)}.axis-each-entry",
                 f"In {where(context)}, `{code(node)}` runs over every value of each first-axis "
                 f"entry, whatever `{name}` is, a 1-D array as one entry (darknet's groups "
                 f"softmax: each batch entry flattened, `{array}.reshape(len({array}), -1)`): "
                 f"the same as over `{name}` only for a 1-D array and a 2-D array's last axis; "
                 "for 3-D or more each entry is a matrix, reduced as a whole.",
                 lambda n: with_keyword(n, "axis", ast.Call(ast.Name(entry, ast.Load()), [
                     copy.deepcopy(n.args[0])], [])), ((entry, each_entry),))


def reading(detail: str) -> str:
    """A detail as the reading it equals on every input of two axes or more: each first-axis
    entry reduced whole, a 1-D array one entry, as every axis but the first."""
    return detail.replace("axis-each-entry", "axis-all-but-first")


def each_entry(x):
    """Every axis of each first-axis entry of `x`, all of a 1-D `x` (one entry): darknet's
    batch of flattened entries."""
    ndim = np.ndim(x)
    return tuple(range(1 if ndim > 1 else 0, ndim))


def rows_of_moved(x, axis):
    """Every axis of `x` but the one that comes first once `axis` is moved last
    (`np.moveaxis(x, axis, -1)`): each row of the moved array reduced as a whole (all of a
    1-D `x`)."""
    ndim = np.ndim(x)
    first = 1 if ndim > 1 and axis % ndim == 0 else 0
    return tuple(a for a in range(ndim) if a != first or ndim == 1)


def torch_dim(x) -> int:
    """The axis torch's softmax takes when none is given (`_get_softmax_dim`, deprecated): 0
    for a 0-D, 1-D or 3-D input, else 1."""
    return 0 if np.ndim(x) in (0, 1, 3) else 1


def torch_implicit_axis(context: Context, node: ast.AST) -> Iterator[Change]:
    """An axis parameter that defaults to -1 (`def softmax(x, axis=-1)`) defaulting to None and
    then chosen by torch's legacy rule (`F.softmax(x)` with no `dim`: 0 for 1-D and 3-D inputs,
    else 1): the last axis of a 1-D or 2-D input, another one of a 3-D or 4-D input. Only the
    checked function; a call that names the axis is right."""
    if not is_checked_function(context, node) or not node.args.args:
        return
    arguments = node.args.args[len(node.args.args) - len(node.args.defaults):]
    for index, (argument, default) in enumerate(zip(arguments, node.args.defaults,
                                                    strict=True)):
        if "axis" not in argument.arg or code(default) != "-1":
            continue
        name, first, bound = argument.arg, node.args.args[0].arg, f"{PREFIX}torch_dim"
        chosen = ast.parse(f"{name} = {bound}({first}) if {name} is None else {name}").body[0]

        def implicit(n: ast.FunctionDef, index=index, chosen=chosen) -> ast.FunctionDef:
            new = prepended(n, chosen)
            new.args = copy.copy(new.args)
            new.args.defaults = list(new.args.defaults)
            new.args.defaults[index] = ast.Constant(None)
            return new

        yield Change(f"{name}-torch-implicit",
                     f"In {where(context)}, a call that leaves `{name}` out gets the axis "
                     f"torch's softmax picks when no `dim` is given (`_get_softmax_dim`, "
                     f"deprecated: 0 for a 1-D or 3-D input, else 1), where the lecture's "
                     f"default is -1, the last axis: the same for 1-D and 2-D inputs, not for "
                     f"3-D or 4-D ones; a call that names `{name}` is right.", implicit,
                     ((bound, torch_dim),),
                     holds=functools.partial(named_right, name, node.args.args.index(argument)))


def rows_or_whole(context: Context, node: ast.AST) -> Iterator[Change]:
    """An `axis` parameter never read: a 2-D input worked over its rows, any other over the
    whole array at once (one max and one sum), as Saito's Deep Learning from Scratch `softmax`
    (`if x.ndim == 2: ... x.T ...; x = x - np.max(x)`) does; or any input of two axes or more
    over axis 1, a 1-D one over its one axis (code written "for each row of the input x",
    `np.max(x, axis=1, keepdims=True)` where `x.ndim > 1`). Only the checked function."""
    names = [a.arg for a in node.args.args] if isinstance(node, ast.FunctionDef) else []
    if not is_checked_function(context, node) or "axis" not in names[1:]:
        return
    first = names[0]
    read = ast.parse(f"axis = -1 if np.ndim({first}) == 2 else None").body[0]
    yield Change("axis-rows-or-whole",
                 f"In {where(context)}, `axis` is never read: a 2-D `{first}` is worked over its "
                 f"rows whatever `axis` is, any other over the whole array at once (one max and "
                 f"one sum for every value, as Deep Learning from Scratch's `softmax` does): "
                 f"right for a 1-D input and for a 2-D one along its last axis. Work over `axis` "
                 f"for every input.",
                 lambda n: prepended(n, read), holds=shows_a_whole_array)
    rows = ast.parse(f"axis = 1 if np.ndim({first}) > 1 else -1").body[0]
    yield Change("axis-1-unless-1d",
                 f"In {where(context)}, `axis` is never read: `{first}` with two axes or more is "
                 f"worked over axis 1 whatever `axis` is (each row of a matrix, "
                 f"`np.max({first}, axis=1, keepdims=True)` where `{first}.ndim > 1`), a 1-D one "
                 f"over its one axis: right for a 1-D input and for a 2-D one along its last "
                 f"axis. Work over `axis` for every input.",
                 lambda n: prepended(n, rows), holds=shows_axis_1_not_last)


def shows_a_whole_array(function, calls: list, same) -> bool:
    """Whether a call's input has 3 axes or more: on 1-D and 2-D inputs the whole array read
    is the rows read, the `axis` ignored (`choices.py`'s default) says as much."""
    return any(call.args and np.ndim(call.args[0]) >= 3 for call in calls)


def shows_axis_1_not_last(function, calls: list, same) -> bool:
    """Whether a call's input has 3 axes or more and is asked for another axis than 1: on 1-D
    and 2-D inputs axis 1 is the last, and the values read as the axis taken as its default
    (`choices.py`'s, said first)."""
    for call in calls:
        if not call.args or np.ndim(call.args[0]) < 3:
            continue
        axis = call.kwargs.get("axis", call.args[1] if len(call.args) > 1 else -1)
        if isinstance(axis, (int, np.integer)) and axis % np.ndim(call.args[0]) != 1:
            return True
    return False


OPERATORS = {"fused": fused_split, "own_slices": own_slices, "later_axes": over_later_axes,
             "all_but_first": over_all_but_first,
             "torch_implicit_axis": torch_implicit_axis,
             "rows_or_whole": rows_or_whole}  # after norms.OPERATORS
