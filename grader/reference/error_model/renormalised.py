"""A normalisation over another axis than its own, its weights then divided by their sums over
the right one: EANet's external attention (`attn.softmax(dim=-2)`, then `attn / attn.sum(dim=-1,
keepdim=True)`, its "double normalisation") ported into the lecture's attention, where one
softmax over the keys (the last axis) belongs (blind round 80's b80_06). Each rewrite is one of
`operators.axis`'s edits of a call of a helper that normalises along an axis (its output sums to
1 along it: `normalises`), the result then divided by its sums over the helper's own axis. After
the right normalisation the division changes nothing, and after one over the whole array it
gives the right values back: neither is made. The sums may have a small constant added
(EANet's `1e-9 + attn.sum(...)`), which shows where a row's weights are all tiny (scores far
apart): each of `ADDED` is tried, the sentence stating none (the calls may not tell it).

The search tries these rewrites only where no other single or pair reproduces the calls
(`LATE`, error_model.search): they show on few submissions, and every failed check's search of
a function with a softmax inside would pay for them otherwise. Their detail is the axis
operator's (`softmax.axis=-2`), so that two axes that are one axis of the array on the calls
are one claim (aliases.py). An operator as in operators.py (`f(context, node) -> iterator of
Change`).
"""
from __future__ import annotations

import ast
import functools
import warnings
from collections.abc import Callable, Iterator

import numpy as np

from .change import EFFECT, Change, Context, callee, code, keyword, literal, where
from .given_axes import THEIRS, given_array
from .operators import axis, default_axis
from .tree import PREFIX

BOUND = f"{PREFIX}divided_by_sums"
PROBE = (2, 3, 4)  # an array every axis of which tells the others apart
ADDED = (0.0, 1e-9, 1e-12, 1e-8, 1e-6)  # constants added to the sums: 0, then EANet's 1e-9


def divided_by_sums(weights, axis, added=0.0):  # [...] -> [...], each slice along `axis` sums to 1
    """`weights / (weights.sum(axis, keepdims=True) + added)`: the second normalisation."""
    return weights / (np.sum(weights, axis=axis, keepdims=True) + added)


@functools.lru_cache(maxsize=64)
def normalises(function: Callable, along: int) -> bool:
    """Whether `function(x)` sums to 1 along `along` on a probe array of x's shape: a
    normalisation (a softmax), whose result a division by its sums there leaves as it is."""
    probe = np.random.default_rng(0).normal(size=PROBE)
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            out = np.asarray(function(probe), dtype=float)
    except Exception:  # noqa: BLE001 - a helper that takes no such array normalises nothing
        return False
    return out.shape == probe.shape and bool(np.allclose(out.sum(axis=along), 1.0))


def _own_axis(context: Context, node: ast.Call) -> int | None:
    """The axis a call of a helper normalises along: its literal `axis=` or the helper's
    default; None where it is no helper of the reference's or not a number."""
    child = context.instance.children.get(getattr(node.func, "id", None))
    if child is None:
        return None
    given = [literal(k.value) for k in node.keywords if k.arg == "axis"]
    own = given[0] if given else default_axis(context, node)
    if type(own) is not int or not normalises(child.function, own):
        return None
    return own


def renormalised(context: Context, node: ast.AST) -> Iterator[Change]:
    """`softmax(scores)` taken over another axis (`operators.axis`'s edit), then divided by its
    sums over the softmax's own axis: each row sums to 1 again, but its weights are not the
    softmax over that axis."""
    if not isinstance(node, ast.Call) or (own := _own_axis(context, node)) is None:
        return
    mine = given_array(context, node)
    defaulted = not any(k.arg == "axis" for k in node.keywords)
    shown = (f"axis {own}, the default of `{callee(node)}`" if defaulted else f"axis {own}")
    for change in axis(context, node):
        moved = change.replace(node)
        new = literal(keyword(moved, "axis"))
        if type(new) is not int or new == own:
            continue  # the whole array: divided by the rows' sums, the right values again
        over = f"axis {new}" + ("" if mine or new < 0 else THEIRS)
        for added in ADDED:
            yield _twice(context, node, change, moved, f"over {over}", own, shown, added)


def _twice(context: Context, node: ast.Call, change: Change, moved: ast.Call, over: str,
           own: int, shown: str, added: float) -> Change:
    """`change` (the call over another axis), its result then divided by its sums over `own`
    plus `added`."""
    def twice(n: ast.Call) -> ast.Call:
        return ast.Call(ast.Name(BOUND, ast.Load()),
                        [change.replace(n), ast.Constant(own), ast.Constant(added)], [])

    sums = f"w.sum(axis={own}, keepdims=True)"
    plus, divisor = ((" plus a small constant", f"({sums} + eps)") if added else ("", sums))
    detail = change.detail if not added else change.detail.replace(
        ".axis=", f"-plus-{added:g}.axis=", 1)
    return Change(detail,
                  f"In {where(context)}, your values are the model solution's with "
                  f"`{code(node)}` taken {over} and then divided by its sums over axis {own}"
                  f"{plus}, {EFFECT}`w = {code(moved)}` then `w / {divisor}` (a second "
                  "normalisation, as EANet's external attention makes), instead of one "
                  f"`{callee(node)}` over {shown}: the division makes each slice sum to 1 again, "
                  "but its weights stay those of the other axis (your code works along that "
                  "axis, or along the right one of an array whose axes are in another order "
                  f"than the lecture's). Normalise over axis {own} alone.",
                  twice, ((BOUND, divided_by_sums),))


OPERATORS = {"renormalised": renormalised}
LATE = frozenset(OPERATORS)  # tried only where nothing else reproduces the calls
