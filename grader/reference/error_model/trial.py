"""One try of a rewrite (the error model's search, __init__.py): its values on the check's calls,
the failing one first, against the student's: it reproduces them all (True; ALIKE: a raise by
its type only), or how far it is from the student's value on the failing call, or that it is
the reference's there (SILENT).
"""
from __future__ import annotations

from dataclasses import dataclass

from .evidence import agree, distance, same_message
from .runs import run
from .tree import Edit, Instance

SILENT = "silent"    # a rewrite that changes nothing on the failing call
ALIKE = "alike"      # a rewrite that reproduces every call, a raise by its type, not its message


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
            # as the check compares: the reference expected, the rewrite in the student's place
            if agree(same, call.expected, value):
                return SILENT  # right here: not the mistake that failed the case
            if not agree(same, value, call.got):
                return distance(value, call.got)
        elif not agree(same, value, call.got):
            return 0.0  # the failing call's value exactly, not another's: half of a pair
    return True if told else ALIKE
