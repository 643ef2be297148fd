"""A property check (`property:`): a Python check registered in grader/checks/properties.py,
run on seeded random inputs with the spec's `options`, calling the student's functions through
the worker. No expected value is compiled: it computes what it compares with as it runs.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from grader.spec.errors import SpecError, unknown_name

from ..describe import WHILE, limit_note, outcome_lines
from ..properties import PROPERTIES, PROPERTY_AGAINST, PROPERTY_CALLS
from ..property_calls import PropertyContext, StudentCallFailed, StudentCalls, Verdict
from ..results import (
    CHECKLIST,
    FAILED,
    HIDDEN_FAILURE,
    MISSING,
    NOT_IMPLEMENTED,
    OBSERVATION,
    PASSED,
    check_result,
)
from ..timed_out import marked
from ..unbound import loaded, unbound
from .base import Kind
from .memory import MEMORY


@dataclass(frozen=True)
class PropertyCheck(Kind):
    """`property:`: a property of a student function (properties.py) checked on random trials."""
    KEY = "property"
    property_name: str = ""
    options: dict = field(default_factory=dict)
    seed: int = 0
    integration: bool = False  # as a call check's: its functions never graded around helpers

    @classmethod
    def from_yaml(cls, raw: dict, common: dict) -> PropertyCheck:
        return cls(**common, property_name=raw["property"], options=dict(raw.get("options", {})),
                   seed=raw.get("seed", 0), integration=raw.get("integration", False))

    def problems(self, exercise, build_inputs: bool = False) -> list[SpecError]:
        if self.property_name in PROPERTIES:
            return []
        return [unknown_name(exercise.path, self.line_of("property"), "property check",
                             self.property_name, PROPERTIES)]

    def names_read(self) -> tuple[str, ...]:
        calls = PROPERTY_CALLS.get(self.property_name)
        names = calls(dict(self.options)) if calls else ()
        if self.integration:
            names += tuple(n for name in names for n in self.api.built_on.get(name, ()))
        return names

    def names_tested(self) -> tuple[str, ...]:
        """What it grades: not the functions it calls only as the yardstick of the tested one
        (an integration check runs everything as it is: all of them)."""
        names = self.names_read()
        if self.integration:
            return names
        against = PROPERTY_AGAINST.get(self.property_name, ())
        return tuple(n for n in names if n not in against)

    @property
    def regradable(self) -> bool:
        return not self.integration

    @property
    def subject(self) -> str:
        """The first function it tests (not a yardstick): the class report counts its finding
        there."""
        return next(iter(self.names_tested()), "")

    def must_define(self, uses: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(n for n in uses if n != "ANSWERS")

    def grade(self, exercise, worker, plans):
        context = PropertyContext(StudentCalls(worker), np.random.default_rng(self.seed),
                                  dict(self.options))
        try:
            verdict: Verdict = PROPERTIES[self.property_name](context)
        except StudentCallFailed as failed:
            return self._failed_call(failed)
        if verdict.passed:
            return check_result(self, PASSED, cases=1)
        result = self._failed(verdict)  # with what it found of each function's values
        return replace(result, outputs=verdict.outputs) if verdict.outputs else result

    def _failed(self, verdict: Verdict):
        message = HIDDEN_FAILURE if self.hidden else verdict.message
        if not verdict.judged:  # the spec's words diagnose the property's finding, not this
            return check_result(self, FAILED, message, verdict.hint, 1, hint_kind=OBSERVATION)
        if verdict.named:  # a cause checked on every call the property made: named
            return check_result(self, FAILED, message, verdict.hint, 1, verdict.misconception)
        if not verdict.spec_hint:  # found where the spec's words do not look: its own words
            return check_result(self, FAILED, message, verdict.hint, 1, verdict.misconception,
                                hint_kind=OBSERVATION)
        # the spec's words first: the same for every failure of the property, a checklist;
        # else the property's own finding (rows reordered, tiles moved), an observation
        return check_result(self, FAILED, message, self.hint or verdict.hint, 1,
                            verdict.misconception,
                            hint_kind=CHECKLIST if self.hint else OBSERVATION)

    def _failed_call(self, failed: StudentCallFailed):
        outcome = failed.outcome
        if outcome.not_written(failed.name) and failed.name in self.names_tested():  # a
            # yardstick's stub is a failure, graded again with the grader's one standing in
            return check_result(self, NOT_IMPLEMENTED, f"`{failed.name}` is not implemented yet")
        if outcome.status == "missing":
            return check_result(self, MISSING, f"`{failed.name}` is not defined yet")
        lines = outcome_lines(outcome) if not self.hidden else [
            f"your code: {outcome.message or outcome.status}"
            if outcome.status in ("timeout", "crashed")
            else f"your code: {outcome.status}"
            + (limit_note(outcome) if outcome.status == "raised" else "")]
        hint = (f"Your `{failed.name}` failed on the inputs this property gives it, so the "
                "property could not be judged: fix where it failed (the traceback says where; "
                "it may be in a function it calls).")
        result = check_result(self, FAILED, f"{WHILE}{failed.name}(...) "
                              "failed:\n" + "\n".join("  " + line for line in lines), hint,
                              printed=outcome.stdout, hint_kind=OBSERVATION)
        return marked(unbound(result, outcome, loaded(MEMORY.get())), outcome)  # a failed
        # load line's name; out of time, said as that (timed_out.py)
