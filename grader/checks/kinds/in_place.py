"""What a call check says of a function that wrote into an array it was given (the worker names
them: worker/mutation.py). A right value with such a write fails the case, said as that; a
wrong value with one gets a line saying so too, as a caller that uses the array again (a
residual adds `x` back) is harmed by it whatever the value.
"""
from __future__ import annotations

import re

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


def wrong_value_after(ran: list, index: int, how) -> int | None:
    """The first case after ran[index] ((planned case, outcome) pairs: the calls of one request,
    all made) that returned a wrong value, when ran[index] is a right value from a function
    that changed its input: that case is the check's verdict instead, its own mistake searched
    for (on copies) and named, the change in place said on its line (`also_in_place`). A
    change in place named first hid a value mistake of the same function (an `axis` not read)."""
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


def changed_arrays(message: str, call: str) -> str | None:
    """The arrays this module's lines say `call` changed in place ("`x`, `params['pos']`"),
    read back from a check's message; None when it says none (written_by.py)."""
    found = re.search(rf"`{re.escape(call)}` (?:also )?changed (.+?) in place, an array it was "
                      "given", message or "")
    return found[1] if found else None


def said_changed(message: str) -> bool:
    """Whether a check's message holds one of this module's lines, for any function."""
    return re.search(r"` (?:also )?changed .+? in place, an array it was given", message or "") \
        is not None


def _names(outcome, params: tuple[str, ...]) -> str:
    return ", ".join(f"`{argument(where, params)}`" for where in outcome.mutated)


def argument(where: str, params: tuple[str, ...]) -> str:
    """mutation.py's "#0" or "#1['W_q']" with the parameter's name: "x", "params['W_q']"."""
    head, bracket, rest = where.partition("[")
    if head.startswith("#") and head[1:].isdigit():
        index = int(head[1:])
        head = params[index] if index < len(params) else f"argument {index + 1}"
    return head + bracket + rest
