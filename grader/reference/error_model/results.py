"""Operators on what the checked function returns, each step before it right: the result passed
through an output activation (a classifier head built as Keras' `Dense(n, activation="softmax")`
returns probabilities where the lecture's returns logits; a Flax head ending in
`nnx.log_softmax` returns log-probabilities), or computed with its axes in another
order and reshaped into place where a transpose belongs (cs231n's channels-first convolution
`out` (F, H', W') reshaped to (H', W', F); an im2col result reshaped to (W', H', F)), or left
in the rows a fused kernel views its input as (`x.reshape(-1, d)`, never reshaped back), or
returned flattened to rows where the lecture returns a grid (timm's PatchEmbed, flatten=True),
or a returned tuple of sizes with a part changed: each part a pair, a side as its area (`P * P`),
halved (`P // 2`, windows that overlap by half), or a third value 0 appended (a padding, as
torch's Conv2d takes it), or every part changed alike (`(P // 2, P // 2)`, a conv stem's), or a
row read as a one-row slice that keeps its axis (`x[:1]` for `x[0]`: a batched port's `x[:, 0]`
written for one sequence).

Each rewrite wraps the returned value in a function bound in the rewritten code; a value it
does not fit (no float array, too few axes) is returned as it is, so that the rewrite is the
reference there and names nothing. An operator as in operators.py (`f(context, node) ->
iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator

import numpy as np

from .change import (
    Change,
    Context,
    code,
    is_checked_function,
    is_result,
    prepended,
    where,
)
from .tree import PREFIX


def _float_array(value, axes: int) -> bool:
    return (isinstance(value, np.ndarray) and value.ndim >= axes
            and np.issubdtype(value.dtype, np.floating))


def softmax_last(value):
    """`value` [..., n] through a softmax over its last axis (each row sums to 1)."""
    if not _float_array(value, 1):
        return value
    with np.errstate(all="ignore"):
        e = np.exp(value - np.max(value, axis=-1, keepdims=True))
        return e / np.sum(e, axis=-1, keepdims=True)


def sigmoid(value):
    """`value` [...] through a sigmoid, 1 / (1 + exp(-x)), elementwise."""
    if not _float_array(value, 1):
        return value
    with np.errstate(all="ignore"):
        return 1.0 / (1.0 + np.exp(-value))


def tanh(value):
    """`value` [...] through tanh, elementwise."""
    return np.tanh(value) if _float_array(value, 1) else value


def log(value):
    """`value` [...] through np.log, elementwise (a log-softmax where a softmax belongs)."""
    if not _float_array(value, 1):
        return value
    with np.errstate(all="ignore"):
        return np.log(value)


def log_softmax_last(value):
    """`value` [..., n] through a log-softmax over its last axis, `x - logsumexp(x)` (each
    row's exp sums to 1)."""
    if not _float_array(value, 1):
        return value
    with np.errstate(all="ignore"):
        shifted = value - np.max(value, axis=-1, keepdims=True)
        return shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))


def argmax_last(value):
    """`value` [..., n] as the index of its largest entry along its last axis (an integer)."""
    return np.argmax(value, axis=-1) if _float_array(value, 1) else value


def channels_first(value):
    """`value` [A, B, ..., F] returned with its last axis first, [F, A, B, ...] (at least 3
    axes)."""
    return np.moveaxis(value, -1, 0) if _float_array(value, 3) else value


def channels_first_reshaped(value):
    """`value` [A, B, ..., F] computed with its last axis first, [F, A, B, ...], then reshaped
    to [A, B, ..., F] without moving that axis back (at least 3 axes)."""
    if not _float_array(value, 3):
        return value
    return np.moveaxis(value, -1, 0).reshape(value.shape)


def sides_swapped_reshaped(value):
    """`value` [A, B, ...] reshaped to [B, A, ...]: its elements in their order, the first two
    sizes the other way round (at least 3 axes; the value itself when A == B)."""
    if not _float_array(value, 3):
        return value
    return value.reshape(value.shape[1], value.shape[0], *value.shape[2:])


def sides_swapped_buffer(value):
    """`value` [A, B, ...] written entry by entry, `out[i, j] = ...` for i < A and j < B
    (rows outer), into a buffer allocated [B, A, ...]: the value itself when A == B, else the
    IndexError numpy raises when an index first runs past its axis (at least 3 axes)."""
    if not _float_array(value, 3):
        return value
    rows, columns = value.shape[:2]
    out = np.zeros((columns, rows, *value.shape[2:]), dtype=value.dtype)
    for i in range(rows):
        for j in range(columns):
            out[i, j] = value[i, j]
    return out


