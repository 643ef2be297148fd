"""Operators on a contraction over several axes (`np.tensordot(windows, K, axes=([3, 4, 2],
[0, 1, 2]))`): a port that flattens each operand's contracted axes in its own memory order and
multiplies the two flat blocks, pairing values by position, where the axes belong paired by
meaning. An im2col convolution does this when it flattens its windows as torch's weight is laid
out, (C, k, k), and multiplies them with a kernel flattened as (k, k, C): right for one channel
only. And a bias added inside the sum, once per summed value (`(window * K + b).sum(...)`). And
the output channels counted from the kernel's first axis (cs231n's `conv_forward_naive`, `F, C,
HH, WW = w.shape`, torch's (out, in, k, k) Conv2d weight), a loop `for o in range(K.shape[0])`
over `K[:, :, :, o]` where the lecture's kernel is (k, k, C, d). And a kernel flipped, a
textbook convolution where a layer's is a cross-correlation, or its windows read backwards from
their anchors (`x[i * s - a]`). Each is an operator as in operators.py (`f(context, node) ->
iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
import math
from collections.abc import Iterator

import numpy as np

from grader.report.quotes import READ_LINE  # their line, or none (report/steps.py)

from .change import Change, Context, callee, code, literal, where
from .tree import PREFIX
from .window_sites import strided_windows, windowed_image


def flattened_each_own_way(a: np.ndarray, b: np.ndarray, a_axes, b_axes,
                           crosswise: bool = False) -> np.ndarray:
    """`np.tensordot(a, b, axes=(a_axes, b_axes))` computed with each operand's contracted axes
    flattened in the operand's own order (ascending axes) and the flat blocks paired by
    position: a's free axes, then b's, as tensordot lays them out. `crosswise`: each flattened
    in the other's own order instead (its axes that mean what the other's ascending axes do)."""
    a, b = np.asarray(a), np.asarray(b)
    ours = sorted(x % a.ndim for x in a_axes)
    theirs = sorted(x % b.ndim for x in b_axes)
    if crosswise:
        pairs = {x % a.ndim: y % b.ndim for x, y in zip(a_axes, b_axes, strict=True)}
        back = {y: x for x, y in pairs.items()}
        ours, theirs = [back[y] for y in theirs], [pairs[x] for x in ours]
    size = math.prod(a.shape[i] for i in ours)
    if size != math.prod(b.shape[i] for i in theirs):
        raise ValueError("the contracted blocks differ in size")
    flat_a = np.moveaxis(a, ours, range(a.ndim - len(ours), a.ndim))
    flat_a = flat_a.reshape(*flat_a.shape[:a.ndim - len(ours)], size)
    flat_b = np.moveaxis(b, theirs, range(len(theirs)))
    flat_b = flat_b.reshape(size, *flat_b.shape[len(theirs):])
    return np.tensordot(flat_a, flat_b, axes=1)


def _axes(node: ast.Call) -> tuple[list[int], list[int]] | None:
    """The two lists of a tensordot's `axes=([...], [...])` (keyword or third argument), each of
    two or more ints; else None."""
    value = next((k.value for k in node.keywords if k.arg == "axes"),
                 node.args[2] if len(node.args) > 2 else None)
    pair = literal(value) if value is not None else None
    if not (isinstance(pair, (list, tuple)) and len(pair) == 2
            and all(isinstance(side, (list, tuple)) and len(side) >= 2
                    and all(isinstance(i, int) for i in side) for side in pair)
            and len(pair[0]) == len(pair[1])):
        return None
    return list(pair[0]), list(pair[1])


def _listed(values: list[int]) -> ast.AST:
    return ast.parse(repr(values), mode="eval").body


CHANNEL_FIRST = (" Each window is read channel first, (c, p1, p2), torch's weight order, while "
                 "the kernel is flattened (p1, p2, c), the course's: right for one channel "
                 "only.")


CHANNEL_FIRST_KERNEL = (" The kernel is flattened channel first, (c, p1, p2), torch's weight "
                        "order (as `K.transpose(3, 2, 0, 1).reshape(d, -1)` flattens it), "
                        "while each window is read (p1, p2, c), the course's: right for one "
                        "channel only.")


def _channel_first(ours: list[int], theirs: list[int]) -> bool:
    """Whether a kernel contracted over its axes 0, 1, 2 (p1, p2, c) meets the other operand
    flattened as (c, p1, p2): its last contracted axis first, the others in order."""
    met = [theirs[ours.index(axis)] for axis in sorted(ours)]
    return theirs == [0, 1, 2] and met == [2, 0, 1]


def flattened_apart(context: Context, node: ast.AST) -> Iterator[Change]:
    """A contraction whose operands are flattened each in its own order and paired by
    position: `np.tensordot(windows, K, axes=([3, 4, 2], [0, 1, 2]))` as `windows` flattened
    over (2, 3, 4), `K` over (0, 1, 2), then one matrix product. The axis numbers are the model
    solution's arrays' (a student's windows may be 6-D, with no tensordot: blind round 68's
    b68_09 was told to "bring `windows`'s axes into the order 3, 4, 2"): said as the model
    solution's, the orders by their meaning, (c, p1, p2) and (p1, p2, c), where it is known."""
    if not (isinstance(node, ast.Call) and callee(node) == "tensordot" and len(node.args) >= 2):
        return
    axes = _axes(node)
    if axes is None or list(np.argsort(axes[0])) == list(np.argsort(axes[1])):
        return  # flattened in their own orders, the two already pair by meaning
    ours, theirs = axes
    bound = f"{PREFIX}flattened_each_own_way"
    a, b = code(node.args[0]), code(node.args[1])
    listed = [", ".join(map(str, axes)) for axes in (ours, theirs, sorted(ours), sorted(theirs))]
    known = _channel_first(ours, theirs)  # the orders' meaning: said by it, not by numbers
    theirs_said = (f"(the model solution's `{code(node)}` pairs axes {listed[0]} of its `{a}` "
                   f"with axes {listed[1]} of its `{b}`, by meaning)")
    yield Change(f"{a}-{b}-flattened-apart",
                 (f"In {where(context)}, each window and the kernel are flattened each in its "
                  f"own order and multiplied position by position, so values of different "
                  f"meaning meet, a window's channels and the kernel's rows {theirs_said}."
                  + CHANNEL_FIRST + " Flatten each window in the kernel's order, (p1, p2, c), "
                  "before multiplying." if known else
                  f"In {where(context)}, your values are the model solution's with `{a}` and "
                  f"`{b}` flattened each in its own order (its `{a}` over its axes {listed[2]}, "
                  f"`{b}` over {listed[3]}) and multiplied position by position, so values of "
                  f"different meaning meet (in a convolution, a window's channels and the "
                  f"kernel's rows) {theirs_said}. Flatten the two in orders that pair values "
                  f"of the same meaning."),
                 lambda n: ast.Call(ast.Name(bound, ast.Load()),
                                    [n.args[0], n.args[1], _listed(ours), _listed(theirs)],
                                    []),
                 ((bound, flattened_each_own_way),))
    # the other way round: each flattened in the other's own order, as an NHWC port of
    # CS231n's im2col convolution does (windows read (k, k, C) from a channels-last image, the
    # kernel flattened as torch's (F, C, k, k) weight, `w.transpose(3, 2, 0, 1).reshape(F, -1)`)
    pairs = dict(zip(ours, theirs, strict=True))
    back = {y: x for x, y in pairs.items()}
    a_order = [back[y] for y in sorted(theirs)]
    b_order = [pairs[x] for x in sorted(ours)]
    written = [", ".join(map(str, axes)) for axes in (a_order, b_order)]
    yield Change(f"{a}-{b}-flattened-crosswise",
                 (f"In {where(context)}, each window and the kernel are each flattened in the "
                  f"other's order and multiplied position by position, so values of different "
                  f"meaning meet, a window's channels and the kernel's rows {theirs_said}."
                  + CHANNEL_FIRST_KERNEL + " Flatten the kernel in each window's order, "
                  "(p1, p2, c), before multiplying." if known else
                  f"In {where(context)}, your values are the model solution's with `{a}` and "
                  f"`{b}` each flattened in the other's order (its `{a}` over its axes "
                  f"{written[0]}, `{b}` over {written[1]}) and multiplied position by position, "
                  f"so values of different meaning meet (in a convolution, a window's channels "
                  f"and the kernel's rows) {theirs_said}. Flatten the two in orders that pair "
                  f"values of the same meaning."),
                 lambda n: ast.Call(ast.Name(bound, ast.Load()),
                                    [n.args[0], n.args[1], _listed(ours), _listed(theirs),
                                     ast.Constant(True)], []),
                 ((bound, flattened_each_own_way),))


