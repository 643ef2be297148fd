"""Operators on how many channels a step counts in a patch: code written for one-channel
(grayscale) images, such as the MNIST ViT tutorials, cuts each patch into `P * P` numbers,
`patches.reshape(-1, patch_size * patch_size)`, whatever C the image has. On an (H, W, C)
image that reshape still runs: each patch's `P * P * C` numbers come out as C rows of `P * P`,
so a gray image is right and an RGB one gets C times the rows, each a slice of a patch. And the
other way round, code written for RGB images reads the patch size off a weight's rows, which it
takes as `P * P * 3` (timm's PatchEmbed default `in_chans=3`, its `resample_patch_embed` reading
the patch size off a pretrained weight): `int(round(math.sqrt(W_e.shape[0] / 3)))` for the P it
is given, right for RGB images, another size for a gray one; or cuts each patch into
`P * P * 3` numbers, `patches.reshape(-1, 3 * P * P)` (tdiprima/transformer-attention's torch
patchify), right for RGB images only.

An operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
import math
from collections.abc import Iterator
from contextvars import ContextVar

import numpy as np

from .change import Change, Context, code, where
from .counts import squared_name
from .evidence import fresh, recorded, same_message
from .tree import PREFIX


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


def _row_per_patch(node: ast.AST) -> tuple[ast.AST, str] | None:
    """(the square, the channels) of a reshape to one row per patch, `x.reshape(N, P * P * C)`,
    else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "reshape" and not node.keywords and len(node.args) == 2
            and not any(isinstance(a, ast.Starred) for a in node.args)):
        return None
    return _patch_width(node.args[1])


def one_channel_rows(context: Context, node: ast.AST) -> Iterator[Change]:
    """A reshape to one row per patch, `x.reshape(N, P * P * C)`, written for one channel:
    `x.reshape(-1, P * P)` (the rows inferred), C rows of `P * P` numbers per patch."""
    width = _row_per_patch(node)
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


def _three_channels(node: ast.Call, square: ast.AST) -> ast.Call:
    new = copy.copy(node)
    new.args = [ast.UnaryOp(ast.USub(), ast.Constant(1)),
                ast.BinOp(copy.deepcopy(square), ast.Mult(), ast.Constant(RGB))]
    return new


def _numpy_refused(rewritten, calls, same) -> bool:
    """Whether each call the student's code raised on, numpy's refusal of the reshape raises it
    too, its very message (`evidence.same_message`): the sentence says numpy refuses, not a
    guard of the student's own."""
    for call in calls:
        message = getattr(call.got, "message", None)
        if not isinstance(message, str):
            continue
        try:
            rewritten(*fresh(call.args), **fresh(call.kwargs))
        except Exception as error:  # noqa: BLE001 - the rewrite's raise, compared by message
            if not same_message(str(error), message):
                return False
            continue
        return False
    return True


def three_channel_rows(context: Context, node: ast.AST) -> Iterator[Change]:
    """A reshape to one row per patch, `x.reshape(N, P * P * C)`, written for RGB images:
    `x.reshape(-1, P * P * 3)` (tdiprima/transformer-attention's torch patchify, `patches.
    reshape(-1, 3 * P * P)`; timm's `in_chans=3` default): right for 3 channels only."""
    width = _row_per_patch(node)
    if width is None:
        return
    square, channels = width
    written = code(_three_channels(node, square))
    yield Change(f"{channels}-as-{RGB}-in-rows",
                 f"In {where(context)}, `{code(node)}` is written `{written}`, as code for RGB "
                 f"images counts {RGB} channels in a patch (a torch tutorial's `reshape(-1, 3 * "
                 f"P * P)`, timm's `in_chans=3` default): that is right for an RGB image, but "
                 f"with another number of channels numpy refuses the reshape or cuts the patches "
                 f"into rows of the wrong length. A patch of {channels} channels is one row of "
                 f"`{code(node.args[1])}` numbers: `{code(node)}`.",
                 lambda n, s=square: _three_channels(n, s), holds=_numpy_refused)


