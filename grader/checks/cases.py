"""The cases of a call check: their inputs, what the reference expects, what each known
misconception would return. Computed in the grading process, never in the worker.

`CasePlans` builds each check's cases on first need and keeps them while it lives (a `grade-all`
job: for all its students; docs/architecture.md says what that saves), from the spec's compiled
data while its key matches (compiled.py), else with the reference; a grader without it (the
student bundle) then fails the check with NotCompiled instead.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from grader.worker.values import EncodedCall, encode_call, fresh_copy

from . import compiled, compiled_folder, inputs, variants
from .course import reference_function, wrong_implementation


class NotCompiled(Exception):
    """What grading needs is neither compiled (fresh) nor computable: no reference here. Its
    message is for the student (it ends with what to do)."""


@dataclass
class PlannedCase:
    """One call a check makes: its inputs, how to show it, and what computes its expected value."""
    args: tuple
    kwargs: dict
    source: str | None  # paste-able code for the call, when the spec wrote it
    case: object | None  # the spec's case (kinds.call_spec.Case; None for generated ones)
    reference: str  # the reference function that computes the expected value
    folder: str | None = None  # the spec's own, for inputs.evaluate of `expect`
    _expectation: tuple | None = None
    _wrong: dict = field(default_factory=dict)
    from_compiled: bool = False  # its values came from the compiled data, not the reference
    # compiled: (compiled.Deferred of {name: output}, names that do not apply), read on first need
    compiled_wrong: tuple | None = None
    sent: EncodedCall | None = None  # its inputs as encoded by `vitgrade compile`, when kept
    # the known-wrong variants its own check lists, with their combinations: what `vitgrade
    # compile` stores for it (set from that when compiled). Fixed once planned: `_wrong` also
    # keeps the outputs other checks asked for, on this case, for one student of a job (their
    # outputs do not change), so its keys depend on who was graded before
    own: tuple[str, ...] = ()

    def __post_init__(self):
        self.own = self.own or tuple(self._wrong)  # outputs given when planned are its own

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
        self._read_compiled_wrong()
        if like not in self._wrong:
            self._wrong[like] = _wrong_output(like, self)
        return self._wrong[like]

    def wrong_names(self) -> tuple[str, ...]:
        """The known-wrong variants of its own check and their combinations (`own`): never the
        others whose outputs were computed here since, for whichever submission asked."""
        self._read_compiled_wrong()
        return self.own

    def _read_compiled_wrong(self) -> None:
        if self.compiled_wrong is None:
            return
        deferred, no_match = self.compiled_wrong
        self.compiled_wrong = None
        try:
            outputs = deferred.value()
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            return  # a damaged entry: no hint from it (vitgrade compile --check names it)
        self._wrong.update((like, (True, value)) for like, value in outputs.items())
        self._wrong.update((like, (False, None)) for like in no_match)
        self.own = tuple(dict.fromkeys([*self.own, *outputs, *no_match]))

    @functools.cached_property
    def encoded(self) -> EncodedCall:
        """The inputs as they cross to the worker, encoded once for every submission."""
        return self.sent if self.sent is not None else encode_call(self.args, self.kwargs)


class CasePlans:
    """Each check's planned cases (its `plan`, or `from_compiled`), built on first need,
    by (spec file, variant, check name); each spec's compiled data, read once. `use_compiled=False`
    computes every case with the reference (what `vitgrade compile` stores)."""

    def __init__(self, use_compiled: bool = True):
        self.use_compiled = use_compiled
        self._cases: dict[tuple[str, int, str], list[PlannedCase]] = {}
        self._compiled: dict[str, tuple[compiled.CompiledSpec | None, str]] = {}

    def cases(self, exercise, check) -> list[PlannedCase]:
        key = (exercise.path, exercise.variant, check.name)
        if key not in self._cases:
            self._cases[key] = self._plan(exercise, check)
        return self._cases[key]

    def _plan(self, exercise, check) -> list[PlannedCase]:
        if not self.use_compiled:
            return check.plan(exercise.folder or None)
        entries, why = self.lookup(exercise, "cases", check.name, frozenset({"wrong"}))
        planned = check.from_compiled(entries) if entries is not None else None
        if planned is not None:
            data = self._compiled[exercise.path][0]
            sent = (data.encoded_calls(variants.table_key(exercise, check.name))
                    if isinstance(data, compiled_folder.FolderSpec) else None)
            if sent is not None and len(sent) == len(planned):
                for case, call in zip(planned, sent, strict=True):
                    case.sent = call  # the same bytes encode_call makes of its inputs
            return planned
        if not compiled.has_reference():
            raise NotCompiled(f"this grader cannot check it: its compiled expectations are "
                              f"{why} (was the exercise's .yaml file changed?), and this grader "
                              "has no reference to compute them: get the current bundle from "
                              "your instructor")
        return check.plan(exercise.folder or None)

    def lookup(self, exercise, table: str, key: str,
               deferred: frozenset = frozenset()) -> tuple[object, str]:
        """(the compiled value, or None; why there is none: 'missing', 'stale', 'corrupt ...')"""
        if exercise.path not in self._compiled:
            try:  # read once: loading the spec read it too
                data = compiled_folder.cached(compiled.spec_file(exercise))
                why = "missing or stale" if data is None else "without this check"
            except compiled.CompiledError as error:
                data, why = None, f"unreadable ({error})"
            self._compiled[exercise.path] = (data, why)
        data, why = self._compiled[exercise.path]
        if data is None:
            return None, why
        try:
            value = data.lookup(table, variants.table_key(exercise, key), deferred)
        except compiled.CompiledError as error:
            return None, f"unreadable ({error})"
        return value, why


def _expectation(planned: PlannedCase) -> tuple:
    case = planned.case
    if case is not None and case.raises:
        return None, case.raises
    if case is not None and case.has_expect:
        return inputs.evaluate(case.expect, planned.folder), None
    function = reference_function(planned.reference, planned.folder)
    try:
        return function(*fresh_copy(planned.args), **fresh_copy(planned.kwargs)), None
    except Exception as error:  # the reference's own refusal is the expected behaviour
        return None, type(error).__name__


def _wrong_output(like: str, planned: PlannedCase) -> tuple[bool, object]:
    try:
        wrong = wrong_implementation(like, planned.folder)
    except (ImportError, KeyError):  # no reference (the bundle) and nothing compiled: no hint
        return False, None
    try:
        with np.errstate(all="ignore"):  # a wrong implementation may overflow: that is its point
            return True, wrong(*fresh_copy(planned.args), **fresh_copy(planned.kwargs))
    except Exception:
        return False, None


# Calls go to the worker a few per request, up to this many calls and bytes of arrays: one
# message each way per request, and a failing call wastes at most the rest of its request.
CALLS_PER_REQUEST = 32
REQUEST_BYTES = 2**20


def requests(items: list, encoded) -> list[list]:
    """`items` in consecutive batches, one request each: at most CALLS_PER_REQUEST and
    REQUEST_BYTES of arrays (`encoded(item)`: its values.EncodedCall) per request."""
    batches, size = [[]], 0
    for item in items:
        nbytes = encoded(item).nbytes
        if batches[-1] and (len(batches[-1]) == CALLS_PER_REQUEST
                            or size + nbytes > REQUEST_BYTES):
            batches.append([])
            size = 0
        batches[-1].append(item)
        size += nbytes
    return [batch for batch in batches if batch]
