"""Compiled stand-in answers: what a grader without the reference (the student bundle) answers
when it grades a check around a student's broken helper (dependencies.py).

`vitgrade compile` runs the instructor's solution in an ordinary worker and grades each visible
function and property check with the helpers the check's functions are built on (api.BUILT_ON)
bound to stand-ins answered by the reference: all of them at once, then each alone, so that the
solution's calls are seen at every depth (`vit_forward` calling `embed_image`, and `embed_image`
calling `linear_patch_embed`). Every stand-in call it makes, by digest of its arguments, and the
reference's answer are the table STAND_IN_TABLE of the spec's compiled data. A student whose
function calls its helpers as the solution does gets the same answers as from the reference; any
other call is "unavailable", and the check keeps its grade without stand-ins.
"""
from __future__ import annotations

from grader.spec.model import Check, Exercise

from .api import BUILT_ON
from .cases import CasePlans
from .grade import grade_around
from .stand_ins import StandIns


def helpers_of(check: Check) -> tuple[str, ...]:
    """The student functions the check's own functions are built on, but not those it tests."""
    tested = check.names_read()
    found = [helper for name in tested for helper in BUILT_ON.get(name, ())]
    return tuple(dict.fromkeys(h for h in found if h not in tested))


def needs_stand_ins(exercise: Exercise) -> list[Check]:
    """The exercise's visible checks that may be graded around a broken helper."""
    return [c for c in exercise.checks if not c.hidden and c.regradable and helpers_of(c)]


def record_stand_ins(exercise: Exercise, worker, plans: CasePlans | None = None) -> dict:
    """Digest -> answer of every stand-in call that the solution, loaded in `worker`, makes on
    the exercise's visible checks (see the module's docstring)."""
    record: dict = {}
    plans = plans or CasePlans(use_compiled=False)
    for check in needs_stand_ins(exercise):
        helpers = helpers_of(check)
        for names in dict.fromkeys([helpers] + [(h,) for h in helpers]):
            stand_ins = StandIns(names, record=record)  # answered by the reference
            grade_around(exercise, check, worker, stand_ins, plans)
    return record
