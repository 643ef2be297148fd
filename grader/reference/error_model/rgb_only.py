"""An operator on where a function takes its channel count: code written for RGB images writes
it as 3 (MAE's `patchify`, `imgs.reshape(N, 3, h, p, w, p)` and `p**2 * 3`; many torch
tutorials' `in_chans=3`), where the lecture reads it off the image, `H, W, C = image.shape`. Right
for RGB images; with any other number of channels (a gray image is one) numpy refuses a reshape
that asks for three. channels.py's `three_channel_rows` writes 3 in one reshape to rows; this
writes it where the count is read, so every step that uses it uses 3.

An operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, code, where

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


OPERATORS = {"channels_as_rgb": channels_as_rgb}
