"""Right values read in another layout (issue 38; blind round 81's b81_07): a result whose flat
buffer is read with its axes, in two groups, the other way round and then transposed back.
torchvision's `_process_input` makes tokens of a channels-first convolution's (d, n_h, n_w) with
`x.reshape(d, n_h * n_w)` and a transpose; numpy code whose convolution is channels last, (n_h,
n_w, d), and that copies those lines reads the (N, d) tokens' buffer as (d, N) and transposes
it: every value right, most in another place (READ_TRANSPOSED). Its inverse, TRANSPOSED_READ, is
the values transposed and their buffer read back, `r.T.reshape(A, B)`: values laid out features
first, reshaped where a transpose belongs.

`relaid(result, check, ran, others)` names the one of the two, at the one split of the result's
axes into a leading group (A, their product) and a trailing one (B), that gives the student's
value from the expected one on every case the check ran (a refusal that was due, given), and
keeps the function's other checks' right cases right. Named only where a case that failed tells
it from a plain transpose: A and B above 1 and unequal there (of an (n, n) result the buffer
read as (n, n) and transposed is `.T`, which value_observations says as axes reordered). A few
reshapes of the expected values: no reference runs. Tried where the error model named nothing
(kinds/call.py).
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from ..compare import agrees, default_compare
from ..results import FAILED, MISTAKE
from .mistakes import THIN
from .value_observations import reorderings

READ_TRANSPOSED = "buffer_read_transposed"  # r.reshape(B, A).T: b81_07's tokens
TRANSPOSED_READ = "transposed_buffer_read"  # r.T.reshape(A, B)
FORMS = (READ_TRANSPOSED, TRANSPOSED_READ)
TITLES = {READ_TRANSPOSED: "right values, their buffer read as (B, A) and transposed",
          TRANSPOSED_READ: "right values, transposed and their buffer read as (A, B)"}
MOST_AXES = 4  # results of more axes are not tried (as value_observations' shapes)


def groups(shape: tuple, split: int) -> tuple[int, int]:
    """(A, B): the sizes of `shape`'s axes before `split` and from it on, multiplied."""
    return math.prod(shape[:split]), math.prod(shape[split:])


def moved(value: np.ndarray, split: int, form: str) -> np.ndarray:
    """`value` [A..., B...] as `form` lays it out: its buffer read as (B, A) and transposed
    (READ_TRANSPOSED), or transposed to (B, A) and its buffer read as (A, B); same shape."""
    rows, columns = groups(value.shape, split)
    if form == READ_TRANSPOSED:
        return value.reshape(columns, rows).T.reshape(value.shape)
    return value.reshape(rows, columns).T.reshape(value.shape)


def _array(value) -> bool:
    return (isinstance(value, np.ndarray) and 2 <= value.ndim <= MOST_AXES
            and np.issubdtype(value.dtype, np.number) and bool(np.isfinite(value).all()))


def _values(check, cases, strict: bool) -> list | None:
    """(expected, got, comparison) of each case of `cases` ((planned case, outcome) pairs) that
    returned an array where one was due; None, when `strict`, where a case did something no
    layout of the expected value gives (raised, returned where a refusal was due, another
    shape); such a case is left out otherwise."""
    found = []
    for planned, outcome in cases:
        expected, raises = planned.expectation()
        if raises is not None:
            if strict and not (outcome.status == "raised" and outcome.error.type == raises):
                return None
            continue
        got = outcome.value if outcome.status == "ok" else None
        if not (_array(expected) and isinstance(got, np.ndarray) and got.shape == expected.shape
                and np.issubdtype(got.dtype, np.number)):
            if strict:
                return None
            continue
        found.append((expected, got, check.compare or default_compare(expected)))
    return found


def _reproduces(split: int, form: str, cases: list) -> bool:
    return all(expected.ndim > split and agrees(moved(expected, split, form), got, how)
               for expected, got, how in cases)


def _tells(split: int, cases: list) -> list:
    """The failed cases where the layout is no plain transpose: A and B above 1 and unequal."""
    return [(expected, got, how) for expected, got, how in cases
            if not agrees(expected, got, how)
            and min(groups(expected.shape, split)) > 1
            and len(set(groups(expected.shape, split))) == 2]


def _permuted(cases: list) -> bool:
    """Whether one reordering of the axes (not all in place) gives every failed case's value:
    then that is what the values show (value_observations), not a buffer's layout."""
    orders = [set(reorderings(e, g, h)) for e, g, h in cases if not agrees(e, g, h)]
    return bool(set.intersection(*orders))