# name -> (words, what comes back, function): the output activations a port brings along
OUTPUT_ACTIVATIONS = {
    "softmax": ("a softmax over its last axis (as a head built with activation='softmax' "
                "applies one)",
                "probabilities come back where the values themselves (logits) belong; whoever "
                "reads them, such as the loss, applies the softmax", softmax_last),
    "sigmoid": ("a sigmoid (as a head built with activation='sigmoid' applies one)",
                "values squashed into (0, 1) come back where the values themselves belong",
                sigmoid),
    "tanh": ("tanh", "values squashed into (-1, 1) come back where the values themselves "
             "belong", tanh),
    "log": ("a log (as jax.nn.log_softmax and torch's log_softmax apply one)",
            "logarithms come back, log-probabilities where a softmax's probabilities belong", log),
    "log_softmax": ("a log-softmax over its last axis (as a head ending in Flax's "
                    "`nnx.log_softmax` or torch's `F.log_softmax(logits, dim=-1)` applies one)",
                    "log-probabilities come back (their exponentials sum to 1) where the values "
                    "themselves (logits) belong; whoever reads them, such as the loss, applies "
                    "the log-softmax", log_softmax_last),
    "argmax": ("an argmax over its last axis (as a pipeline's `logits.argmax(-1)` takes one)",
               "the index of the largest value comes back, a predicted class, where the values "
               "themselves (logits) belong", argmax_last)}


def _wrapped(bound: str) -> Callable[[ast.AST], ast.AST]:
    return lambda n: ast.Call(ast.Name(bound, ast.Load()), [n], [])


