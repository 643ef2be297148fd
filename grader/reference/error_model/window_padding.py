"""The windowed step's padding operator: the image zero-padded before its windows are taken
('SAME', k // 2, k - 1, a pooling's ceil_mode, one row and column before a strided
convolution), where the lecture's convolution is valid. An operator as in operators.py,
listed in windows.py's OPERATORS (`padding`); `padded` computes the padded image.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, code, where
from .tree import PREFIX
from .window_sites import strided_axes

PADDINGS = {  # mode -> (how the student pads, where the padding goes)
    "same": ("as TensorFlow's padding='SAME' does: ceil(H / stride) outputs", "split between the "
             "two sides, the extra one at the end"),
    "same-end": ("to ceil(H / stride) outputs (TensorFlow's 'SAME' count)", "all at the bottom "
                 "and right"),
    "half-kernel": ("by k // 2 on every side (PyTorch's padding=k // 2)", "on both sides"),
    "kernel-less-one": ("by k - 1 rows and columns whatever the stride (the 'SAME' of a stride-1 "
                        "convolution, as TVM's get_pad_tuple pads): (H - 1) // stride + 1 "
                        "outputs", "k // 2 at the top and left, the rest at the bottom and right"),
    "kernel-less-one-end": ("by k - 1 rows and columns whatever the stride (the 'SAME' of a "
                            "stride-1 convolution, as Sonnet's pad.same pads): (H - 1) // "
                            "stride + 1 outputs", "(k - 1) // 2 at the top and left, the rest "
                            "(k // 2) at the bottom and right"),
    "ceil": ("to ceil((H - k) / stride) + 1 outputs (a pooling's ceil_mode): a last window "
             "that runs off the image", "at the bottom and right"),
    "one-end": ("by one row and one column before a strided convolution (stride > 1: as Stable "
                "Diffusion's Downsample pads, (0, 1, 0, 1), before its stride-2 one)",
                "at the bottom and right")}


FIXED = {"half-kernel": lambda k, stride: (k // 2, k // 2),  # (before, after) whatever H is
         "kernel-less-one": lambda k, stride: (k // 2, k - 1 - k // 2),
         "kernel-less-one-end": lambda k, stride: ((k - 1) // 2, k // 2),
         "one-end": lambda k, stride: (0, int(stride > 1))}


def padded(image: np.ndarray, window, stride: int, mode: str) -> np.ndarray:
    """`image` [H, W, C] zero-padded on its first two axes as PADDINGS[mode] says, for a
    `window` (k, k) sliding by `stride`."""
    image = np.asarray(image)
    widths = []
    for side, k in zip(image.shape[:2], tuple(window)[:2], strict=True):
        if mode in FIXED:
            widths.append(FIXED[mode](k, stride))
            continue
        outputs = -(-(side - k) // stride) + 1 if mode == "ceil" else -(-side // stride)
        total = max((outputs - 1) * stride + k - side, 0)
        widths.append((total // 2, total - total // 2) if mode == "same" else (0, total))
    return np.pad(image, widths + [(0, 0)] * (image.ndim - 2))


def padding(context: Context, node: ast.AST) -> Iterator[Change]:
    """The image zero-padded before its windows are taken ('SAME' or k // 2), where the
    lecture's convolution is valid (no padding, (H - k) // stride + 1 outputs): a stride or
    padding changed, the issue's last operator. Right where the padding is nothing (a kernel
    that tiles the image with its own stride)."""
    if not (isinstance(node, ast.Call) and code(node.func).endswith("sliding_window_view")
            and len(node.args) >= 2):
        return
    function = context.instance.node
    strided = next((sub for sub in ast.walk(function) if strided_axes(sub) == [0, 1]), None)
    if strided is None:
        return
    bound, stride = f"{PREFIX}padded", strided.slice.elts[0].step
    for mode, (how, placed) in PADDINGS.items():
        yield Change(f"pad-{mode}",
                     f"In {where(context)}, the image is zero-padded {how}, {placed}; the "
                     f"lecture's convolution is valid, without padding: (H - k) // stride + 1 "
                     f"outputs, every window inside the image.",
                     lambda n, mode=mode: _with_first_padded(n, bound, stride, mode),
                     ((bound, padded),))


def _with_first_padded(node: ast.Call, bound: str, stride: ast.AST, mode: str) -> ast.Call:
    new = copy.copy(node)
    new.args = [ast.Call(ast.Name(bound, ast.Load()),
                         [node.args[0], copy.deepcopy(node.args[1]), copy.deepcopy(stride),
                          ast.Constant(mode)], []), *node.args[1:]]
    return new
