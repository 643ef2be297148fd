"""Operators on a convolution's grid of outputs where a port computes its sizes or cuts its
windows in a way written for one case only (the reference reads every window with
`sliding_window_view` and keeps every `stride`-th, `windows[::s, ::s]`, and returns their
contraction with the kernel as (H', W', d)):

- `side_read_twice`: the result laid out with one side's count used for both, `out.reshape(
  out_h, out_h, -1)` where `(out_h, out_w, -1)` belongs (an im2col convolution in the style of
  Deep Learning from Scratch's `Convolution.forward`, whose `out.reshape(N, out_h, out_w, -1)`
  is retyped with a name copied; code tried on square images only): right where H' == W',
  numpy's refusal of the reshape or rows cut at the wrong places elsewhere.
- `stride_as_tiles`: the windows cut as non-overlapping tiles by a reshape of the image cropped
  to H' * k rows and W' * k columns, `x[:Hp * k, :Wp * k].reshape(Hp, k, Wp, k, C)` (a Flax or
  timm PatchEmbed port, whose kernel = stride = patch size lets a reshape stand for the
  convolution, given a stride of its own): windows k apart, not `stride` apart, and numpy's
  refusal of the reshape wherever the H' tiles do not fit in the image; right only when the
  stride is the kernel size.
- `stride_ignored`: the windows as the image's own k x k tiles, `image.reshape(H // k, k, W //
  k, k, C)` with no crop (FastEstimator's TensorFlow ViT, `Conv2D(d, kernel_size=P,
  strides=P)` written as a reshape): the stride never read, H // k rows of windows, and
  numpy's refusal of the reshape wherever k does not tile the image.

Both apply only in a function that returns a product of strided sliding windows (window_sites.py's
`windows_returned`, the convolution): the reference's one such function. Operators as in
operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, code, where
from .tree import PREFIX
from .window_sites import strided_windows, window_call, windows_returned
from .windows import SIDES


def side_twice(value, side: int):
    """`value` [A, B, ...] (at least 3 axes) reshaped to [S, S, -1] with S its size on axis
    `side`: its elements in their order, numpy's own ValueError where they do not fill an S x S
    grid."""
    value = np.asarray(value)
    if value.ndim < 3:
        return value
    return value.reshape(value.shape[side], value.shape[side], -1)


def side_read_twice(context: Context, node: ast.AST) -> Iterator[Change]:
    """The convolution's result reshaped with one side's count for both: `out.reshape(out_h,
    out_h, -1)` (or `(out_w, out_w, -1)`) where `(out_h, out_w, -1)` belongs."""
    if not isinstance(node, ast.Return) or windows_returned(context, node) is None:
        return
    bound = f"{PREFIX}side_twice"
    for side, other in ((0, 1), (1, 0)):
        (mine, word), (theirs, their_word) = SIDES[side], SIDES[other]
        shape = ", ".join([f"{mine}'"] * 2)
        yield Change(f"result-{theirs}-size-from-{mine}",
                     f"In {where(context)}, the result is laid out as `({shape}, d)`: the "
                     f"output's {word} count {mine}' is used for its {their_word} too, "
                     f"`out.reshape({shape}, -1)` where `out.reshape(H', W', -1)` belongs (one "
                     f"size typed twice, as code tried on square images only can). Right only "
                     f"when H' == W'; otherwise numpy refuses the reshape, or cuts the rows at "
                     f"the wrong places. Reshape to the two counts, each from its own side.",
                     lambda n, side=side: ast.Return(ast.Call(ast.Name(bound, ast.Load()), [
                         n.value, ast.Constant(side)], [])),
                     ((bound, side_twice),))


def cut_as_tiles(image, window, stride: int) -> np.ndarray:
    """The windows [H', W', C, kh, kw] of `image` [H, W, C] cut as non-overlapping tiles:
    `image[:H' * kh, :W' * kw].reshape(H', kh, W', kw, C)` with H' = (H - kh) // stride + 1 (and
    W' likewise), the tiles' axes moved last as `sliding_window_view` lays them out; numpy's own
    ValueError where H' * kh rows or W' * kw columns do not fit."""
    image = np.asarray(image)
    (height, width), (kh, kw) = image.shape[:2], tuple(window)[:2]
    rows, columns = (height - kh) // stride + 1, (width - kw) // stride + 1
    tiles = image[:rows * kh, :columns * kw].reshape(rows, kh, columns, kw, *image.shape[2:])
    return np.moveaxis(tiles, (1, 3), (-2, -1))


def _windows_taken(context: Context, node: ast.AST) -> ast.Call | None:
    """The `sliding_window_view(...)` call whose windows `node` keeps every stride-th of,
    `windows[::s, ::s]` in the convolution, else None."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple)
            and len(node.slice.elts) >= 2 and all(isinstance(part, ast.Slice) and part.step
                                                  for part in node.slice.elts[:2])):
        return None  # the cheap test first: a subscript strided on its first two axes
    if strided_windows(context.instance.node) is not node:
        return None
    return window_call(context.instance.node, node.value.id)