def output_activation(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's result passed through an activation before it is returned:
    `return linear(x[0], W, b)` as `return softmax(linear(x[0], W, b))`."""
    if not is_result(context, node):
        return
    for name, (words, returned, function) in OUTPUT_ACTIVATIONS.items():
        bound = f"{PREFIX}output_{name}"
        yield Change(f"result-through-{name}",
                     f"In {where(context)}, the result `{code(node)}` goes through {words} "
                     f"before it is returned: {returned}.", _wrapped(bound), ((bound, function),))


def reshaped_into_place(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's result computed with its axes in another order and reshaped to
    the right shape, where a transpose belongs: channels first, (F, H', W') reshaped to (H',
    W', F); or reshaped with its first two sizes the other way round, (W', H', F)."""
    if not is_result(context, node):
        return
    shown = code(node)
    bound = f"{PREFIX}channels_first"
    yield Change("result-channels-first",
                 f"In {where(context)}, the result `{shown}` is returned with its last axis "
                 "first (channels first: (F, H', W') for (H', W', F), as torch's conv2d lays "
                 "out its output): the lecture's layout has the channels last. Move that axis "
                 "last, `np.moveaxis(out, 0, -1)`.", _wrapped(bound), ((bound, channels_first),))
    bound = f"{PREFIX}channels_first_reshaped"
    yield Change("result-channels-first-reshaped",
                 f"In {where(context)}, the result `{shown}` is computed with its last axis "
                 "first (channels first: (F, H', W') for (H', W', F)) and then reshaped to the "
                 "right shape: a reshape keeps the elements in their order, so each output "
                 "position gets values of other channels and positions. Move the axis with a "
                 "transpose, `.transpose(1, 2, 0)` (or `np.moveaxis(out, 0, -1)`), not a reshape.",
                 _wrapped(bound), ((bound, channels_first_reshaped),))
    bound = f"{PREFIX}sides_swapped_reshaped"
    yield Change("result-sides-swapped-reshaped",
                 f"In {where(context)}, the result `{shown}` is reshaped with its first two "
                 "sizes the other way round, (W', H', ...) for (H', W', ...): the same only "
                 "where they are equal; with rows of another length, its rows are cut at the "
                 "wrong places.", _wrapped(bound), ((bound, sides_swapped_reshaped),))
    bound = f"{PREFIX}sides_swapped_buffer"
    yield Change("result-buffer-sides-swapped",
                 f"In {where(context)}, the result `{shown}` is written into an output buffer "
                 "allocated with its first two sizes the other way round, `np.zeros((W', H', "
                 "...))` (width first, as (x, y) grids are sized), and filled as `out[i, j]` "
                 "with i the row and j the column: the same only where H' == W'; otherwise an "
                 "index runs past its axis (IndexError). Allocate `np.zeros((H', W', ...))`.",
                 _wrapped(bound), ((bound, sides_swapped_buffer),))


def grid_as_rows(value):
    """A grid [A, B, ..., d] (at least 3 axes) flattened to rows [A * B * ..., d]."""
    return value.reshape(-1, value.shape[-1]) if _float_array(value, 3) else value


def result_flattened(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's grid of vectors, (H', W', d), returned flattened to rows,
    (H' W', d): the flattening its caller does, done inside it."""
    if not is_result(context, node):
        return
    bound = f"{PREFIX}grid_as_rows"
    yield Change("result-flattened-to-rows",
                 f"In {where(context)}, the result `{code(node)}` comes back flattened to "
                 "rows, `.reshape(-1, d)`: a grid or a batch (A, B, ..., d) returned as (A * B * "
                 "..., d), as timm's PatchEmbed with flatten=True returns its tokens; the "
                 "model solution's function keeps those leading axes (flattening is the caller's "
                 "step).",
                 _wrapped(bound), ((bound, grid_as_rows),))


def sizes_as_pairs(context: Context, node: ast.AST) -> Iterator[Change]:
    """Each number of a returned tuple written as a (height, width) pair: `return (P, P)` as
    `((P, P), (P, P))`, Keras' `kernel_size=(P, P), strides=(P, P)` (PyTorch's `_pair`)."""
    if not (is_result(context, node) and isinstance(node, ast.Tuple) and len(node.elts) > 1):
        return
    paired = ast.Tuple([ast.Tuple([e, e], ast.Load()) for e in node.elts], ast.Load())
    yield Change("each-as-a-pair",
                 f"In {where(context)}, each number of the result `{code(node)}` is written as "
                 f"a (height, width) pair, `{code(paired)}`, as Keras' `kernel_size=(P, P), "
                 "strides=(P, P)` and PyTorch's `_pair` take them: the result is one number "
                 "each, the same in both directions for a square patch.",
                 lambda n: ast.Tuple([ast.Tuple([e, e], ast.Load()) for e in n.elts], ast.Load()))


def tuple_parts(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's returned tuple of sizes, `(P, P)`, with one part changed."""
    if not (is_result(context, node) and isinstance(node, ast.Tuple) and node.elts
            and all(isinstance(e, ast.Name) for e in node.elts)):
        return
    told = f"In {where(context)}, the result `{code(node)}` is returned as"
    for i, element in enumerate(node.elts):
        name = element.id
        for detail, written, words in (
                ("area", f"{name} * {name}", f"the area `{name} * {name}` where the side "
                 f"`{name}` belongs (a {name} x {name} window's size is {name})"),
                ("halved", f"{name} // 2", f"half of `{name}`, `{name} // 2` (windows that "
                 f"overlap by half), where the lecture's is `{name}`")):
            def changed(n: ast.Tuple, i=i, written=written) -> ast.Tuple:
                elts = list(n.elts)
                elts[i] = ast.parse(written, mode="eval").body
                return ast.Tuple(elts, ast.Load())

            yield Change(f"part-{i + 1}-{detail}",
                         f"{told} `{code(changed(node))}`: its part {i + 1} is {words}.",
                         changed)
    yield from every_part_alike(context, node)
    yield Change("zero-appended",
                 f"{told} `{code(node)[:-1]}, 0)`, with a 0 appended (a padding, as torch's "
                 f"Conv2d takes it): the model solution's answer is `{code(node)}` alone.",
                 lambda n: ast.Tuple([*n.elts, ast.Constant(0)], ast.Load()))


# every part of a tuple of sizes scaled alike: the name, its code, what it says of the parts
ALIKE = (("halved", "{} // 2", "halved, `// 2` (as a hybrid ViT's patch projection after a "
          "conv stem that has already halved the image: `kernel_size=patch_size // 2, "
          "stride=patch_size // 2`)"),
         ("doubled", "2 * {}", "doubled, `2 * ...`"),
         ("one-less", "{} - 1", "one less, `- 1`"),
         ("one-more", "{} + 1", "one more, `+ 1`"))


def every_part_alike(context: Context, node: ast.Tuple) -> Iterator[Change]:
    """The returned tuple of sizes with every part changed alike, `(P // 2, P // 2)`: sizes read
    off a model that scales them all (a conv stem's halved kernel and stride), where a part
    alone is `tuple_parts`'s. Only where there are two parts or more."""
    if len(node.elts) < 2:
        return
    for detail, written, words in ALIKE:
        def changed(n: ast.Tuple, written=written) -> ast.Tuple:
            return ast.Tuple([ast.parse(written.format(e.id), mode="eval").body
                              for e in n.elts], ast.Load())

        yield Change(f"every-part-{detail}",
                     f"In {where(context)}, the result `{code(node)}` is returned as "
                     f"`{code(changed(node))}`: every part is {words}, where the model solution's "
                     f"answer is `{code(node)}`.", changed)


def as_rows(value):
    """An array [..., d] viewed as rows [N, d] (a number or an empty shape as it is)."""
    value = np.asarray(value)
    return value.reshape(-1, value.shape[-1]) if value.ndim >= 1 else value


def rows_kept(context: Context, node: ast.AST) -> Iterator[Change]:
    """The input viewed as rows, `x.reshape(-1, x.shape[-1])` (a fused kernel's view), and the
    result left in that shape: a single vector (d,) or leading axes (B, T, d) come back as
    (N, d). Only the checked function, on its first parameter."""
    if not is_checked_function(context, node) or not node.args.args:
        return
    name, bound = node.args.args[0].arg, f"{PREFIX}as_rows"
    statement = ast.parse(f"{name} = {bound}({name})").body[0]
    yield Change(f"{name}-as-rows",
                 f"In {where(context)}, `{name}` is viewed as rows, `{name}.reshape(-1, "
                 f"{name}.shape[-1])` (as fused kernels view it), and the result keeps that "
                 f"shape: a single vector (d,) or an input with leading axes (B, T, d) comes "
                 f"back as (N, d). Give the result `{name}`'s own shape back, or work on the "
                 "last axis directly.",
                 lambda n: prepended(n, statement), ((bound, as_rows),))


def _row_index(node: ast.AST) -> int | None:
    """The integer `x[0]` or `x[-1]` reads from an array's name, else None."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)
            and isinstance(node.value, ast.Name)):
        return None
    try:
        index = ast.literal_eval(node.slice)
    except ValueError:
        return None
    return index if isinstance(index, int) and not isinstance(index, bool) else None


def row_as_slice(context: Context, node: ast.AST) -> Iterator[Change]:
    """A row read as a one-row slice, `x[0]` as `x[:1]` (`x[-1]` as `x[-1:]`): its axis of
    length 1 is kept, and so is it in all that is computed from it (a batched port's
    `x[:, 0]` for [CLS] written for one sequence as `x[:1]`). Only an array's name indexed by
    an integer (no `.shape[0]`)."""
    index = _row_index(node)
    if index is None:
        return
    stop = None if index == -1 else ast.Constant(index + 1)
    start = None if index == 0 else ast.Constant(index)
    sliced = ast.Subscript(node.value, ast.Slice(start, stop), ast.Load())
    yield Change(f"{node.value.id}[{index}]-as-slice",
                 f"In {where(context)}, the row `{code(node)}` is read with its axis of "
                 f"length 1 kept, as the slice `{code(sliced)}` reads it (or `[:, {index}]` on a "
                 "batch of one, `x[None]`): what is computed from it keeps that axis too, shape "
                 "(1, n) where the model solution's has (n,). Index the row itself, "
                 f"`{code(node)}`.",
                 lambda n: ast.Subscript(n.value, ast.Slice(copy.deepcopy(start),
                                                            copy.deepcopy(stop)), ast.Load()))


def moved_back_alike(value, axis):
    """`value` with `axis` moved to the end twice: an axis moved to the end to work on and
    "moved back" with the same call, `np.moveaxis(out, axis, -1)` for `np.moveaxis(out, -1,
    axis)`."""
    return np.moveaxis(np.moveaxis(value, axis, -1), axis, -1)


def swapped_then_moved(value, axis):
    """`value` with `axis` swapped with the last axis, then the last axis moved to `axis`: an
    axis brought to the end with `np.swapaxes(x, axis, -1)` and put back with
    `np.moveaxis(out, -1, axis)`, which undoes a moveaxis, not a swap."""
    return np.moveaxis(np.swapaxes(value, axis, -1), -1, axis)


def _axis_parameter(function: ast.FunctionDef) -> str | None:
    """The name of a parameter that defaults to -1 (an axis: `softmax(x, axis=-1)`)."""
    given = function.args.args[len(function.args.args) - len(function.args.defaults):]
    return next((a.arg for a, d in zip(given, function.args.defaults, strict=True)
                 if code(d) == "-1"), None)


def axis_moved_back_alike(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's result computed on its axis moved to the end, `np.moveaxis(x,
    axis, -1)`, and moved back with the same call, `np.moveaxis(out, axis, -1)` where
    `np.moveaxis(out, -1, axis)` undoes it (keras-team/keras#9600): right for the last axis and
    on 2-D arrays; with 3 or more axes and the axis before the last two, the axes come back in
    another order. Only a function with a parameter that defaults to -1."""
    if not is_result(context, node):
        return
    axis = _axis_parameter(context.instance.node)
    if axis is None:
        return
    bound = f"{PREFIX}moved_back_alike"
    yield Change(f"{axis}-moved-back-alike",
                 f"In {where(context)}, `{axis}` is moved to the end, `np.moveaxis(x, {axis}, "
                 f"-1)`, and moved back with the same call, `np.moveaxis(out, {axis}, -1)`, "
                 f"where `np.moveaxis(out, -1, {axis})` undoes it: the same on the last axis "
                 f"and on 2-D arrays, but with 3 or more axes and `{axis}` before the last two, "
                 "the result's axes come back in another order.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), [n, ast.Name(axis, ast.Load())],
                                    []), ((bound, moved_back_alike),))
    swapped = f"{PREFIX}swapped_then_moved"  # a swap undone by a move (Triton's row-wise
    # softmax ported: torch's `x.transpose(dim, -1)` to bring the axis last, `movedim(-1, dim)`
    # back, or numpy's `np.swapaxes` there and `np.moveaxis` here)
    yield Change(f"{axis}-swapped-then-moved-back",
                 f"In {where(context)}, `{axis}` is brought to the end with `np.swapaxes(x, "
                 f"{axis}, -1)` and put back with `np.moveaxis(out, -1, {axis})`, which undoes a "
                 f"move, not a swap: the same on the last two axes, but with 3 or more axes "
                 f"and `{axis}` before the last two, the axes between come back shifted. Undo "
                 f"the swap with the same swap, `np.swapaxes(out, {axis}, -1)`.",
                 lambda n: ast.Call(ast.Name(swapped, ast.Load()),
                                    [n, ast.Name(axis, ast.Load())], []),
                 ((swapped, swapped_then_moved),))


