"""A weight matrix reshaped where its transpose belongs: `x @ W` (W stored (in, out), as the
lecture's `linear` takes it) computed as `x @ W.reshape(out, in).T`, the product a port of a
framework that stores weights (out, in) writes after forcing the lecture's weight into that
layout with a reshape (RECHE23/NumPy-Neural-Network's `Linear`, `np.reshape(W_e, (out, in))`
then `einsum("ij,kj->ik")`; blind round 65's b65_11). A reshape keeps the elements in their
order, so the weights are scrambled wherever the two sizes differ; on a square weight the
reshape changes nothing and the code is `x @ W.T`, operators.transpose's `W.T-added`, which
says so: this one is named only where a call multiplies by a weight whose sizes differ (both
above 1) and its value shows the edit (`_reshape_shown`).

Every product `x @ W` whose right operand the function's signature comment writes as a matrix
(`linear`'s `[d_in, d_out]`, so W_e, W_q, W_k, W_v, W_o, W1, W2 and W_head alike), in the
checked function or a helper of the reference's on the way to it that is no student-API function
(those have their own checks). An operator as in operators.py; the new code calls
`reshaped_for_transpose`, bound in the rewritten function's globals.
"""
from __future__ import annotations

import ast
import copy
import re
from collections.abc import Iterator
from contextvars import ContextVar

import numpy as np

from .change import Change, Context, code, slug, where
from .evidence import agree, fresh
from .tree import PREFIX
from .weights import bound, shape

# whether each weight reshaped while `_reshape_shown` runs had two different sizes, both above
# 1 (there the reshape is no transpose): one list per thread, as fixed.READ
SEEN: ContextVar[list | None] = ContextVar("reshaped_weights_seen", default=None)


def reshaped_for_transpose(W) -> np.ndarray:
    """`W.reshape(out, in).T` of a weight stored (..., in, out): the same shape as `W`, its
    elements read in another order unless the two sizes are equal (then `W.T`) or one is 1."""
    W = np.asarray(W)
    seen = SEEN.get()
    if seen is not None and W.ndim >= 2:
        seen.append(W.shape[-2] != W.shape[-1] and min(W.shape[-2:]) > 1)
    return W.reshape(*W.shape[:-2], W.shape[-1], W.shape[-2]).swapaxes(-1, -2)


def _reshape_shown(rewritten, calls, same) -> bool:
    """Whether on one of `calls` the rewrite's value is not the reference's and some weight it
    reshaped has two different sizes: else the reshape is a transpose (square) or nothing (a
    size of 1), and "reshaped where its transpose belongs" is not what these calls show."""
    for call in calls:
        seen: list = []
        token = SEEN.set(seen)
        try:
            value = rewritten(*fresh(call.args), **fresh(call.kwargs))
        except Exception:  # noqa: BLE001, S112 - a raise shows no reshape
            continue
        finally:
            SEEN.reset(token)
        if any(seen) and not agree(same, call.expected, value):
            return True
    return False


def _between_student_api(context: Context) -> bool:
    """Whether a student-API function other than the checked one lies on the way from it to
    the instance (its own checks grade it; its callers are graded with it answered)."""
    from grader.reference import REFERENCE  # the student API's own functions

    steps = context.instance.path.split("/")[1:-1]
    return any(re.sub(r"\.\d+$", "", step) in REFERENCE for step in steps)


def reshaped_weight(context: Context, node: ast.AST) -> Iterator[Change]:
    """`x @ W` as `x @ W.reshape(out, in).T`, W a matrix parameter (signature comment)."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult)
            and isinstance(node.right, ast.Name)) or _between_student_api(context):
        return
    own = shape(context.instance.function, node.right.id.removeprefix(PREFIX))
    if own is None:
        return
    weight = bound(context, node.right) or node.right
    name = code(weight)
    sizes = (shape(context.function, weight.id) if isinstance(weight, ast.Name)
             and context.instance.path.count("/") <= 1 else None) or own
    target = f"({sizes[1]}, {sizes[0]})"
    helper = f"{PREFIX}reshaped_for_transpose"

    def replaced(n: ast.BinOp) -> ast.BinOp:
        new = copy.copy(n)
        new.right = ast.Call(ast.Name(helper, ast.Load()), [n.right], [])
        return new

    tail = "a reshape keeps the elements in their order"
    yield Change(f"{slug(code(node.right))}.reshaped-for-T",
                 f"In {where(context)}, `{name}` is reshaped to {target} where its transpose "
                 f"belongs: {tail}; use `{name}.T`.",
                 replaced, ((helper, reshaped_for_transpose),), holds=_reshape_shown,
                 shared=(f"In {where(context)}, each weight is reshaped to (out, in) where its "
                         f"transpose belongs: {tail}, so the weights are scrambled wherever the "
                         f"two sizes differ; use its transpose (`W.T`)."))

OPERATORS = {"reshaped_weight": reshaped_weight}
