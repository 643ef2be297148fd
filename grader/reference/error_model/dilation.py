"""Operators on a windowed step's taps and its output buffer, where a hand-written loop reads
the image or sizes its output otherwise than the reference's `sliding_window_view(image, (k,
k))[::s, ::s]`:

- the taps inside each window step by the stride (`taps_stepped`): a seven-loop convolution
  that advances its input index by the stride after every kernel tap (`a_i += self.stride`,
  as Jun-yong-lee/pytorch_study's `Conv.conv` and other from-scratch ports of a "dilated" im2col
  do), so window (i, j) reads `image[i * s + u * s, j * s + v * s]` where `image[i * s + u, j *
  s + v]` belongs, the taps past the edge skipped as zero padding: a dilation equal to the
  stride, right for stride 1 only;
- the output buffer sized by the stride alone (`buffer_by_stride`): `out = np.zeros((H //
  stride, W // stride, d))` (a numpy `conv_2d_single_kernel` written for "SAME" padding, used
  without it), the windows that fit written into it and the bias added to the whole buffer:
  positions no window reaches hold the bias alone, and a window with no place in the buffer
  raises numpy's IndexError. Where no kernel test stands (kernel_fit.py's `kernel_untested`,
  paired with it by `checks/kinds/refusals.py`), a kernel larger than the image leaves every
  position the bias.

Each is an operator as in operators.py (`f(context, node) -> iterator of Change`), applied only
in a function that keeps every `s`-th of `sliding_window_view`'s windows (the convolution).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .change import Change, Context, code, is_checked_function, keyword, where
from .kernel_fit import convolution_sizes, kernel_overflow
from .tree import PREFIX
from .window_sites import strided_windows, windows_returned


def dilated_windows(image, window, axis, stride) -> np.ndarray:
    """`sliding_window_view(image, window, axis=axis)` (axis (0, 1)) with the taps of each
    window `stride` pixels apart: window (p, q) tap (u, v) is image[p + u * stride, q + v *
    stride], 0 where that is past the image's edge."""
    image, (kh, kw), s = np.asarray(image), tuple(window)[:2], int(stride)
    if tuple(axis) != (0, 1) or s < 1 or kh > image.shape[0] or kw > image.shape[1]:
        return sliding_window_view(image, window, axis=axis)  # as the reference does
    widths = [(0, (kh - 1) * s), (0, (kw - 1) * s)] + [(0, 0)] * (image.ndim - 2)
    spread = sliding_window_view(np.pad(image, widths), ((kh - 1) * s + 1, (kw - 1) * s + 1),
                                 axis=(0, 1))
    rows, columns = image.shape[0] - kh + 1, image.shape[1] - kw + 1
    return spread[:rows, :columns, ..., ::s, ::s]


def taps_stepped(context: Context, node: ast.AST) -> Iterator[Change]:
    """`windows = sliding_window_view(image, shape, axis=(0, 1))`, its windows then kept every
    `s`-th, read with the taps of each window `s` apart (a dilation equal to the stride)."""
    if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
            and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and len(node.value.args) == 2 and code(node.value.func).endswith(
                "sliding_window_view")):
        return
    keywords = {k.arg: k.value for k in node.value.keywords}
    strided = strided_windows(context.instance.node)
    if strided is None or strided.value.id != node.targets[0].id or set(keywords) != {"axis"}:
        return
    stride = strided.slice.elts[0].step
    s = code(stride)
    bound = f"{PREFIX}dilated_windows"
    yield Change(
        f"{node.targets[0].id}-taps-stepped-by-{s}",
        f"In {where(context)}, the taps inside each window step by the stride too: window "
        f"(i, j) reads `image[i * {s} + u * {s}, j * {s} + v * {s}]` for the kernel's row u and "
        f"column v (the input index advanced by `{s}` after every tap), where the lecture reads "
        f"neighbouring pixels, `image[i * {s} + u, j * {s} + v]`: the window is spread out "
        f"(dilated) by the stride, and its taps past the image's edge count as 0. Only the "
        f"window's start moves by the stride; right only for stride 1.",
        lambda n: _dilated(n, bound, stride), ((bound, dilated_windows),),
        holds=_edge_reached)


