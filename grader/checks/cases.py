"""The cases of a call check: their inputs, what the reference expects, what each known
misconception would return. Computed in the grading process, never in the worker.

`CasePlans` builds each check's cases on first need and keeps them while it lives: a
`vitgrade grade` run builds one, a `grade-all` job keeps one for all its students, so the
reference runs once per case, not once per case and student (docs/architecture.md says what
that saves). It takes them from the spec's compiled data (`compiled.py`, written by `vitgrade
compile`) while that data's key matches, and computes them otherwise; a grader without the
reference (the student bundle) then fails the check with NotCompiled instead.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from grader.spec.model import Case, Check, Exercise
from grader.worker.values import EncodedCall, encode_call, fresh_copy

from . import compiled, inputs
from .answer_key import SEALED, AnswerKey, plain_key, sealed_key
from .generators import generate_cases


class NotCompiled(Exception):
    """What grading needs is neither compiled (fresh) nor computable: no reference here. Its
    message is for the student (it ends with what to do)."""


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
    from_compiled: bool = False  # its values came from the compiled data, not the reference

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

    def wrong_names(self) -> tuple[str, ...]:
        """The known-wrong variants whose outputs are known here (all of them, when compiled)."""
        return tuple(self._wrong)

    @functools.cached_property
    def encoded(self) -> EncodedCall:
        """The inputs as they cross to the worker, encoded once for every submission."""
        return encode_call(self.args, self.kwargs)


class CasePlans:
    """Each call check's planned cases, built on first need, by (spec file, check name); each
    spec's compiled data, read once. `use_compiled=False` computes every case with the
    reference (what `vitgrade compile` stores)."""

    def __init__(self, use_compiled: bool = True):
        self.use_compiled = use_compiled
        self._cases: dict[tuple[str, str], list[PlannedCase]] = {}
        self._compiled: dict[str, tuple[compiled.CompiledSpec | None, str]] = {}

    def cases(self, exercise: Exercise, check: Check) -> list[PlannedCase]:
        key = (exercise.path, check.name)
        if key not in self._cases:
            self._cases[key] = self._plan(exercise, check)
        return self._cases[key]

    def answer_key(self, exercise: Exercise, check: Check) -> AnswerKey:
        """The multiple-choice key: the spec's words, or the sealed key compiled for it."""
        if check.answer_correct != SEALED:
            return plain_key(check.answer_correct, check.answer_options)
        entry, why = self._lookup(exercise, "answers", check.name)
        try:
            return sealed_key(entry)
        except ValueError:
            raise NotCompiled(f"the answer key of this question is not in this grader's "
                              f"compiled data ({why}): get the current bundle from your "
                              "instructor") from None

    def _plan(self, exercise: Exercise, check: Check) -> list[PlannedCase]:
        if not self.use_compiled:
            return plan_cases(check, exercise.folder or None)
        entries, why = self._lookup(exercise, "cases", check.name)
        planned = compiled_cases(check, entries) if entries is not None else None
        if planned is not None:
            return planned
        if not compiled.has_reference():
            raise NotCompiled(f"this grader cannot check it: its compiled expectations are "
                              f"{why} (was the exercise's .yaml file changed?), and this grader "
                              "has no reference to compute them: get the current bundle from "
                              "your instructor")
        return plan_cases(check, exercise.folder or None)

    def _lookup(self, exercise: Exercise, table: str, key: str) -> tuple[object, str]:
        """(the compiled value, or None; why there is none: 'missing', 'stale', 'corrupt ...')"""
        if exercise.path not in self._compiled:
            try:  # read once: loading the spec read it too
                data = compiled.cached(compiled.spec_file(exercise))
                why = "missing or stale" if data is None else "without this check"
            except compiled.CompiledError as error:
                data, why = None, f"unreadable ({error})"
            self._compiled[exercise.path] = (data, why)
        data, why = self._compiled[exercise.path]
        if data is None:
            return None, why
        try:
            value = data.lookup(table, key)
        except compiled.CompiledError as error:
            return None, f"unreadable ({error})"
        return value, why


def plan_cases(check: Check, folder: str | None = None) -> list[PlannedCase]:
    """The spec's own cases, then the generated ones; InputError for a broken expression.
    `folder`: the spec's own (inputs.evaluate)."""
    reference = check.reference or check.call
    planned = []
    for case in check.cases:
        args = tuple(inputs.evaluate(a, folder) for a in case.args)
        kwargs = {k: inputs.evaluate(v, folder) for k, v in case.kwargs.items()}
        planned.append(PlannedCase(args, kwargs, _source(check, case), case, reference, folder))
    if check.generate:
        g = check.generate
        for args, kwargs in generate_cases(g.generator, g.count, g.seed, g.options):
            planned.append(PlannedCase(tuple(args), dict(kwargs), None, None, reference, folder))
    return planned


def compiled_cases(check: Check, entries) -> list[PlannedCase] | None:
    """The check's cases from its compiled entries (`compile_specs.case_entry`), or None when
    they do not fit the spec (a count that differs, a broken entry)."""
    generated = check.generate.count if check.generate else 0
    if not isinstance(entries, list) or len(entries) != len(check.cases) + generated:
        return None
    reference = check.reference or check.call
    planned = []
    for i, entry in enumerate(entries):
        try:
            case = check.cases[i] if i < len(check.cases) else None
            expectation = ((None, entry["raises"]) if entry["raises"] is not None
                           else (entry["expect"], None))
            wrong = {like: (True, value) for like, value in entry["wrong"].items()}
            wrong.update((like, (False, None)) for like in entry["no_match"])
            planned.append(PlannedCase(tuple(entry["args"]), dict(entry["kwargs"]),
                                       _source(check, case) if case else None, case, reference,
                                       None, expectation, wrong, from_compiled=True))
        except (KeyError, TypeError, AttributeError):
            return None
    return planned


def _source(check: Check, case: Case) -> str:
    code = ", ".join([inputs.source(a) for a in case.args]
                     + [f"{k}={inputs.source(v)}" for k, v in case.kwargs.items()])
    return f"{check.call}({code})"


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
    try:
        from grader.reference.misconceptions import wrong_implementation
    except ImportError:  # no reference (the bundle) and nothing compiled: no hint, no error
        return False, None
    try:
        with np.errstate(all="ignore"):  # a wrong implementation may overflow: that is its point
            return True, wrong_implementation(like)(*fresh_copy(planned.args),
                                                    **fresh_copy(planned.kwargs))
    except Exception:
        return False, None
