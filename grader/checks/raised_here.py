"""A check's case that raised where a value was due, told about that exception, not another
exercise's mistake.

A check of one function that fails with no hint of its own points to the exercise where the
function loses more points (dependencies.py, `_elsewhere`): "the mistake there may be what fails
here too". That is no cause of a case here whose call raised an exception in the student's code
while every failing call there returned a value or raised another exception: a wrong value is not
shown to raise (blind round 71's b71_08: a 1/sqrt(d) scale in multi-head-attention, while the
causal check's long sequences ran into a mask built once for 8 tokens and raised ValueError). The
case is told what raised and where (the student's innermost line: no input of a hidden case).
"""
from __future__ import annotations

import re

_FRAME = re.compile(r'File "([^"]+)", line (\d+), in (\S+)\n[ \t]*(\S[^\n]*)')


def raised_unlike(outcome, failing_there: list) -> bool:
    """Whether `outcome` (the case here, due a value) raised an exception in the student's code
    that none of `failing_there` (the outcomes of the failing calls of another exercise's checks
    of the function) raised too: that exercise's mistake is not shown to cause it."""
    if outcome.status != "raised" or outcome.error is None or not failing_there:
        return False
    kind = outcome.error.type
    return not any(o.status == "raised" and o.error is not None and o.error.type == kind
                   for o in failing_there)


def innermost_line(traceback: str) -> str:
    """", at your line 89 (in `head`): `weights = ...`" of the traceback's innermost student
    frame ("" when it has none): only the student's own code, nothing of the inputs."""
    frame = innermost_frame(traceback)
    if frame is None:
        return ""
    _, line, function, code = frame
    return f", at your line {line} (in `{function}`): `{code}`"


def innermost_frame(traceback: str) -> tuple[str, int, str, str] | None:
    """(file, line, function, code) of the traceback's innermost student frame, None when it
    has none."""
    frames = _FRAME.findall(traceback or "")
    if not frames:
        return None
    file, line, function, code = frames[-1]
    return file, int(line), function, code.strip()


def raising_statement(traceback: str) -> str | None:
    """The code of the traceback's innermost student line (`raise ValueError(...)`, or a call
    into numpy that raised), None when it has none: whether the student's code raised by a
    statement of its own (error_model/guards.py's `own_raise`)."""
    frame = innermost_frame(traceback)
    return None if frame is None else frame[3]


def raised_hint(function: str, outcome, where: list[str]) -> str:
    """The hint of a case whose call raised where a value was due, while the function loses
    points in the exercises `where` only by values or by other exceptions."""
    kind = outcome.error.type
    places = ", ".join(where)
    return (f"Your `{function}` raised {kind} on this case, where it should return a value"
            f"{innermost_line(outcome.error.traceback)}. It also loses points in {places}, but "
            f"there no failing call raised {kind}: that mistake is not shown to be what raised "
            f"on this case. Fix what raised: that line, or what it is given.")