def counted_bias(a: np.ndarray, a_axes, bias) -> np.ndarray:
    """`bias` counted once for each value a contraction sums: times the product of `a`'s
    contracted sizes (a bias added inside `(window * K + b).sum(...)`)."""
    a = np.asarray(a)
    return np.asarray(bias) * math.prod(a.shape[i] for i in a_axes)


def bias_inside(context: Context, node: ast.AST) -> Iterator[Change]:
    """A bias added inside the sum a contraction makes, once per summed value, where it belongs
    once after it: `np.tensordot(windows, K, axes=...) + b` as `(window * K + b).sum(...)`."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
            and isinstance(node.left, ast.Call) and callee(node.left) == "tensordot"
            and len(node.left.args) >= 2 and (axes := _axes(node.left)) is not None):
        return
    bound = f"{PREFIX}counted_bias"
    bias, a = code(node.right), code(node.left.args[0])
    yield Change(f"{bias}-inside-the-sum",
                 f"In {where(context)}, `{bias}` is added inside the sum, to each of the "
                 f"products of `{a}` and `{code(node.left.args[1])}` that are summed (as in "
                 f"`(window * K + {bias}).sum(...)`), so it counts once per summed value: add it "
                 f"once, after the sum, `{code(node)}`.",
                 lambda n: ast.BinOp(n.left, ast.Add(), ast.Call(
                     ast.Name(bound, ast.Load()), [n.left.args[0], _listed(axes[0]), n.right],
                     [])),
                 ((bound, counted_bias),))
    kernel = _kernel_axes(context, node.left, axes[1])
    for axis, paired in zip(axes[0], axes[1], strict=True):  # a loop over one summed axis
        meaning = kernel.get(paired)  # adds it each pass: once per channel, say
        yield Change(f"{bias}-once-per-{a}-axis{axis}",
                     (f"In {where(context)}, `{bias}` is added once per {meaning[0]} (as in a "
                      f"loop over the {meaning[0]}s that adds it on every pass"
                      + (f", `out += conv(x[..., c], K[..., c]) + {bias}`" if paired == 2 else "")
                      + f"), so it counts {meaning[1]} times: add it once, after the sum, as "
                      f"the model solution's `{code(node)}` does." if meaning else
                      f"In {where(context)}, `{bias}` is added once for each index of axis "
                      f"{axis} of the model solution's `{a}` that the sum runs over, so it counts "
                      f"as many times as that axis is long: add it once, after the sum, as the "
                      f"model solution's `{code(node)}` does."),
                     lambda n, axis=axis: ast.BinOp(n.left, ast.Add(), ast.Call(
                         ast.Name(bound, ast.Load()), [n.left.args[0], _listed([axis]),
                                                       n.right], [])),
                     ((bound, counted_bias),))


# what each contracted axis of a (k, k, C, d) kernel means, the lecture's layout: its name and
# how many times a loop over it that adds the bias on every pass adds it
KERNEL_AXES = {0: ("kernel row", "k"), 1: ("kernel column", "k"), 2: ("input channel", "C")}


def _kernel_axes(context: Context, call: ast.Call, paired: list[int]) -> dict:
    """KERNEL_AXES where the contraction's second operand is a kernel the checked function is
    given (a parameter: the student API fixes its layout, (k, k, C, d), so its axes mean the
    same in the student's code) contracted over its axes 0, 1 and 2; else {}: the axes are then
    the model solution's arrays' own, which a student's array of the same name may not share
    (blind round 70's b70_11 was told "axis 2 of `windows`" of its (h', w', kh, kw) windows)."""
    node = context.instance.node
    given = {a.arg for a in (*node.args.posonlyargs, *node.args.args)}
    if (isinstance(call.args[1], ast.Name) and call.args[1].id in given
            and sorted(paired) == [0, 1, 2]):
        return KERNEL_AXES
    return {}


def read_backwards(windows: np.ndarray, image: np.ndarray, stride: int) -> np.ndarray:
    """`windows` [H', W', C, k, k] (every `stride`-th of `image`'s) as a loop reads them that
    subtracts each offset from its window's anchor, `image[i * stride - a, j * stride - b]` for
    offset (a, b) of window (i, j): the window that ends at the anchor, backwards, where an
    offset before the image's first row or column is a negative index, which numpy wraps round
    to its far edge (and an index past it raises, as the loop's does)."""
    windows, image = np.asarray(windows), np.asarray(image)
    image = image[..., None] if image.ndim == 2 else image  # [H, W, C]
    (rows, columns), (tall, wide) = windows.shape[:2], windows.shape[3:5]
    at_rows = np.arange(rows)[:, None] * stride - np.arange(tall)  # [H', k]: i * s - a
    at_columns = np.arange(columns)[:, None] * stride - np.arange(wide)  # [W', k]
    read = image[at_rows[:, None, :, None], at_columns[None, :, None, :]]  # [H', W', k, k, C]
    return read.transpose(0, 1, 4, 2, 3)


def kernel_flipped(context: Context, node: ast.AST) -> Iterator[Change]:
    """A kernel flipped before it is applied, as a textbook convolution does
    (`scipy.signal.convolve2d`, `np.convolve`): `np.tensordot(windows, K, axes=([3, 4, 2], [0,
    1, 2]))` with `K[::-1, ::-1]`, where a convolutional layer computes the cross-correlation.
    Or the textbook's `x[i - k]` kept in a loop over strided windows, each window read backwards
    from its anchor (`read_backwards`: the kernel flipped over the window that ends there,
    blind round 67's b67_08). Only a contraction over the second operand's first two axes, a
    name (the kernel's rows and columns)."""
    if not (isinstance(node, ast.Call) and callee(node) == "tensordot" and len(node.args) >= 2
            and isinstance(node.args[1], ast.Name)):
        return
    axes = _axes(node)
    if axes is None or sorted(axes[1])[:2] != [0, 1]:
        return
    kernel = node.args[1].id
    flipped = ast.parse(f"{kernel}[::-1, ::-1]", mode="eval").body
    yield Change(f"{kernel}-flipped",
                 f"In {where(context)}, the kernel `{kernel}` is flipped{READ_LINE}, `{kernel}"
                 "[::-1, ::-1]`, as a textbook convolution does (scipy.signal.convolve2d, "
                 "np.convolve): a convolutional layer computes the cross-correlation, each "
                 "window times the kernel as it is.",
                 lambda n: ast.Call(n.func, [n.args[0], flipped, *n.args[2:]], n.keywords))
    strided = strided_windows(context.instance.node)
    if strided is None or code(node.args[0]) != strided.value.id:
        return
    image = windowed_image(context.instance.node, strided.value.id)
    if image is None:
        return
    step = strided.slice.elts[0].step
    bound = f"{PREFIX}read_backwards"
    yield Change("windows-read-backwards",
                 f"In {where(context)}, each window is read backwards from its anchor"
                 f"{READ_LINE}: offset (a, b) of window (i, j) is `image[i * stride - a, j * "
                 "stride - b]`, a textbook convolution's `x[i - k]` (the kernel flipped over the "
                 "window that ends at the anchor), where a convolutional layer reads forwards "
                 "from it, `image[i * stride + a, j * stride + b]`; the offsets before the first "
                 "row and column are negative indices, which numpy wraps round to the image's "
                 "far edge.",
                 lambda n: ast.Call(n.func, [ast.Call(ast.Name(bound, ast.Load()), [
                     n.args[0], copy.deepcopy(image), copy.deepcopy(step)], []), *n.args[1:]],
                     n.keywords),
                 ((bound, read_backwards),))


def counted_from_first_axis(a: np.ndarray, b: np.ndarray, a_axes, b_axes) -> np.ndarray:
    """`np.tensordot(a, b, axes=(a_axes, b_axes))` for `b` whose one free axis is its last,
    computed as a loop over `range(b.shape[0])` that contracts with `b[..., o]` and stacks the
    results last: the first `b.shape[0]` output channels where the last axis is longer, numpy's
    IndexError for `b[..., o]` where it is shorter (code written for torch's (out, in, k, k))."""
    a, b = np.asarray(a), np.asarray(b)
    return np.stack([np.tensordot(a, b[..., o], axes=(a_axes, b_axes))
                     for o in range(b.shape[0])], axis=-1)


def channels_from_first_axis(context: Context, node: ast.AST) -> Iterator[Change]:
    """The output channels counted from the kernel's first axis: `np.tensordot(windows, K,
    axes=([3, 4, 2], [0, 1, 2]))` as `for o in range(K.shape[0]): out[..., o] = (window *
    K[:, :, :, o]).sum()` (cs231n's conv_forward_naive reads `F, C, HH, WW = w.shape`, the
    filters first, as torch's Conv2d weight (out, in, k, k) holds them). Only a contraction
    over every axis of a 4-D kernel, a name, but its last."""
    if not (isinstance(node, ast.Call) and callee(node) == "tensordot" and len(node.args) >= 2
            and isinstance(node.args[1], ast.Name)):
        return
    axes = _axes(node)
    if axes is None or sorted(axes[1]) != [0, 1, 2]:
        return
    kernel = node.args[1].id
    bound = f"{PREFIX}counted_from_first_axis"
    yield Change(f"{kernel}-out-channels-from-axis-0",
                 f"In {where(context)}, the number of output channels is read from the first "
                 f"axis of `{kernel}`, `{kernel}.shape[0]` (as code written for torch's (out, in, "
                 f"k, k) weights reads it, cs231n's `F, C, HH, WW = w.shape`), and each channel o "
                 f"computed with `{kernel}[:, :, :, o]`: the lecture's kernel is (k, k, C, d), so "
                 f"`{kernel}.shape[0]` is the kernel's size k, and the output channels are its "
                 f"last axis, `{kernel}.shape[-1]` (right only when k == d).",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()),
                                    [n.args[0], n.args[1], _listed(axes[0]), _listed(axes[1])],
                                    []),
                 ((bound, counted_from_first_axis),))


OPERATORS = {"flattened_apart": flattened_apart, "bias_inside": bias_inside,
             "kernel_flipped": kernel_flipped,
             "channels_from_first_axis": channels_from_first_axis}  # tried after terms.OPERATORS
