"""A failed check that raised where another check of its function already found it raises.

A generalisation (generalisations.py) tells, on one check, on which inputs the function is right
and that it raises on the others ("Your `embed_image` is right for (H, W, C) images, and raises
ValueError for a 2-D (H, W) one"). Another check of the same function that fails by the same
raise on such an input (a worked example on a gray image) has the same cause: its checklist
about something else (the [CLS] order, which the student has right) misleads (blind round 56's
b56_10). So, once every check of an exercise is graded (grade.SubmissionGrading.exercise), such
a check's checklist hint gives way to one that points to the check that said it, read from the
cases each function ran (kinds/memory.py): every failed case of the check raised that exception
on an input where the generalisation does not hold. Where a failure belied the generalisation, its
true half ("Your `embed_image` raises ValueError for a 2-D (H, W) image", RAISES + its name) is
pointed to alike. The exception is the one the generalisation kept (CheckResult.raised).
"""
from __future__ import annotations

from dataclasses import replace

from .kinds.generalisations import (
    GENERALISATIONS,
    RAISES,
    TITLES,
    case_arguments,
    reference_parameters,
)
from .kinds.memory import Memory
from .results import CHECKLIST, FAILED, OBSERVATION, CheckResult


def pointed(checks: list, results: tuple[CheckResult, ...], cases, memory: Memory
            ) -> tuple[CheckResult, ...]:
    """`results` (of `checks`, in order) with each such checklist hint pointing to the check
    whose generalisation said the raise (the module's docstring). `cases(check)`: its planned
    cases, as they ran."""
    said = [(at, check, result.misconception, result.raised)
            for at, (check, result) in enumerate(zip(checks, results, strict=True))
            if result.hint_kind == OBSERVATION and result.raised
            and (result.misconception or "").removeprefix(RAISES) in GENERALISATIONS]
    if not said:
        return results
    out = list(results)
    for at, (check, result) in enumerate(zip(checks, results, strict=True)):
        function = check.function
        if (result.status != FAILED or result.hint_kind != CHECKLIST or result.misconception
                or not function):  # a property's verdict told with its checklist names one
            continue
        for there, other, name, raised in said:
            if other is not check and other.function == function and _same(
                    check, cases(check), memory, name, raised):
                side = "above" if there < at else "below"
                out[at] = replace(result, hint_kind=OBSERVATION, hint=(
                    f"Your `{function}` raises {raised} here on an input of the kind the check "
                    f"\"{other.name}\" ({side}) found it {TITLES[name]}: the same "
                    f"cause; see that check's hint."))
                break
    return tuple(out)


def _same(check, planned: list, memory: Memory, name: str, raised: str) -> bool:
    """Whether every case of `check` its function got wrong raised `raised` on an input where
    the generalisation `name` does not hold (at least one such case ran)."""
    ran = memory.ran.get(check.function, {})
    params, defaults = reference_parameters(check)
    holds = GENERALISATIONS[name.removeprefix(RAISES)][0]
    wrong = [(p, outcome) for p in planned if id(p) in ran
             for _, outcome, judge in [ran[id(p)]] if not judge(p, outcome)]
    return bool(wrong) and all(
        outcome.status == "raised" and outcome.error.type == raised
        and holds(case_arguments(params, defaults, p)) is False
        for p, outcome in wrong)