def stride_as_tiles(context: Context, node: ast.AST) -> Iterator[Change]:
    """`windows[::s, ::s]` (of `windows = sliding_window_view(image, shape, ...)`) as the
    image's non-overlapping tiles, H' x W' of them, cut by a reshape of its first H' * k rows
    and W' * k columns."""
    call = _windows_taken(context, node)
    if call is None:
        return
    bound, stride = f"{PREFIX}cut_as_tiles", node.slice.elts[0].step
    yield Change("windows-cut-as-tiles",
                 f"In {where(context)}, the windows are cut as non-overlapping k x k tiles by a "
                 f"reshape, `x[:H' * k, :W' * k].reshape(H', k, W', k, C)` (a patch embedding's "
                 f"reshape, which stands for the convolution only when the stride is the "
                 f"kernel size), as if the stride were k: window (i, j) starts at (i * k, j * "
                 f"k), not at (i * stride, j * stride), and where H' * k rows or W' * k columns "
                 f"do not fit in the image numpy refuses the reshape. Cut each window at `i * "
                 f"stride:i * stride + k`: windows overlap when the stride is smaller than k.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), [
                     copy.deepcopy(call.args[0]), copy.deepcopy(call.args[1]),
                     copy.deepcopy(stride)], []),
                 ((bound, cut_as_tiles),))


def image_as_tiles(image, window) -> np.ndarray:
    """The windows [H // kh, W // kw, C, kh, kw] of `image` [H, W, C] as its kh x kw tiles,
    `image.reshape(H // kh, kh, W // kw, kw, C)`, whatever the stride: numpy's own ValueError
    where the kernel does not tile the image."""
    image = np.asarray(image)
    (height, width), (kh, kw) = image.shape[:2], tuple(window)[:2]
    tiles = image.reshape(height // kh, kh, width // kw, kw, *image.shape[2:])
    return np.moveaxis(tiles, (1, 3), (-2, -1))


def stride_ignored(context: Context, node: ast.AST) -> Iterator[Change]:
    """`windows[::s, ::s]` as the image reshaped into its k x k tiles, `image.reshape(H // k, k,
    W // k, k, C)`, with no crop and no stride (FastEstimator's and many Keras ViT scripts'
    patch embedding, `Conv2D(d, kernel_size=P, strides=P)`, written as the reshape it equals
    there, then given a stride of its own)."""
    call = _windows_taken(context, node)
    if call is None:
        return
    bound, stride = f"{PREFIX}image_as_tiles", code(node.slice.elts[0].step)
    yield Change("stride-ignored-image-reshaped-to-tiles",
                 f"In {where(context)}, the windows are the image's k x k tiles, cut by "
                 f"`image.reshape(H // k, k, W // k, k, C)` (a patch embedding's reshape, which "
                 f"stands for the convolution only when the stride is the kernel size and k "
                 f"tiles the image): `{stride}` is never used, so the output is (H // k, W // "
                 f"k, d) where (H - k) // {stride} + 1 rows and columns of windows belong, and "
                 f"numpy refuses the reshape wherever k does not tile the image. Slide the "
                 f"kernel by `{stride}`: window (i, j) starts at (i * {stride}, j * {stride}), "
                 f"and only the windows that fit are kept.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), [
                     copy.deepcopy(call.args[0]), copy.deepcopy(call.args[1])], []),
                 ((bound, image_as_tiles),))


OPERATORS = {"side_read_twice": side_read_twice, "stride_as_tiles": stride_as_tiles,
             "stride_ignored": stride_ignored}
