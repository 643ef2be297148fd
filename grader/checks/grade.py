"""Grade one exercise: build each check's cases, call the student through the worker,
compute the expected value here (never in the worker), compare, and say what went wrong.

`grade_exercise(exercise, worker, options, plans, catalogue)` -> ExerciseResult; a session keeps
a `SubmissionGrading` for all its exercises. `worker` is anything with `load()`,
`call_many(name, [encoded call, ...], timeout=, stand_ins=)`, `call` and `get(name)`: a
StudentWorker. `plans` (cases.py) keeps each check's cases for the next submission. A failing
check is graded again around the student's broken helpers (dependencies.py, stand_ins.py).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from grader.spec.model import Check, Compare, Exercise

from . import compiled, inputs
from .answer_key import normalise
from .api import required_params
from .cases import CasePlans, NotCompiled, PlannedCase
from .compare import compare
from .dependencies import Dependencies
from .describe import call_label, describe
from .mistakes import explained, named
from .properties import PROPERTIES, PropertyContext, Verdict
from .results import (
    ERROR,
    FAILED,
    MISSING,
    NOT_IMPLEMENTED,
    PASSED,
    CheckResult,
    ExerciseResult,
    printed_tail,
)
from .stand_ins import Budget, StandIns, StandInWorker, answers_for
from .student import StudentCallFailed, StudentCalls

HIDDEN_FAILURE = "failed on a hidden case (its inputs are not shown)"
# A check's cases go to the worker a few per request, up to this many calls and bytes of arrays:
# a failing case wastes at most the rest of its request.
CALLS_PER_REQUEST = 32
REQUEST_BYTES = 2**20


@dataclass(frozen=True)
class Options:
    include_hidden: bool = True
    call_timeout: float | None = None     # overrides the spec's and the worker's default
    deadline: float | None = None         # time.monotonic() when the whole submission's time ends
    submission_seconds: float = 0.0       # that time, for the message


NOT_LOADED = "not graded: the submission could not be loaded"
OUT_OF_TIME = ("out of time: the grader's {seconds:g} s for the whole submission ran out before "
               "this check ran")


def grade_exercise(exercise: Exercise, worker, options: Options = Options(),
                   plans: CasePlans | None = None, catalogue=()) -> ExerciseResult:
    """One exercise of one submission. `catalogue`: every exercise of the run, so that a check
    is graded around helpers that fail their own checks in other exercises (dependencies.py)."""
    return SubmissionGrading(worker, options, plans, catalogue or [exercise]).exercise(exercise)


class SubmissionGrading:
    """One submission's checks over a catalogue, each graded once, around broken helpers where
    that applies (dependencies.py). A session keeps one for all its exercises."""

    def __init__(self, worker, options: Options = Options(), plans: CasePlans | None = None,
                 catalogue=()):
        self.worker, self.options, self.plans = worker, options, plans or CasePlans()
        graded = [(e, c) for e in catalogue for c in e.checks if self._graded(c)]
        self.dependencies = Dependencies(graded, self._grade_one)

    def exercise(self, exercise: Exercise) -> ExerciseResult:
        start = time.perf_counter()
        results = tuple(self.dependencies.result(exercise, check)
                        for check in exercise.checks if self._graded(check))
        return ExerciseResult(exercise.id, exercise.title, exercise.lecture, results,
                              time.perf_counter() - start)

    def _graded(self, check: Check) -> bool:
        return self.options.include_hidden or not check.hidden

    def _grade_one(self, exercise: Exercise, check: Check, stand_in_names: tuple[str, ...]):
        """(the check's result, the stand-ins its student code called, whether each was
        answered); stand-ins only for `stand_in_names` (none: the student's code as it is)."""
        load, options = self.worker.load(), self.options
        if not load.ok:  # one reason for every check, not "not defined" or "got ..." per check
            return _result(check, FAILED, _not_loaded(load)), frozenset(), True
        needed = [check.call] if check.call else ["ANSWERS"] if check.kind == "answer" else []
        absent = [n for n in exercise.uses if n != "ANSWERS" and n not in load.names
                  and (not needed or n in needed)]
        if absent:
            message = f"`{absent[0]}` is not defined in your submission yet"
            return _result(check, MISSING, message), frozenset(), True
        if options.deadline is not None and time.monotonic() >= options.deadline:
            message = OUT_OF_TIME.format(seconds=options.submission_seconds)
            return _result(check, FAILED, message), frozenset(), True
        timeout = options.call_timeout or exercise.call_timeout
        if not stand_in_names:
            result = _grade_check(exercise, check, self.worker, timeout, self.plans)
            return result, frozenset(), True
        try:
            cases = self.plans.cases(exercise, check) if check.kind == "call" else []
        except (inputs.InputError, NotCompiled):
            cases = []  # grading it says what is wrong
        budget = Budget.around([(p.args, p.kwargs) for p in cases]) if cases else Budget()
        stand_ins = StandIns(stand_in_names, budget, answers_for(compiled.spec_file(exercise)))
        result = grade_around(exercise, check, self.worker, stand_ins, self.plans, timeout)
        return result, frozenset(stand_ins.used), not stand_ins.unavailable


def grade_around(exercise: Exercise, check: Check, worker, stand_ins: StandIns,
                 plans: CasePlans, timeout: float | None = None) -> CheckResult:
    """The check graded with `stand_ins` bound in the worker (dependencies.py grades again
    this way; `vitgrade compile` records the stand-ins' answers this way)."""
    return _grade_check(exercise, check, StandInWorker(worker, stand_ins), timeout, plans)


def _not_loaded(load) -> str:
    """NOT_LOADED, with the first problem: "...: vit_exercises.py:3: SyntaxError: ..."."""
    first = load.problems[0] if load.problems else None
    return f"{NOT_LOADED}: {first.where}: {first.message}" if first else NOT_LOADED


def _grade_check(exercise: Exercise, check: Check, worker, timeout,
                 plans: CasePlans) -> CheckResult:
    start = time.perf_counter()
    try:
        if check.kind == "call":
            result = _grade_call_check(check, worker, timeout, plans.cases(exercise, check))
        elif check.kind == "answer":
            result = _grade_answer_check(check, worker, plans.answer_key(exercise, check))
        else:
            result = _grade_property_check(check, worker, timeout)
    except inputs.InputError as exc:
        result = _result(check, ERROR, f"the exercise spec is broken ({exc}); tell your instructor")
    except NotCompiled as exc:
        result = _result(check, ERROR, str(exc))
    return replace(result, seconds=time.perf_counter() - start)


def _result(check: Check, status: str, message: str = "", hint: str | None = None, cases: int = 0,
            misconception: str | None = None, printed: str = "") -> CheckResult:
    return CheckResult(
        name=check.name, points=check.points, score=check.points if status == PASSED else 0.0,
        status=status, message=message, hint=hint if status != PASSED else None,
        hidden=check.hidden, visibility=check.visibility, cases=cases, misconception=misconception,
        printed="" if check.hidden else printed_tail(printed),  # a hidden case's could show inputs
    )


# --- function checks ---------------------------------------------------------

def _grade_call_check(check: Check, worker, timeout, cases: list[PlannedCase]) -> CheckResult:
    """Send the cases in requests of a few (one message each way per request), judge them in
    order; the first failing case is the verdict."""
    params = required_params(check.reference or check.call)
    number = 0
    for request in _requests(cases):
        outcomes = worker.call_many(check.call, [p.encoded for p in request], timeout=timeout)
        for planned, outcome in zip(request, outcomes, strict=True):
            number += 1
            failed = _judge_call(check, planned, outcome, params, number, len(cases))
            if failed is not None:
                return explained(failed, check, cases[:number - 1], planned)
    return _result(check, PASSED, cases=len(cases))


def _requests(cases: list[PlannedCase]) -> list[list[PlannedCase]]:
    """Consecutive cases, at most CALLS_PER_REQUEST and REQUEST_BYTES of arrays per request."""
    requests, size = [[]], 0
    for planned in cases:
        nbytes = planned.encoded.nbytes
        if requests[-1] and (len(requests[-1]) == CALLS_PER_REQUEST
                             or size + nbytes > REQUEST_BYTES):
            requests.append([])
            size = 0
        requests[-1].append(planned)
        size += nbytes
    return requests


def _judge_call(check: Check, planned: PlannedCase, outcome, params, number: int,
                total: int) -> CheckResult | None:
    """None when case `number` (of `total`) passed, else the check's failed result."""
    stopped = outcome.status in ("timeout", "crashed") and not check.hidden  # named in the message
    label = call_label(check.call, params, planned.args, planned.kwargs) if stopped else None
    failure = _judge_case(check, planned, outcome, label)
    if failure is None:
        return None
    status, lines, hint, matched = failure
    if status == NOT_IMPLEMENTED:
        return _result(check, NOT_IMPLEMENTED, f"`{check.call}` is not implemented yet",
                       cases=number)
    if check.hidden:
        message = f"{HIDDEN_FAILURE}: case {number} of {total}"
        if outcome.status in ("timeout", "crashed"):
            message += f"; {outcome.message}"
        elif outcome.status == "raised":
            message += f"; your code raised {outcome.error.type}" + _limit(outcome)
        return _result(check, FAILED, message, hint, number, matched)
    header = (f"case {number} of {total}: "
              f"{call_label(check.call, params, planned.args, planned.kwargs)}")
    if planned.source and len(planned.source) <= 600:
        header += f"\n  to reproduce: {inputs.with_imports(planned.source)}"
    return _result(check, FAILED, "\n".join([header] + [f"  {line}" for line in lines]), hint,
                   number, matched, printed=outcome.stdout)


def _judge_case(check: Check, planned: PlannedCase, outcome, label: str | None = None):
    """None when the case passed, else (status, message lines, hint, misconception name)."""
    case_hint = planned.case.hint if planned.case else None
    if outcome.status == "raised" and outcome.error.type == "NotImplementedError":
        return NOT_IMPLEMENTED, [], None, None
    expected, expects_error = planned.expectation()
    if expects_error:
        if outcome.status == "raised" and outcome.error.type == expects_error:
            return None
        if outcome.status == "ok":
            hint, matched = _misconception(check, planned, outcome.value, check.compare)
            return FAILED, [f"expected: {expects_error}",
                            f"got:      {describe(outcome.value)} (no error)"], \
                hint or case_hint or check.hint, matched
        return (FAILED, [f"expected: {expects_error}"] + _outcome_lines(outcome, label),
                case_hint or check.hint, None)
    if outcome.status != "ok":
        return FAILED, _outcome_lines(outcome, label), case_hint or check.hint, None
    how = check.compare or _default_compare(expected)
    mismatch = compare(expected, outcome.value, how)
    if mismatch is None:
        return None
    hint, matched = _misconception(check, planned, outcome.value, how)
    return FAILED, mismatch.lines(), hint or case_hint or check.hint, matched


def _limit(outcome) -> str:
    """' (the grader limits the memory of your code to 4096 MB)' when a worker limit made the
    call raise."""
    limit = getattr(outcome.error, "limit", None)
    return f" ({limit})" if limit else ""


def _outcome_lines(outcome, label: str | None = None) -> list[str]:
    """What the student's call did, as `got:` lines; `label` (visible cases only) names the call
    in a timeout or a crash, the limits that stop a call: "timed out after 10 s in
    patchify(...)"."""
    if outcome.status == "raised":
        lines = [f"got:      {outcome.error.type}: {outcome.error.message}"]
        if outcome.error.traceback:
            lines += ["your code:"] + ["  " + line
                                       for line in outcome.error.traceback.rstrip().splitlines()]
        return lines
    if label and outcome.status in ("timeout", "crashed"):
        return [f"got:      {outcome.message} in {label}"]
    return [f"got:      {outcome.message or outcome.status}"]


def _default_compare(expected) -> Compare:
    if isinstance(expected, (int, np.integer)) and not isinstance(expected, bool):
        return Compare(mode="count")
    if isinstance(expected, (np.ndarray, float, np.floating)):
        return Compare(mode="allclose")
    return Compare(mode="equal")


def _misconception(check: Check, planned: PlannedCase, got, how: Compare | None):
    """(hint, name) of the misconception, or the combination, whose output `got` matches, else
    (None, None) (mistakes.py).

    `how` is the check's comparison; None (a case that should have raised) compares each
    wrong output the way its type suggests.
    """
    return named(check, planned, lambda wrong: _matches(wrong, got, how or _default_compare(wrong)))


def _matches(wrong, got, how: Compare) -> bool:
    if how.mode == "count" and isinstance(wrong, float):
        return isinstance(got, (float, np.floating)) and float(got) == wrong
    # softmax without max: nan where the student's is
    return compare(wrong, got, how, equal_nan=True) is None


# --- multiple choice ---------------------------------------------------------

def _grade_answer_check(check: Check, worker, key) -> CheckResult:
    """`key` (answer_key.AnswerKey): the spec's right answer and feedback, or the sealed ones."""
    outcome = worker.get("ANSWERS")
    if outcome.status in ("missing",):
        return _result(check, MISSING, "`ANSWERS` is not defined in your submission yet")
    if outcome.status != "ok":
        return _result(check, FAILED, "`ANSWERS` could not be read: "
                                      f"{outcome.message or outcome.status}")
    if not isinstance(outcome.value, dict):
        return _result(check, FAILED, "`ANSWERS` must be a dict of question key -> option, "
                                      f"got {describe(outcome.value)}")
    options = ", ".join(f"'{o}'" for o in check.answer_options)
    raw = outcome.value.get(check.answer_key)
    if raw is None:
        return _result(check, NOT_IMPLEMENTED, f"ANSWERS['{check.answer_key}'] is not answered "
                                               f"yet (options: {options})")
    if not isinstance(raw, str):
        return _result(check, FAILED, f"ANSWERS['{check.answer_key}'] must be one of {options}, "
                                      f"got {describe(raw)}")
    answer = normalise(raw)
    verdict = key.verdict(answer)
    if verdict:
        return _result(check, PASSED, cases=1)
    if verdict is None:
        return _result(check, FAILED, f"ANSWERS['{check.answer_key}'] = {raw!r} is not one of "
                                      f"the options {options}", cases=1)
    return _result(check, FAILED, f"ANSWERS['{check.answer_key}'] = {raw!r} is not the best answer",
                   hint=key.feedback(answer), cases=1, misconception=f"{check.answer_key}:{answer}")


# --- property checks ---------------------------------------------------------

def _grade_property_check(check: Check, worker, timeout) -> CheckResult:
    context = PropertyContext(StudentCalls(worker, timeout), np.random.default_rng(check.seed),
                              dict(check.options))
    try:
        verdict: Verdict = PROPERTIES[check.property_name](context)
    except StudentCallFailed as failed:
        outcome = failed.outcome
        if outcome.status == "raised" and outcome.error.type == "NotImplementedError":
            return _result(check, NOT_IMPLEMENTED, f"`{failed.name}` is not implemented yet")
        if outcome.status == "missing":
            return _result(check, MISSING, f"`{failed.name}` is not defined in your submission yet")
        lines = _outcome_lines(outcome) if not check.hidden else [
            f"your code: {outcome.message or outcome.status}"
            if outcome.status in ("timeout", "crashed")
            else f"your code: {outcome.status}"
            + (_limit(outcome) if outcome.status == "raised" else "")]
        return _result(check, FAILED, f"while checking this property, {failed.name}(...) failed:\n"
                       + "\n".join("  " + line for line in lines), check.hint,
                       printed=outcome.stdout)
    if verdict.passed:
        return _result(check, PASSED, cases=1)
    message = HIDDEN_FAILURE if check.hidden else verdict.message
    # the spec's words first
    return _result(check, FAILED, message, check.hint or verdict.hint, 1, verdict.misconception)
