"""Whether a broken helper's mistake can show in an end-to-end check (dependencies._pipeline).

An integration check runs the student's functions as they are, and its hedge blames each broken
helper the run may use ("... as its mistake may be what fails here"). A helper wrong only on
calls the run never makes cannot be what fails: a `layer_norm` wrong on batched input only,
under a pipeline that passes it (T, d) arrays (blind round 56's b56_05). So the check is graded
once more with that one helper answered correctly (a stand-in, as any regrade: a call nobody
recorded is computed by the reference in its own process, for a declared dependency only), and
the helper is blamed only where that changes what the student's code returned on some case the
check ran, by the check's own comparison. Where the trial cannot tell (a stand-in call not
answered, nothing to compare), the hedge stays as it was.
"""
from __future__ import annotations

from .compare import agrees, default_compare
from .kinds.memory import MEMORY


def helper_shows(grade, exercise, check, helper: str, first: list) -> bool:
    """Whether the student's `helper`'s mistake can show on this run of `check`: its calls,
    answered correctly, change an outcome of the check's function. `grade(exercise, check,
    stand_ins)` is the regrade (dependencies.Dependencies._grade); `first` the check's calls as
    first graded, [(planned case, outcome, judge)]. The trial's cases are not kept for the
    submission's other checks (memory.around is left as it was)."""
    memory = MEMORY.get()
    if memory is None or not first or not check.function:
        return True
    key = (check.function, (helper,))
    saved = memory.around.get(key)
    saved = None if saved is None else dict(saved)
    try:
        result, _, used, unanswered = grade(exercise, check, (helper,))
        if result is None or unanswered:
            return True  # not graded around it: nothing known
        if not used:
            return False  # the run never calls it: its mistake cannot show there
        if result.passed:
            return True
        trial = memory.around.get(key, {})
        compared = [(outcome, trial[id(planned)][1]) for planned, outcome, _ in first
                    if id(planned) in trial]
        return not compared or any(not _same(a, b) for a, b in compared)
    finally:
        if saved is None:
            memory.around.pop(key, None)
        else:
            memory.around[key] = saved


def _same(first, trial) -> bool:
    """Whether two outcomes of one case agree: the same value within the check's comparison,
    the same exception type, or the same other status (a timeout, a crash)."""
    if first.status != trial.status:
        return False
    if first.status == "raised":
        return first.error.type == trial.error.type
    if first.status != "ok":
        return True
    how = default_compare(first.value)  # tighter than most checks' own: a doubt keeps the hedge
    try:
        return agrees(first.value, trial.value, how, equal_nan=True)
    except (TypeError, ValueError):  # values the comparison cannot weigh: not known the same
        return False
