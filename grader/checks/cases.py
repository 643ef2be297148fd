"""The cases of a call check: their inputs, what the reference expects, what each known
misconception would return. Computed in the grading process, never in the worker.

`CasePlans` builds each check's cases on first need and keeps them while it lives: a
`vitgrade grade` run builds one, a `grade-all` job keeps one for all its students, so the
reference runs once per case, not once per case and student (docs/architecture.md says what
that saves).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from grader.spec.model import Case, Check, Exercise
from grader.worker.values import EncodedCall, encode_call, fresh_copy

from . import inputs
from .generators import generate_cases


@dataclass
class PlannedCase:
    args: tuple
    kwargs: dict
    source: str | None  # paste-able code for the call, when the spec wrote it
    case: Case | None  # the spec's case (None for generated ones)
    reference: str  # the reference function that computes the expected value
    folder: str | None = None  # the spec's own, for inputs.evaluate of `expect`
    _expectation: tuple | None = None
    _wrong: dict = field(default_factory=dict)

    def expectation(self) -> tuple:
        """(expected value, None), or (None, name of the exception the call must raise): the
        spec's `expect`/`raises`, else the reference's result; the reference raising (e.g. for
        patches that do not tile) means the student's function must raise the same."""
        if self._expectation is None:
            self._expectation = _expectation(self)
        return self._expectation

    def wrong_output(self, like: str) -> tuple[bool, object]:
        """(True, what the known-wrong implementation `like` returns here), or (False, None)
        when it does not apply to these inputs (it raised)."""
        if like not in self._wrong:
            self._wrong[like] = _wrong_output(like, self)
        return self._wrong[like]

    @functools.cached_property
    def encoded(self) -> EncodedCall:
        """The inputs as they cross to the worker, encoded once for every submission."""
        return encode_call(self.args, self.kwargs)


class CasePlans:
    """Each call check's planned cases, built on first need, by (spec file, check name)."""

    def __init__(self):
        self._cases: dict[tuple[str, str], list[PlannedCase]] = {}

    def cases(self, exercise: Exercise, check: Check) -> list[PlannedCase]:
        key = (exercise.path, check.name)
        if key not in self._cases:
            self._cases[key] = plan_cases(check, exercise.folder or None)
        return self._cases[key]


def plan_cases(check: Check, folder: str | None = None) -> list[PlannedCase]:
    """The spec's own cases, then the generated ones; InputError for a broken expression.
    `folder`: the spec's own (inputs.evaluate)."""
    reference = check.reference or check.call
    planned = []
    for case in check.cases:
        args = tuple(inputs.evaluate(a, folder) for a in case.args)
        kwargs = {k: inputs.evaluate(v, folder) for k, v in case.kwargs.items()}
        code = ", ".join([inputs.source(a) for a in case.args]
                         + [f"{k}={inputs.source(v)}" for k, v in case.kwargs.items()])
        planned.append(PlannedCase(args, kwargs, f"{check.call}({code})", case, reference,
                                   folder))
    if check.generate:
        g = check.generate
        for args, kwargs in generate_cases(g.generator, g.count, g.seed, g.options):
            planned.append(PlannedCase(tuple(args), dict(kwargs), None, None, reference, folder))
    return planned


def _expectation(planned: PlannedCase) -> tuple:
    case = planned.case
    if case is not None and case.raises:
        return None, case.raises
    if case is not None and case.has_expect:
        return inputs.evaluate(case.expect, planned.folder), None
    from grader.reference import REFERENCE

    try:
        function = REFERENCE[planned.reference]
        return function(*fresh_copy(planned.args), **fresh_copy(planned.kwargs)), None
    except Exception as error:  # the reference's own refusal is the expected behaviour
        return None, type(error).__name__


def _wrong_output(like: str, planned: PlannedCase) -> tuple[bool, object]:
    from grader.reference.misconceptions import MISCONCEPTIONS

    try:
        with np.errstate(all="ignore"):  # a wrong implementation may overflow: that is its point
            return True, MISCONCEPTIONS[like](*fresh_copy(planned.args),
                                              **fresh_copy(planned.kwargs))
    except Exception:
        return False, None
