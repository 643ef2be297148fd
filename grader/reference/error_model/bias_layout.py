"""An operator on the axis a convolution's bias is added along, in code ported from a
channels-first (NCHW) layout:

- `bias_channels_first`: the bias `b` (d,) added to the convolution's result while it is laid
  out channels first, (d, H', W') as torch holds one feature map, or (1, d, H', W') as a batch
  of one (ramisa2108/CNN-From-Scratch-With-Numpy's Convolution.forward, `Z = np.einsum('mchwij,
  ocij -> mohw', ...) + b`, then moved back to (H', W', d); numpy CNN ports of torch's Conv2d):
  numpy broadcasts `b` along the last axis, the width W', not the channels, where the source's
  bias of shape (d, 1, 1) went along the channels. numpy refuses it (its own broadcast error)
  unless W' == d, when column j gets b[j] in every channel, or W' == 1, when every channel gets
  every bias (a (H', d, d) result); right only for d == 1. The batch of one shows only in
  numpy's message: that reading is said only where a call raised, and the other says "or with a
  batch axis of one in front" (where the messages tell them apart, the student's is named).

Applied only at a bias added to a tensordot's result (the convolution's contraction). An
operator as in operators.py (`f(context, node) -> iterator of Change`); a rewrite is named only
where it reproduces every case the check ran.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, callee, code, where
from .tree import PREFIX
from .trial import Raised


def added_channels_first(result, bias, batched) -> np.ndarray:
    """`result + bias` with `result` [..., d] moved to channels first, [d, ...] (`batched`: [1,
    d, ...]), the sum numpy broadcasts there, then moved back: the bias along the last axis."""
    first = np.moveaxis(np.asarray(result), -1, 0)
    if batched:
        return np.moveaxis((first[None] + bias)[0], 0, -1)
    return np.moveaxis(first + bias, 0, -1)


def _raised(function, calls, same) -> bool:
    """Whether a call raised (only numpy's message shows a batch axis of one)."""
    return any(isinstance(c.got, Raised) for c in calls)


def bias_channels_first(context: Context, node: ast.AST) -> Iterator[Change]:
    """`np.tensordot(...) + b` as `b` added to the result laid out channels first."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
            and isinstance(node.right, ast.Name) and isinstance(node.left, ast.Call)
            and callee(node.left) == "tensordot"):
        return
    bias, bound = node.right.id, f"{PREFIX}added_channels_first"
    for batched, layout in ((False, "(d, H', W') as torch holds a feature map (or with a "
                             "batch axis of one in front)"),
                            (True, "(1, d, H', W'), an NCHW batch of one")):
        yield Change(
            f"{bias}-added-channels-first" + "-batch-of-one" * batched,
            f"In {where(context)}, the bias `{bias}` of `{code(node)}` is added while the "
            f"result is laid out channels first, {layout}: numpy lines `{bias}` up with the "
            f"last axis, the width W', not with the d channels (a channels-first layout "
            f"needs `{bias}[:, None, None]`): numpy refuses it for most sizes, and where "
            f"W' == d column j gets `{bias}[j]` in every channel. Add `{bias}` once the "
            f"result is (H', W', d), or reshape it to (d, 1, 1) first.",
            lambda n, batched=batched: ast.Call(ast.Name(bound, ast.Load()), [
                copy.deepcopy(n.left), copy.deepcopy(n.right), ast.Constant(batched)], []),
            ((bound, added_channels_first),), holds=_raised if batched else None)


OPERATORS = {"bias_channels_first": bias_channels_first}
