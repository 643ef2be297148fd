"""One try of a rewrite (the error model's search, __init__.py): its values on the check's calls,
the failing one first, against the student's: it reproduces them all (True; ALIKE: a raise by
its type only), or how far it is from the student's value on the failing call, or that it is
the reference's there (SILENT).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .evidence import agree, distance, reproduced, same_message
from .runs import run
from .tree import Edit, Instance

SILENT = "silent"    # a rewrite that changes nothing on the failing call
ALIKE = "alike"      # a rewrite that reproduces every call, a raise by its type, not its message


EXPLAINED = 0.5  # a narrower float's rewrite explains the calls when the student's value is, on
# the mean over the calls, at most this far from it as a share of its distance from the
# reference's, and on no call farther: the student's rounding is mostly the rewrite's (the same
# inputs rounded alike). Float16 q, k, v projections in self_attention (blind round 60, written
# as EVA's fused fp16 qkv with its zero key bias): 0.0 to 0.96 on a call, 0.17 to 0.31 on the
# mean of 14; q, k or v alone, or the output projection too, near 1 (the student's other
# rounding unexplained); a smooth mistake of the same size (GELU's tanh form) is no nearer the
# rewrite than the reference


ROUNDING_SIZE = 4  # and the student's value at most this many times the rewrite's own distance
# from the reference: a rounding's size. A wrong scale, sqrt(d_h // 2), is ~10x float16's on the
# calls of the checks, nearer the float16 rewrite than the reference on each (it moves the same
# way), and was told it computed in float16; b60_06's float16 projections are 0.9x to 1.6x


def _gap(a, b) -> float | None:
    """The root mean square of `a - b` over the values finite in both; None: not comparable."""
    try:
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    except (TypeError, ValueError):
        return None
    if a.shape != b.shape:
        return None
    with np.errstate(all="ignore"):
        gaps = a - b
        kept = np.isfinite(gaps)
    return float(np.sqrt(np.mean(gaps[kept] ** 2))) if kept.any() else 0.0


def explained(value, got, expected, same) -> float | None:
    """How far a narrower float's rewrite `value` is from the student's `got`, as a share of the
    reference's `expected` (0.0: as the check compares), where its rounding lets no code match
    it closer (its values depend on the order of each rounded step, which two codes of one
    mistake need not share); None when it does not explain `got`: other places NaN or inf,
    or farther than the reference."""
    if reproduced(same, value, got, expected):
        return 0.0
    try:
        a, b = np.asarray(value, dtype=float), np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return None
    if a.shape != b.shape or not np.array_equal(np.isfinite(a), np.isfinite(b)):
        return None
    near, off, own = _gap(value, got), _gap(expected, got), _gap(expected, value)
    if (near is None or off is None or own is None or not off > 0 or near > off
            or off > ROUNDING_SIZE * own):
        return None
    return near / off


@dataclass(frozen=True)
class Raised:
    """A student call that raised, by its exception's class name ("AxisError"): a rewrite
    reproduces it by raising an exception of that name; when several do, the ones whose
    message is the student's too (numpy's "cannot reshape array of size 72 into shape
    (2,2,2,2,3)") are preferred."""
    type: str
    message: str = ""


def attempt(root: Instance, group: list[Edit], order: list, same,
            copies: bool = True) -> bool | float | str | None:
    """True when the rewrite reproduces every call's student value (and is wrong on the first),
    else how far it is from the student's value on the first call (None: not comparable; 0.0
    when it reproduces the first call but not another: a second mistake shows only there;
    SILENT when it is right on the first call; ALIKE when it reproduces every call, but a raise
    by its exception's type and not its message)."""
    told = True  # every raise with the student's message too
    rounding = any(edit.rounding for edit in group)
    shares = []  # a rounding rewrite's explained() share on each call that returned
    for i, call in enumerate(order):
        ran = run(root, group, call, copies)
        if ran is None:
            return None  # two edits that do not compose (one took away what the other rewrites)
        returned, value = ran
        if not returned:  # raising explains only the same raise
            if isinstance(call.got, Raised) and type(value).__name__ == call.got.type:
                told = told and same_message(str(value), call.got.message)
                continue
            return 0.0 if i else None  # after the failing call: half of a pair, as below
        if isinstance(call.got, Raised):
            return 0.0 if i else None
        if i == 0:
            first = value
            # as the check compares: the reference expected, the rewrite in the student's place
            if agree(same, call.expected, value):
                return SILENT  # right here: not the mistake that failed the case
            shares.append(explained(value, call.got, call.expected, same) if rounding
                          else 0.0 if reproduced(same, value, call.got, call.expected)
                          else None)
            if shares[-1] is None:
                return distance(value, call.got)
        else:
            shares.append(explained(value, call.got, call.expected, same) if rounding
                          else 0.0 if reproduced(same, value, call.got, call.expected)
                          else None)
            if shares[-1] is None:
                return 0.0  # the failing call's value exactly, not another's: half of a pair
    if shares and sum(shares) > EXPLAINED * len(shares):
        return distance(first, order[0].got)  # rounding, but not mostly this one's
    return True if told else ALIKE
