"""What a call check says of a function that wrote into an array it was given (the worker names
them: worker/mutation.py). A right value with such a write fails the case, said as that; a
wrong value with one gets a line saying so too, as a caller that uses the array again (a
residual adds `x` back) is harmed by it whatever the value.
"""
from __future__ import annotations

import re
from dataclasses import replace

from ..compare import agrees, default_compare

RIGHT_BUT = "the value is right, but "  # a right value from a function that changed its input
# the mistake a right value with such a write is: seen by the worker itself (worker/mutation.py
# compares the arguments before and after the call), so it is named, not guessed
IN_PLACE = "changes_input_in_place"
TITLES = {IN_PLACE: "an array it was given changed in place"}


def changed_in_place(call: str, params: tuple[str, ...], outcome):
    """(message lines, hint, IN_PLACE) for a right value from a function that changed an array
    it was given (`x -= mean`); None when it changed none."""
    if not outcome.mutated:
        return None
    line = f"{RIGHT_BUT}`{call}` changed {_names(outcome, params)} in place, an array it was given"
    hint = (f"Change no array `{call}` is given in place: compute into a new one "
            f"(`x = x - m`, not `x -= m`), or copy first. Whoever calls `{call}` may "
            "use the same array again (a residual adds x back).")
    return [line], hint, IN_PLACE


def wrong_value_after(failed, ran: list, index: int, how) -> int | None:
    """The first case after ran[index] ((planned case, outcome) pairs: the calls of one request,
    all made) that returned a wrong value, when ran[index] is a right value from a function
    that changed its input (`failed`, its verdict, names IN_PLACE): that case is the check's
    verdict instead, its own mistake searched for (on copies) and named, the change in place
    said on its line (`also_in_place`). A change in place named first hid a value mistake of
    the same function (an `axis` not read). None when there is none, or `failed` is another."""
    if failed is None or failed.misconception != IN_PLACE:
        return None
    for later, (planned, outcome) in enumerate(ran[index + 1:], index + 1):
        expected, raises = planned.expectation()
        if outcome.status == "ok" and raises is None and not agrees(
                expected, outcome.value, how or default_compare(expected)):
            return later
    return None


def also_in_place(call: str, params: tuple[str, ...], outcome) -> list[str]:
    """A line for a wrong value whose function also changed an array it was given, else none."""
    if not outcome.mutated:
        return []
    return [f"`{call}` also changed {_names(outcome, params)} in place, an array it was given "
            "(its caller may use it again: compute into a new array)"]


def written_too(result, call: str, params: tuple[str, ...], ran: list, outcome, hidden: bool):
    """The failed `result` (its case's `outcome` changed no array) with a line for the first
    other call of the check (`ran`: (planned case, outcome) pairs, all made) whose worker saw an
    array argument changed, and what that array held after it: a write the failing case (it
    raised, or returned a wrong value into a new array) cannot show. As it is when none did."""
    if result.passed or outcome.mutated or said_changed(result.message):
        return result
    number, seen = next(((n, o) for n, (_, o) in enumerate(ran, 1) if o.mutated), (0, None))
    if seen is None:
        return result
    held = ", ".join(f"`{argument(where, params)}` " + (
        "holds the value it returned" if where in seen.holds_returned
        else "holds other values than it was given") for where in seen.mutated)
    line = (f"`{call}` also writes into the array it is given: after the call of case {number}, "
            f"{held} (its caller may use it again: compute into a new array)")
    return replace(result, message=result.message + (f"; {line}" if hidden else f"\n  {line}"))


def changed_arrays(message: str, call: str) -> str | None:
    """The arrays this module's lines say `call` changed in place ("`x`, `params['pos']`"),
    read back from a check's message; None when it says none (written_by.py)."""
    found = re.search(rf"`{re.escape(call)}` (?:also )?changed (.+?) in place, an array it was "
                      "given", message or "")
    return found[1] if found else None


def said_changed(message: str) -> bool:
    """Whether a check's message holds one of this module's lines, for any function."""
    return re.search(r"` (?:also )?changed .+? in place, an array it was given|` also writes into "
                     "the array it is given: after the call", message or "") is not None


def _names(outcome, params: tuple[str, ...]) -> str:
    return ", ".join(f"`{argument(where, params)}`" for where in outcome.mutated)


def argument(where: str, params: tuple[str, ...]) -> str:
    """mutation.py's "#0" or "#1['W_q']" with the parameter's name: "x", "params['W_q']"."""
    head, bracket, rest = where.partition("[")
    if head.startswith("#") and head[1:].isdigit():
        index = int(head[1:])
        head = params[index] if index < len(params) else f"argument {index + 1}"
    return head + bracket + rest