def _edge_reached(rewritten, calls, same) -> bool:
    """Whether on one of `calls` (image, K, b, stride) a kept window's spread taps run past the
    image's edge, where the sentence says they count as 0."""
    for sides, kernel, s in filter(None, map(convolution_sizes, calls)):
        if s > 1 and any(k <= n and (n - k) // s * s + (k - 1) * s >= n
                         for n, k in zip(sides, kernel, strict=True)):
            return True
    return False


def _dilated(node: ast.Assign, bound: str, stride: ast.AST) -> ast.Assign:
    call = node.value
    axis = keyword(call, "axis")
    new = ast.Call(ast.Name(bound, ast.Load()), [*call.args, copy.deepcopy(axis),
                                                 copy.deepcopy(stride)], [])
    return ast.Assign(node.targets, new, lineno=0)


def stride_buffer(value, image, window, stride) -> np.ndarray:
    """`value` [H', W', d] written into `np.zeros((H // stride, W // stride, d))`: the
    positions no window reaches 0; numpy's IndexError where a window has no place in it."""
    value, sides = np.asarray(value), np.shape(image)[:2]
    places = tuple(side // int(stride) for side in sides)
    if value.shape[0] and value.shape[1] and (value.shape[0] > places[0]
                                              or value.shape[1] > places[1]):
        raise IndexError(f"index {places[0]} is out of bounds for axis 0 with size {places[0]}")
    out = np.zeros((*places, *value.shape[2:]), dtype=float)
    out[:value.shape[0], :value.shape[1]] = value
    return out


# kernel_fit.no_windows where the output buffer is `np.zeros((H // stride, W // stride, d))`
nothing_fits = kernel_overflow(lambda H, W, kh, kw, stride: (H // int(stride), W // int(stride)))


class _Buffered(ast.NodeTransformer):
    """`return product + b` made `return stride_buffer(product, ...) + b`; any other return
    (kernel_fit.kernel_untested's, where the kernel does not fit) made `return value + b`."""

    def __init__(self, final: ast.Return, found: tuple, bound: str):
        self.final, self.found, self.bound = final, found, bound

    def visit_FunctionDef(self, node):
        return self.generic_visit(node) if node is self.top else node

    def visit_Return(self, node: ast.Return) -> ast.Return:
        bias = copy.deepcopy(self.final.value.right)
        if ast.dump(node) == ast.dump(self.final):
            _, image, window, stride = self.found
            wrapped = ast.Call(ast.Name(self.bound, ast.Load()), [
                node.value.left, copy.deepcopy(image), copy.deepcopy(window),
                copy.deepcopy(stride)], [])
            return ast.Return(ast.BinOp(wrapped, ast.Add(), bias))
        return ast.Return(ast.BinOp(node.value, ast.Add(), bias))

    def run(self, function: ast.FunctionDef) -> ast.FunctionDef:
        self.top = copy.deepcopy(function)
        return ast.fix_missing_locations(self.visit(self.top))


def _final_return(function: ast.FunctionDef) -> ast.Return | None:
    last = function.body[-1] if function.body else None
    return last if (isinstance(last, ast.Return) and isinstance(last.value, ast.BinOp)
                    and isinstance(last.value.op, ast.Add)) else None


def buffer_by_stride(context: Context, node: ast.AST) -> Iterator[Change]:
    """The convolution's output buffer allocated `np.zeros((H // stride, W // stride, d))`
    (a "SAME" helper's count used for a valid convolution), the windows that fit written into
    it, then the bias added to all of it."""
    if not is_checked_function(context, node):
        return
    final = _final_return(node)
    found = None if final is None else windows_returned(context, final)
    if found is None:
        return
    bias = code(final.value.right)
    bound = f"{PREFIX}stride_buffer"
    yield Change(
        f"{found[0]}-buffer-H-over-stride-{bias}-after",
        f"In {where(context)}, the output is allocated `np.zeros((H // stride, W // stride, "
        f"d))` (the size a 'SAME'-padded convolution has) where the windows that fit number "
        f"`(H - k) // stride + 1` (and likewise for W): the windows are written into it and "
        f"`{bias}` is added to all of it, so the positions no window reaches hold `{bias}` "
        f"alone. Allocate `((H - k) // "
        f"stride + 1, (W - k) // stride + 1, d)`.",
        lambda n: _Buffered(final, found, bound).run(n),
        ((bound, stride_buffer), (f"{PREFIX}no_windows", nothing_fits)))


OPERATORS = {"taps_stepped": taps_stepped, "buffer_by_stride": buffer_by_stride}
