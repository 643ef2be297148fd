"""An operator on the axis a helper that reduces along `axis` (softmax) is given: a positive index
written for one 2-D map, `axis=1` (the keys of one head's (T, T) scores), kept when the maps of
several heads are stacked (heads, T, T), where axis 1 is the queries' (`one_map_axis`).
Kaushalya/jax_playground's layers.py `attention` (`jax.nn.softmax(score, axis=1)`), used on 2-D
q, k, v by `create_attention` and on (heads, T, d_k) ones by `create_fast_attention`; Chainer's
`F.softmax(x, axis=1)` default and CS231n-style `e / e.sum(axis=1, keepdims=True)` carried from a
2-D exercise into batched attention. The code holds one map 2-D (one head: no heads axis), so it
is right with one head and wrong with several: `operators.axis`'s `axis=1` on the lecture's
always-stacked scores is wrong with one head too, and this one is said only where a call shows
the difference (a one-head call of T > 1 tokens on which it is right: `holds`). Only at a call of
a helper the checked function calls itself or through one helper (`near_checked`): few sites.
An operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
import inspect
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, callee, code, near_checked, where, with_keyword
from .evidence import agree
from .tree import PREFIX

WRITTEN = 1  # the index written for one 2-D map: its last axis (the keys of a (T, T) map)
SEEN = {"lone": False}  # set by `map_axis`: a lone map of more than one column (read by `holds`)


def map_axis(x, axis: int = WRITTEN) -> int:
    """`axis` of `x` as code that holds a lone map 2-D reads it: the leading axes of size 1 (one
    head, one sample) are not there, so `axis` counts from the first axis after them."""
    x = np.asarray(x)
    lead = 0
    while x.ndim - lead > 2 and x.shape[lead] == 1:
        lead += 1
    if lead and x.shape[-1] > 1:
        SEEN["lone"] = True
    return lead + axis


def _default(context: Context, node: ast.Call) -> int | None:
    """The default `axis` of the helper `node` calls with one argument and no axis, else None."""
    child = context.instance.children.get(getattr(node.func, "id", None))
    if child is None or len(node.args) != 1 or node.keywords:
        return None
    parameter = inspect.signature(child.function).parameters.get("axis")
    default = None if parameter is None else parameter.default
    return default if default == -1 and not isinstance(default, bool) else None


def _holds(function, calls, same) -> bool:
    """Some call where the one-map reading is right and differs from the stacked one (a lone
    map of T > 1 tokens): there the code's axis 1 is the keys'."""
    for call in calls:
        SEEN["lone"] = False
        try:
            value = function(*call.args, **call.kwargs)
        except Exception:  # noqa: BLE001 - a raise is no evidence either way
            continue
        if SEEN["lone"] and agree(same, call.expected, value):
            return True
    return False


def one_map_axis(context: Context, node: ast.AST) -> Iterator[Change]:
    """`softmax(scores)` (over the last axis) given `axis=1` as code written for one (T, T) map
    reads it: the keys of one head's map, the queries of stacked heads' maps."""
    if not (isinstance(node, ast.Call) and near_checked(context)
            and "/" in context.instance.path and _default(context, node) is not None):
        return
    bound, name = f"{PREFIX}map_axis", callee(node)

    def given(n: ast.Call) -> ast.Call:
        axis = ast.Call(ast.Name(bound, ast.Load()), [copy.deepcopy(n.args[0])], [])
        return with_keyword(n, "axis", axis)

    yield Change(f"{name}.axis={WRITTEN}-of-one-map",
                 f"In {where(context)}, `{name}` is taken over axis {WRITTEN}, "
                 f"`{code(with_keyword(node, 'axis', ast.Constant(WRITTEN)))}`: the last axis "
                 "(the keys) of one head's 2-D (T, T) map, but of the heads' maps stacked "
                 f"(heads, T, T) axis {WRITTEN} is the queries: right with one head, wrong "
                 f"with several. The keys are the last axis whatever the rank: `axis=-1`.",
                 given, ((bound, map_axis),), holds=_holds)


OPERATORS = {"one_map_axis": one_map_axis}  # tried after affine.OPERATORS
