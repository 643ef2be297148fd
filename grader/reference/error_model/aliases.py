"""Which rewrites found by one search are aliases: the same values at the same places, told
the first way (the error model's search, __init__.py; issue 38: never a wrong hint).

A reduction's axis is one such value only where the two axes are one axis of the array it
reduces: 1 and -1 of a 2-D array, 0 and the whole array of a 1-D one. Axis 0 and the whole
array of a 2-D one are two claims (blind round 76's b76_11: a global `x.max()` told "taken over
axis 0" sends the student looking for an `axis=0` the code does not have), even where the
calls cannot tell them apart: then they are no aliases, and the search's rule for several
rewrites decides. The array's number of axes is read on the calls themselves, by running each
rewrite with a probe around the reduced array (`reduced_ndims`); where it is not known (the
probe never ran), different axis texts are different axes.
"""
from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Callable
from contextvars import ContextVar

import numpy as np

from .constants import same_eps
from .evidence import recorded
from .fused import reading
from .given_axes import reduced_operand
from .modules import ALIKE_OPERATORS, AXIS_OPERATORS
from .tree import PREFIX, Edit, Instance, compile_with
from .windows import CLIPPED

# operators.axis's detail (and every AXIS_OPERATORS one's, modules.py) ends `.axis=<int or
# None>`, numbered or not
_AXIS_DETAIL = re.compile(r"\.axis=(None|-?\d+)(?:\.\d+)?$")
SEEN: ContextVar[list | None] = ContextVar("aliases_reduced_ndims", default=None)


def axis_of(detail: str) -> tuple[bool, int | None]:
    """(whether the detail is an axis edit's, its axis: None for the whole array)."""
    matched = _AXIS_DETAIL.search(detail)
    if matched is None:
        return False, None
    text = matched.group(1)
    return True, None if text == "None" else int(text)


def axes_reduced(axis: int | None, ndim: int) -> frozenset | tuple:
    """The axes of an `ndim`-D array that `axis` reduces, negative ones counted from the end;
    an axis out of range as itself (numpy refuses it: no other axis is the same)."""
    if axis is None:
        return frozenset(range(ndim))
    if -ndim <= axis < ndim:
        return frozenset((axis % ndim,))
    return ("out of range", axis)


def _seen(tag: int) -> Callable:
    """The probe's function: records (tag, the array's number of axes), returns the array."""
    def seen(array):
        kept = SEEN.get()
        if kept is not None:
            kept.append((tag, np.ndim(array)))
        return array
    return seen


def _probe(edit: Edit, tag: int) -> Edit:
    """An edit at `edit`'s places that wraps the array its reduction takes in a recorder, after
    `edit` itself (applied in the group's order); a node whose array is no argument is kept
    as it is (nothing recorded: not known)."""
    bound = f"{PREFIX}reduced_ndim_{tag}"

    def wrap(node: ast.AST) -> ast.AST:
        operand = reduced_operand(node) if isinstance(node, ast.Call) else None
        if operand is None:
            return node
        wrapped = ast.Call(ast.Name(bound, ast.Load()), [operand], [])
        new = ast.Call(node.func, list(node.args), list(node.keywords))
        if isinstance(node.func, ast.Attribute) and node.func.value is operand:
            new.func = ast.Attribute(wrapped, node.func.attr, ast.Load())
        else:
            new.args[0] = wrapped
        return new

    return Edit(f"probe-{tag}", edit.site, f"reduced-ndim-{tag}", "", wrap,
                names=((bound, _seen(tag)),), also=edit.also)


def reduced_ndims(root: Instance, group: list[Edit], calls: list) -> dict[str, set[int]]:
    """Each axis edit's name in `group` -> the numbers of axes of the arrays its reduction took
    while the group's rewrite ran on `calls` (empty: never reached, or not known)."""
    axes = [edit for edit in group if edit.operator in AXIS_OPERATORS]
    if not axes:
        return {}
    probes = [_probe(edit, tag) for tag, edit in enumerate(axes)]
    try:
        rewritten = compile_with(root, [*group, *probes])
    except (SyntaxError, ValueError, TypeError, AttributeError, IndexError):
        return {edit.name: set() for edit in axes}
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        seen = recorded(SEEN, rewritten, calls)
    return {edit.name: {ndim for tag, ndim in seen if tag == at} for at, edit in enumerate(axes)}


def same_axis(edit: Edit, other: Edit, ndims: set[int]) -> bool:
    """Whether two axis edits at one place reduce the same axes of every array seen there
    (`ndims`); none seen: whether they say the same axis."""
    if edit.detail == other.detail:
        return True
    (is_axis, axis), (other_is_axis, other_axis) = axis_of(edit.detail), axis_of(other.detail)
    if not (is_axis and other_is_axis) or not ndims:
        return False
    return all(axes_reduced(axis, n) == axes_reduced(other_axis, n) for n in ndims)


def aliases(found: list[list[Edit]], root: Instance, calls: list) -> bool:
    """Whether every rewrite found sets the same values at the same places to values these
    inputs cannot tell apart: a reduction's axis that is one axis of the array it reduces on
    these calls (1 and -1 on 2-D, `same_axis`), eps (1e-12 and 0 off a tiny variance; a
    function's or one call's, `same_eps`), readings these inputs do not reach (windows.CLIPPED;
    fused.reading, 1-D), a one-pass variance's sums two ways, a clip's or a floored max's
    bounds (modules.ALIKE_OPERATORS): said the first way."""
    first = found[0]
    ndims: dict[int, dict[str, set[int]]] = {}  # id of a group -> its axis edits' arrays

    def seen(group: list[Edit]) -> dict[str, set[int]]:
        if id(group) not in ndims:
            ndims[id(group)] = reduced_ndims(root, group, calls)
        return ndims[id(group)]

    def alike(group: list[Edit], edit: Edit, other: Edit) -> bool:
        if edit.operator == other.operator == "one_pass" or same_eps(edit, other):
            return edit.site.path == other.site.path
        if edit.site != other.site or edit.operator != other.operator:
            return False
        if edit.operator in AXIS_OPERATORS:
            return edit.detail == other.detail or same_axis(
                edit, other, seen(group).get(edit.name, set()) | seen(first).get(other.name, set()))
        return (edit.operator in ALIKE_OPERATORS
                or edit.detail.startswith("eps=")
                or reading(edit.detail.removesuffix(CLIPPED))
                == reading(other.detail.removesuffix(CLIPPED)))

    return all(len(group) == len(first)
               and all(alike(group, e, o) for e, o in zip(group, first, strict=True))
               for group in found)
