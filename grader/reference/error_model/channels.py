"""Operators on how many channels a step counts in a patch: code written for one-channel
(grayscale) images, such as the MNIST ViT tutorials, cuts each patch into `P * P` numbers,
`patches.reshape(-1, patch_size * patch_size)`, whatever C the image has. On an (H, W, C)
image that reshape still runs: each patch's `P * P * C` numbers come out as C rows of `P * P`,
so a gray image is right and an RGB one gets C times the rows, each a slice of a patch.

An operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, code, where
from .counts import squared_name


def _patch_width(node: ast.AST) -> tuple[ast.AST, str] | None:
    """(the square, the channels' name) of a width `P * P * C`, else None."""
    if (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)
            and isinstance(node.right, ast.Name) and squared_name(node.left) is not None
            and node.right.id != squared_name(node.left)):
        return node.left, node.right.id
    return None


def _one_channel(node: ast.Call, square: ast.AST) -> ast.Call:
    new = copy.copy(node)
    new.args = [ast.UnaryOp(ast.USub(), ast.Constant(1)), square]
    return new


def one_channel_rows(context: Context, node: ast.AST) -> Iterator[Change]:
    """A reshape to one row per patch, `x.reshape(N, P * P * C)`, written for one channel:
    `x.reshape(-1, P * P)` (the rows inferred), C rows of `P * P` numbers per patch."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "reshape" and not node.keywords and len(node.args) == 2
            and not any(isinstance(a, ast.Starred) for a in node.args)):
        return
    width = _patch_width(node.args[1])
    if width is None:
        return
    square, channels = width
    written = code(_one_channel(node, square))
    yield Change(f"{channels}-left-out-of-rows",
                 f"In {where(context)}, `{code(node)}` is written `{written}`, as code for "
                 f"one-channel (grayscale) images cuts a patch into `{code(square)}` numbers: "
                 f"that is right for a gray image, but with {channels} channels each patch comes "
                 f"out as {channels} rows, each a slice of it. A patch of {channels} channels is "
                 f"one row of `{code(node.args[1])}` numbers: `{code(node)}`.",
                 lambda n, s=square: _one_channel(n, s))


OPERATORS = {"one_channel_rows": one_channel_rows}
