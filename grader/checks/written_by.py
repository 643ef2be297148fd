"""Which student function wrote into an array: a composed function's write said through the
helper of it that made it (issue 38; blind round 54's b54_10).

A check of `f` whose value is right but whose call changed an argument in place names that as
`f`'s mistake (kinds/in_place.py). Where a helper `g` of `f` that the student wrote fails its own
check for a write in place too, the write may be `g`'s, made on the arrays `f` passed it: the
check is graded once more with the grader's correct `g` standing in (stand_ins.py), and only
where that run passes (the same value, no array changed) is the write said to be made through
`g`, pointing at the exercise where `g`'s own check names it. A helper whose stand-in leaves the
write in place (`f` writes too), or that could not stand in (no reference to compute a call:
the student bundle), is never named: the hint stays `f`'s. Nothing here changes a verdict.
"""
from __future__ import annotations

from dataclasses import replace

from .kinds.in_place import IN_PLACE, changed_arrays, said_changed
from .results import CheckResult


def writes_in_place(result: CheckResult) -> bool:
    """Whether a verdict says its function changed an array it was given."""
    return not result.passed and (result.misconception == IN_PLACE
                                  or said_changed(result.message))


def through_helper(result: CheckResult, function: str | None, helpers: list[str], regrade,
                   home) -> CheckResult:
    """`result` (a right value from `function`, with a write in place) with its hint said
    through the one helper of `helpers` (each fails its own check for a write in place) whose
    stand-in makes the check pass: `regrade(names)` -> the verdict with those stand-ins, or None
    when one could not answer; `home(name)`: the exercise where `name` loses points. As it is
    when no single helper, nor all of them together, accounts for the write."""
    if result.misconception != IN_PLACE or not function or not helpers:
        return result
    arrays = changed_arrays(result.message, function)
    if arrays is None:
        return result
    tries = [(name,) for name in helpers] + ([tuple(helpers)] if len(helpers) > 1 else [])
    for names in tries:
        again = regrade(names)
        if again is not None and again.passed:
            return replace(result, hint=_hint(function, arrays, names, home))
    return result


def _hint(function: str, arrays: str, helpers: tuple[str, ...], home) -> str:
    """"Change no array `g` is given in place: `f` changed `x` in place, through `g` (see e)."."""
    names = " and ".join(f"`{name}`" for name in helpers)
    where = ", ".join(dict.fromkeys(home(name) for name in helpers))
    return (f"Change no array {names} {'is' if len(helpers) == 1 else 'are'} given in place: "
            f"`{function}` changed {arrays} in place, through {names} (see {where}). Compute "
            f"into a new array (`x = x - m`, not `x -= m`), or copy first: whoever calls "
            f"{names} may use the same array again.")
