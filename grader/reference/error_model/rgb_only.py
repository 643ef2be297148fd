"""Operators on where a function takes its channel count: code written for RGB images writes
it as 3 (MAE's `patchify`, `imgs.reshape(N, 3, h, p, w, p)` and `p**2 * 3`; many torch
tutorials' `in_chans=3`), where the lecture reads it off the image, `H, W, C = image.shape`. Right
for RGB images; with any other number of channels (a gray image is one) numpy refuses a reshape
that asks for three. channels.py's `three_channel_rows` writes 3 in one reshape to rows; this
writes it where the count is read, so every step that uses it uses 3.

`conv_channels_as_rgb`: a convolution's loop over the channels fixed at 3, `for ch in
range(3)` (tahmid0007/VisionTransformer's `nn.Conv2d(3, dim, ...)` ported to loops, blind round
61's b61_02), each channel's window `img[..., ch]` met with `K[:, :, ch, :]`: right for RGB
images; with fewer channels (a gray image has 1) numpy's IndexError for channel index C,
"index 1 is out of bounds for axis 2 with size 1"; with more, the channels after the third are
never read.

Operators as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, code, where
from .tree import PREFIX
from .window_sites import strided_window_call

RGB = 3
CHANNELS = "C"  # the lecture's name for a channel count read off an image's shape


def _channels_read(node: ast.AST) -> str | None:
    """The array's code in `H, W, C = image.shape` (the channels the last name, `C`), else None."""
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Tuple) and node.targets[0].elts
            and all(isinstance(t, ast.Name) for t in node.targets[0].elts)
            and node.targets[0].elts[-1].id == CHANNELS
            and isinstance(node.value, ast.Attribute) and node.value.attr == "shape"):
        return None
    return code(node.value.value)


def _written_three(node: ast.Assign) -> ast.Assign:
    """`H, W, C = (*image.shape[:-1], 3)`: every other size read as before."""
    new = copy.copy(node)
    lead = ast.Subscript(copy.deepcopy(node.value), ast.Slice(None, ast.UnaryOp(
        ast.USub(), ast.Constant(1)), None), ast.Load())
    new.value = ast.Tuple([ast.Starred(lead, ast.Load()), ast.Constant(RGB)], ast.Load())
    return new


def channels_as_rgb(context: Context, node: ast.AST) -> Iterator[Change]:
    """The channel count of `H, W, C = image.shape` written as 3 (RGB) whatever the image has."""
    image = _channels_read(node)
    if image is None:
        return
    yield Change(f"{CHANNELS}-as-{RGB}",
                 f"In {where(context)}, the channel count is written as {RGB}, as code for RGB "
                 f"images hard-codes it (MAE's `patchify`: `reshape(3, h, p, w, p)`, "
                 f"`p ** 2 * 3`), where it is `{image}.shape`'s last number: right for an RGB "
                 f"image, but an image with any other number of channels (a gray one has 1, "
                 f"RGBA 4) cannot be cut into patches of {RGB} channels, and numpy refuses the "
                 f"reshape. Read the count off the image: `{code(node)}`.",
                 _written_three)


def three_channels_read(windows) -> np.ndarray:
    """`windows` [H', W', C, k, k] as a loop over channels `range(3)` reads them: the same for
    C == 3; the channels after the third left unread (zero) for more; for fewer, numpy's own
    IndexError for channel index C (of the image's and the kernel's channel axis, axis 2)."""
    windows = np.asarray(windows)
    channels = windows.shape[2]
    if channels < RGB:
        windows[:, :, channels]  # numpy's "index C is out of bounds for axis 2 with size C"
    read = windows.copy()
    read[:, :, RGB:] = 0
    return read


def conv_channels_as_rgb(context: Context, node: ast.AST) -> Iterator[Change]:
    """The convolution's channels looped over `range(3)` whatever the image has."""
    if strided_window_call(context, node) is None:
        return
    bound = f"{PREFIX}three_channels_read"
    yield Change(f"{node.value.id}-channels-as-{RGB}",
                 f"In {where(context)}, the loop over the channels runs over a fixed {RGB} "
                 f"channels (`for ch in range({RGB})`), as code written for RGB images does "
                 f"(`nn.Conv2d({RGB}, dim, ...)`), where it is the image's channel count C: "
                 f"right for an RGB image, but an image with fewer channels (a gray one has 1) "
                 f"has no channel C to read and indexing it raises IndexError, and with more "
                 f"(RGBA has 4) the channels after the third are never read. Loop over the "
                 f"image's channels: `range(image.shape[2])` (C of `H, W, C = image.shape`).",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), [n], []),
                 ((bound, three_channels_read),))


OPERATORS = {"channels_as_rgb": channels_as_rgb, "conv_channels_as_rgb": conv_channels_as_rgb}
