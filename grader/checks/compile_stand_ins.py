"""Compiled stand-in answers (the table STAND_IN_TABLE, stand_ins.py): `vitgrade compile` grades
every function and property check of the instructor's solution (hidden ones too) with the
student-API functions the check does not test bound to stand-ins the reference answers here:
all at once, and, when the solution called any, each one alone, so that its calls are seen at
every depth (`vit_forward` calling `embed_image`, which calls `linear_patch_embed`).
"""
from __future__ import annotations

from grader.spec.model import Check, Exercise
from grader.worker.values import Decoder, ProtocolError

from .cases import CasePlans
from .course import reference_function
from .grade import grade_around
from .stand_ins import StandIns, matches


def helpers_of(check: Check) -> tuple[str, ...]:
    """The student-API functions a check of the solution may call without testing them."""
    tested = check.names_tested()  # a property's yardstick is answered too
    return tuple(name for name in check.api.signatures if name not in tested)


def needs_stand_ins(exercise: Exercise) -> list[Check]:
    """The exercise's checks that may be graded around a broken helper."""
    return [c for c in exercise.checks if c.regradable and helpers_of(c)]


class Recorder(StandIns):
    """Stand-ins answered by the reference, each call recorded in `record` (case key -> list of
    [helper, API arguments, answer])."""

    def __init__(self, names, check: Check, record: dict):
        super().__init__(names, check, lambda key: [])
        self.record = record

    def answer(self, name: str, header: dict, blobs, index: int):
        self.used.add(name)
        decoded = Decoder(blobs).decode(header.get("call"))
        if "refused" in header or type(decoded) is not list or type(decoded[0]) is not list:
            raise ProtocolError(f"the solution's call of {name} could not be recorded: "
                                f"{header.get('refused', 'malformed')}")
        args = decoded[0]
        try:
            answer = ["ok", reference_function(name, self.check.folder)(*args)]
        except Exception as refused:  # noqa: BLE001 - the reference's refusal is the answer
            answer = ["raised", type(refused).__name__, str(refused)[:500]]
        calls = self.record.setdefault(self.cases[index], [])
        if not any(n == name and matches(a, args, self.how) for n, a, _ in calls):
            calls.append([name, args, answer])
        return self.respond(answer)


def record_stand_ins(exercise: Exercise, worker, plans: CasePlans | None = None,
                     record: dict | None = None) -> dict:
    """Case key -> the helper calls the solution, loaded in `worker`, makes on each case of the
    exercise's checks, with the reference's answers (see the module's docstring), added to
    `record` (a call recorded there already is not recorded again)."""
    record = {} if record is None else record
    plans = plans or CasePlans(use_compiled=False)
    for check in needs_stand_ins(exercise):
        helpers = helpers_of(check)
        everything = Recorder(helpers, check, record)
        grade_around(exercise, check, worker, everything, plans)
        for helper in helpers if everything.used else ():
            grade_around(exercise, check, worker, Recorder((helper,), check, record), plans)
    return record