def rows_at_flat_index(value, shape):
    """`value` [A, B, ...] reshaped to `shape` (A * B, ...) as a loop fills it: row (i, j)
    written at the flat index `i * A + j` (the row count as the stride) into a buffer of zeros,
    where `i * B + j` belongs. The reshape itself when A == B or the shape merges no such axes;
    else rows collide (some stay 0) or an index runs past the end (numpy's IndexError)."""
    value = np.asarray(value)
    if value.ndim < 3 or np.ndim(shape) != 1 or len(shape) < 1:
        return value.reshape(shape)
    rows, columns = value.shape[:2]
    if rows == columns or shape[0] != rows * columns:
        return value.reshape(shape)
    out = np.zeros(tuple(shape), dtype=value.dtype)
    for i in range(rows):
        for j in range(columns):
            out[i * rows + j] = value[i, j].reshape(out.shape[1:])
    return out


def flat_index_stride(context: Context, node: ast.AST) -> Iterator[Change]:
    """A grid [A, B, ...] flattened to rows, `grid.reshape(A * B, ...)`, by a loop that writes
    row (i, j) at `i * A + j` where `i * B + j` belongs (cs231n-style loops over a preallocated
    matrix): the flat index strided by the other side's count. Only in the checked function's
    own code (a helper's loop is its own exercise's), a reshape whose first size is written as
    a product of two sizes."""
    if not ("/" not in context.instance.path and isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "reshape" and node.args and not node.keywords
            and isinstance(node.args[0], ast.BinOp) and isinstance(node.args[0].op, ast.Mult)
            and not any(isinstance(side, ast.Constant)
                        for side in (node.args[0].left, node.args[0].right))):
        return
    sides = (node.args[0].left, node.args[0].right)
    rows, columns = (code(side) for side in sides)
    strided = [f"({code(side)})" if isinstance(side, ast.BinOp) else code(side) for side in sides]
    bound = f"{PREFIX}rows_at_flat_index"
    yield Change("rows-strided-by-row-count",
                 f"In {where(context)}, `{code(node)}` is filled row by row at the flat index "
                 f"`i * {strided[0]} + j` (strided by the count of rows) where "
                 f"`i * {strided[1]} + j` belongs (row i of the grid starts after i full rows "
                 f"of `{columns}`): the same only where `{rows}` == `{columns}`; otherwise rows "
                 "land on each other, some stay "
                 "0, or an index runs past the end (IndexError).",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()),
                                    [n.func.value, ast.Tuple(list(n.args), ast.Load())], []),
                 ((bound, rows_at_flat_index),))


OPERATORS = {"output_activation": output_activation,
             "moved_back_alike": axis_moved_back_alike,
             "result_reshaped": reshaped_into_place,
             "sizes_as_pairs": sizes_as_pairs, "tuple_parts": tuple_parts,
             "result_flattened": result_flattened,
             "rows_kept": rows_kept, "row_as_slice": row_as_slice,
             "flat_index": flat_index_stride}  # tried after dtypes.OPERATORS
