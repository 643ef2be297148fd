"""A function whose values change from call to call: after a failed case returned a value, the
same worker runs that case twice more (once per function and submission); when either run's
values differ from the first, the failure is said as that, not as a guess at a formula (dropout
left on in a port of a training module, `np.random` without a seed, state kept between calls).
The lecture's functions give the same values for the same inputs every time.
"""
from __future__ import annotations

from dataclasses import replace

from ..compare import alike, default_compare
from ..results import FAILED, MISTAKE, OBSERVATION

RANDOM = "changes_between_calls"
REPEATS = 2  # runs of the failed case again: random values that repeat twice by chance are rare
TITLES = {RANDOM: "different values for the same inputs"}


def repeated(result, check, planned, outcome, worker, seen: dict):
    """`result` said as values that change between calls when `planned`, run again by `worker`,
    returns other values than `outcome`; else `result` as it is. `seen`: function -> whether it
    was found to change (this submission's: one repeat per function). A named mistake stays."""
    if (worker is None or result.status != FAILED or result.hint_kind == MISTAKE
            or outcome.status != "ok" or planned.expectation()[1] is not None):
        return result
    if check.call not in seen:  # twice: dropout on a few values repeats its mask by chance
        how = check.compare or default_compare(planned.expectation()[0])
        seen[check.call] = any(
            again.status == "ok" and not alike(outcome.value, again.value, how)
            for again in worker.call_many(check.call, [planned.encoded] * REPEATS))
    if not seen[check.call]:
        return result
    name = check.function
    return replace(result, misconception=RANDOM, hint_kind=OBSERVATION, hint=(
        f"Your `{name}` returns different values for the same inputs when it is called twice: "
        "something in it changes from call to call (random numbers, such as dropout left on, "
        f"or state kept between calls). The model solution's `{name}` gives the same values every "
        "time."))

