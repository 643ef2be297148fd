"""Operators on a convolution whose image a port zero-pads first, where the lecture's convolution
is valid (no padding, (H - k) // stride + 1 outputs, every window inside the image):

- `pad_to_stride`: the image zero-padded up to a multiple of the stride, `pad = (s - H % s) %
  s` rows (and columns likewise), before the windows are taken. Flax and timm PatchEmbed code
  pads so (timm's `PatchEmbed(dynamic_img_pad=True)`, `pad_h = (p - H % p) % p` then `F.pad(x,
  (0, pad_w, 0, pad_h))`, all after; Flax ports that `jnp.pad` the same amount on both sides, or
  split it `pad // 2` before, the rest after), given the course's stride: each placement is its
  own detail. Right wherever the stride divides H and W (nothing is padded).
- `pad_unless_tiling`: TensorFlow's 'SAME' padding (ceil(H / stride) outputs, the padding split
  `pad // 2` before, the rest after) applied only when the kernel size differs from the stride
  (a Flax vision-transformer PatchEmbed's `patch_padding = 0 if patch_size == patch_stride else
  'SAME'`: the windows are padded only where they do not tile as patches). window_padding.py's
  `pad-same` pads always and so differs from this code where k == stride and the stride leaves
  rows over;
  said only where a call shows that (`_tiling_pad_skipped`), else the two read alike.

Both apply only at the `sliding_window_view` call whose windows the reference keeps every `s`-th,
`windows[::s, ::s]` (the convolution). Operators as in operators.py (`f(context, node) ->
iterator of Change`); a rewrite is named only where it reproduces every case the check ran.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, where
from .kernel_fit import convolution_sizes
from .tree import PREFIX
from .window_padding import padded
from .window_sites import strided_windows, window_call

PLACES = {  # detail -> ((before, after) of a total `pad`, the words for it)
    "both": (lambda pad: (pad, pad), "that many at the top and as many again at the bottom (and "
                                     "likewise at the left and the right)"),
    "end": (lambda pad: (0, pad), "all at the bottom and right, as some libraries "
                                  "do (timm's `F.pad(x, (0, pad_w, 0, pad_h))`)"),
    "split": (lambda pad: (pad // 2, pad - pad // 2), "split between the two sides, the extra one "
                                                      "at the end")}


def to_stride(image, window, stride: int, place: str) -> np.ndarray:
    """`image` [H, W, ...] zero-padded by (stride - H % stride) % stride rows (and columns
    likewise), placed as PLACES[place] says."""
    image = np.asarray(image)
    widths = [PLACES[place][0]((stride - side % stride) % stride) for side in image.shape[:2]]
    return np.pad(image, widths + [(0, 0)] * (image.ndim - 2))


def same_unless_tiling(image, window, stride: int) -> np.ndarray:
    """`image` zero-padded as TensorFlow's 'SAME' does (window_padding.padded's "same") when the
    window's sides differ from the stride; as it is when they equal it."""
    if all(k == stride for k in tuple(window)[:2]):
        return np.asarray(image)
    return padded(image, window, stride, "same")


def _tiling_pad_skipped(rewritten, calls, same) -> bool:
    """Whether one of `calls` (image, K, b, stride) has a kernel of the stride's size on an image
    the stride does not tile, where 'SAME' would pad and this code pads nothing: else the calls
    cannot tell it from 'SAME' padding applied always (window_padding.py's `pad-same`), and the
    sentence's "only when k == stride is nothing padded" is not seen."""
    for sides, kernel, s in filter(None, map(convolution_sizes, calls)):
        if s > 0 and all(k == s for k in kernel) and any(n % s for n in sides):
            return True
    return False


def _convolution_call(context: Context, node: ast.AST) -> tuple | None:
    """(the image, the window shape, the stride) at the `sliding_window_view` call whose
    windows the function keeps every `s`-th; else None."""
    if not (isinstance(node, ast.Call) and len(node.args) >= 2
            and getattr(node.func, "attr", getattr(node.func, "id", "")) == "sliding_window_view"):
        return None  # the cheap test first: no source unparsed
    strided = strided_windows(context.instance.node)
    if strided is None or window_call(context.instance.node, strided.value.id) is not node:
        return None
    return node.args[0], node.args[1], strided.slice.elts[0].step


def _padded_first(node: ast.Call, bound: str, stride: ast.AST, *more: ast.AST) -> ast.Call:
    new = copy.copy(node)
    new.args = [ast.Call(ast.Name(bound, ast.Load()), [
        node.args[0], copy.deepcopy(node.args[1]), copy.deepcopy(stride), *more], []),
        *node.args[1:]]
    return new


def pad_to_stride(context: Context, node: ast.AST) -> Iterator[Change]:
    """The image zero-padded up to a multiple of the stride before its windows are taken."""
    found = _convolution_call(context, node)
    if found is None:
        return
    _, _, stride = found
    bound = f"{PREFIX}to_stride"
    for place, (_, words) in PLACES.items():
        yield Change(f"pad-to-stride-multiple-{place}",
                     f"In {where(context)}, the image is zero-padded to a multiple of the "
                     f"stride before the kernel slides over it: (stride - H % stride) % stride "
                     f"rows and (stride - W % stride) % stride columns, {words}, as a patch "
                     f"embedding that pads the image until the stride divides it does. The "
                     f"lecture's convolution pads nothing: it reads only the windows that fit, "
                     f"(H - k) // stride + 1 of them down and (W - k) // stride + 1 across, and "
                     f"the rows or columns the stride leaves over are not read.",
                     lambda n, place=place: _padded_first(n, bound, stride, ast.Constant(place)),
                     ((bound, to_stride),))


def pad_unless_tiling(context: Context, node: ast.AST) -> Iterator[Change]:
    """TensorFlow 'SAME' padding applied only when the kernel size is not the stride."""
    found = _convolution_call(context, node)
    if found is None:
        return
    _, _, stride = found
    bound = f"{PREFIX}same_unless_tiling"
    yield Change("pad-same-unless-kernel-is-stride",
                 f"In {where(context)}, when the kernel size differs from the stride the image "
                 f"is zero-padded as TensorFlow's padding='SAME' does: ceil(H / stride) outputs "
                 f"down and ceil(W / stride) across, the padding split between the two sides, "
                 f"the extra one at the end (only when k == stride is nothing padded). The "
                 f"lecture's convolution is valid for every kernel and stride, without padding: "
                 f"(H - k) // stride + 1 outputs, every window inside the image.",
                 lambda n: _padded_first(n, bound, stride), ((bound, same_unless_tiling),),
                 holds=_tiling_pad_skipped)


OPERATORS = {"pad_to_stride": pad_to_stride, "pad_unless_tiling": pad_unless_tiling}