def relaid(result, check, ran: list, others: list = (), wrong: list = ()):
    """`result` naming the layout (READ_TRANSPOSED or TRANSPOSED_READ, at one split of the
    axes) that gives the student's value from the expected one on every case of `ran`, and
    keeps `others` (the function's other checks' right cases) right, where a failed case
    tells it from a plain transpose; else `result` as it is. A check of fewer than THIN values
    (a worked example) names it only where it gives `wrong` too (the function's other checks'
    failed cases): a few structured values may fit it by chance. A mistake named already
    stays."""
    if (result.status != FAILED or result.misconception or result.hint_kind == MISTAKE
            or getattr(check, "integration", False)):
        return result
    cases = _values(check, ran, strict=True)
    if not cases or all(agrees(e, g, h) for e, g, h in cases):
        return result
    kept = [(e, g, h) for e, g, h in _values(check, others, strict=False)
            if agrees(e, g, h)]
    if len(cases) < THIN and wrong:
        elsewhere = _values(check, wrong, strict=True)
        if elsewhere is None:  # a raise or a shape no layout of the expected values gives
            return result
        kept += elsewhere
    ndim = max(expected.ndim for expected, _, _ in cases)
    found = [(split, form) for split in range(1, ndim) for form in FORMS
             if _tells(split, cases) and _reproduces(split, form, cases)
             and _reproduces(split, form, kept)]
    distinct = [(split, form) for i, (split, form) in enumerate(found)
                if not any(form == f and all(groups(e.shape, split) == groups(e.shape, s)
                                             for e, _, _ in cases) for s, f in found[:i])]
    if len(distinct) != 1 or _permuted(cases):
        return result
    split, form = distinct[0]
    failing = next(e for e, g, h in cases if not agrees(e, g, h)).shape
    rows, columns = groups(failing, split)
    sized = not check.hidden and min(rows, columns) > 1 and rows != columns
    return replace(result, misconception=form, hint_kind=MISTAKE,
                   hint=words(check.function, form, failing if sized else None, split,
                              len(failing)))


def _shape(sizes) -> str:
    return "(" + ", ".join(str(n) for n in sizes) + ")"


def _sized(form: str, shape: tuple, split: int) -> dict:
    """The hint's parts for a case of `shape`: its sizes, and code of them."""
    ndim, first, rest = len(shape), shape[:split], shape[split:]
    back = tuple(range(ndim - split, ndim)) + tuple(range(ndim - split))  # (B..., A...) -> shape
    ahead = tuple(range(split, ndim)) + tuple(range(split))  # shape -> (B..., A...)
    other = _shape(rest + first)
    if form == READ_TRANSPOSED:
        code = (f"value.reshape{other}.T" if ndim == 2
                else f"value.reshape{other}.transpose{back}")
    else:
        code = (f"value.T.reshape{_shape(shape)}" if ndim == 2
                else f"value.transpose{ahead}.reshape{_shape(shape)}")
    return {"result": _shape(shape), "groups": "", "other": other, "code": code,
            "target": _shape(shape), "fix": f" (`{'.T' if ndim == 2 else f'.transpose{back}'}`)"}


def _symbols(form: str, split: int, ndim: int) -> dict:
    """The hint's parts without sizes: the result as (A, B), A its first `split` axes."""
    axes = "axis" if split == 1 else f"{split} axes"
    tail = "" if ndim == 2 else ".reshape(value.shape)"
    code = ("value.reshape(B, A).T" + tail if form == READ_TRANSPOSED
            else "value.T.reshape(A, B)" if ndim == 2 else "value.reshape(A, B).T" + tail)
    return {"result": "(A, B)", "groups": "" if ndim == 2 else f" (A its first {axes}, B the "
            "rest)", "other": "(B, A)", "code": code,
            "target": "(A, B)" if ndim == 2 else "the result's shape", "fix": ""}


def words(function: str, form: str, shape: tuple | None, split: int, ndim: int) -> str:
    """The hint: what `form` does to a result of `ndim` axes, with a failed case's `shape`
    (None: a hidden case's, or one whose sizes do not show it) and the code that does it to
    `value`."""
    said = _sized(form, shape, split) if shape else _symbols(form, split, ndim)
    start = f"Your `{function}` returns the right values in another layout: "
    if form == READ_TRANSPOSED:
        return (start + "the buffer of its {result} result{groups} is read as {other} and "
                "transposed, as `{code}` does (what code written for a channels-first array, "
                "features first, does to one already channels last), so its values land in "
                "other places. Drop the transpose: a reshape to {target} alone keeps the values "
                "in their order.").format(**said)
    return (start + "its {result} result{groups} is transposed, {other}, and its buffer read "
            "back as {result}, as `{code}` does (values laid out {other}, reshaped where a "
            "transpose belongs: a reshape keeps the numbers in their order), so its values land "
            "in other places. Where the values are laid out {other}, transpose them{fix} "
            "instead of reshaping them.").format(**said)