RGB = 3  # the channels code written for RGB images assumes
ROUNDINGS = {"rounded": ("int(round(math.sqrt({} / 3)))", round),
             "floored": ("int(math.sqrt({} / 3))", math.floor)}
# whether a size rounding tells apart was read, while `_told_apart` runs: one list per thread (a
# class's submissions may be graded in threads of one process), and none outside it
TOLD: ContextVar[list | None] = ContextVar("patch_from_weight_told", default=None)


def patch_from_rows(W: np.ndarray, rounding: str) -> int:
    """The patch size read off the rows of `W`, taken as P * P * 3: the square root of a third of
    them, rounded or floored (ROUNDINGS); noted in TOLD, while it is asked, where the two differ."""
    side = math.sqrt(np.shape(W)[0] / RGB)
    told = TOLD.get()
    if told is not None and round(side) != math.floor(side):
        told.append(True)
    return int(ROUNDINGS[rounding][1](side))


def _told_apart(rewritten, calls, same) -> bool:
    """Whether the rewritten function, run on `calls`, read a size off a weight whose rounded
    and floored square roots differ: only there do the calls show which the code does."""
    return bool(recorded(TOLD, rewritten, calls))


def _patch_argument(node: ast.AST, parameters: set[str]) -> tuple[int, ast.Name] | None:
    """(the index of P among the inner call's arguments, the weight) of `linear(f(image, P), W,
    b)`: a step's output multiplied by a weight parameter, the step given the parameter P."""
    if not (isinstance(node, ast.Call) and len(node.args) >= 2
            and isinstance(node.args[0], ast.Call) and isinstance(node.args[1], ast.Name)
            and node.args[1].id in parameters):
        return None
    found = [i for i, a in enumerate(node.args[0].args)
             if isinstance(a, ast.Name) and a.id == "P" and a.id in parameters]
    return (found[0], node.args[1]) if len(found) == 1 else None


def patch_from_weight(context: Context, node: ast.AST) -> Iterator[Change]:
    """The patch size given to the step that cuts the patches read off the weight's rows as if
    the image were RGB, `int(round(math.sqrt(W_e.shape[0] / 3)))`, where the parameter P
    belongs: `linear(patchify(image, P), W_e, b_e)` in a function given P and W_e. Rounded or
    floored, each said only where the calls tell them apart; else one edit says neither."""
    parameters = {a.arg for a in context.instance.node.args.args}
    found = _patch_argument(node, parameters)
    if found is None:
        return
    index, weight = found
    bound = f"{PREFIX}patch_from_rows"
    readings = {"": ("`math.sqrt(" + f"{weight.id}.shape[0] / 3)` made a whole number",
                     "rounded", lambda *a: not _told_apart(*a))}
    for rounding, (written, _) in ROUNDINGS.items():
        readings[f"-{rounding}"] = (f"`{written.format(f'{weight.id}.shape[0]')}`", rounding,
                                    _told_apart)
    for suffix, (read, rounding, holds) in readings.items():

        def edit(n, index=index, rounding=rounding):
            inner = copy.copy(n.args[0])
            inner.args = list(inner.args)
            inner.args[index] = ast.Call(ast.Name(bound, ast.Load()),
                                         [copy.deepcopy(n.args[1]), ast.Constant(rounding)], [])
            new = copy.copy(n)
            new.args = [inner, *n.args[1:]]
            return new

        yield Change(f"P-read-off-{weight.id}-as-rgb{suffix}",
                     f"In {where(context)}, the patch size given to `{code(node.args[0])}` is "
                     f"not `P` but read off the rows of `{weight.id}` as if every image had 3 "
                     f"channels, {read} (timm's PatchEmbed default in_chans=3, as code that "
                     f"reads the patch size off a pretrained RGB weight does): right for RGB "
                     f"images, but `{weight.id}` has P * P * C rows for any C, so for a gray "
                     f"image the size read is another. Use the `P` you are given.",
                     edit, ((bound, patch_from_rows),), holds=holds)


OPERATORS = {"one_channel_rows": one_channel_rows, "three_channel_rows": three_channel_rows,
             "patch_from_weight": patch_from_weight}
