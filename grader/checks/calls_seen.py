"""A failed check's calls, as first graded, kept on its result for what reads the student's
source after grading (report/fixed_size.py: an array built once for a fixed size, told only
where the lengths that passed and those that raised bear it out).

Each call is kept as data, never its arrays: the shape of each array argument, whether it was
right, and what it raised (type, message, traceback: the student's own code, nothing more than
a case's own message shows).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .results import PASSED, CheckResult


@dataclass(frozen=True)
class CallSeen:
    """One call of a check: `shapes` ((argument position, its shape) of each array argument),
    `right`, and its exception's type, message and traceback ("" when it raised none)."""

    shapes: tuple[tuple[int, tuple[int, ...]], ...]
    right: bool
    error_type: str = ""
    error_message: str = ""
    traceback: str = ""


def with_calls_seen(result: CheckResult, calls) -> CheckResult:
    """`result` with `calls` ((planned case, outcome, judge) of each call its check made, as
    first graded: dependencies.py) kept as CallSeen; as it is when it passed or was graded
    around stand-ins (its calls are then not those kept)."""
    if result.status == PASSED or result.stand_ins or not calls:
        return result
    return replace(result, calls_seen=tuple(_seen(p, o, judge(p, o)) for p, o, judge in calls))


def _seen(planned, outcome, right: bool) -> CallSeen:
    shapes = tuple((i, tuple(int(n) for n in a.shape)) for i, a in enumerate(planned.args)
                   if type(getattr(a, "shape", None)) is tuple)
    error = outcome.error if outcome.status == "raised" else None
    if error is None:
        return CallSeen(shapes, right)
    return CallSeen(shapes, right, error.type, error.message, error.traceback or "")
