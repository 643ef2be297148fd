"""Grade one exercise: each check graded by its kind (kinds/: call, answer, property), after
what all kinds share: a submission that did not load, names not defined yet, and the stand-ins
of a check graded again around broken helpers (dependencies.py, stand_ins.py; time is the
worker's: student_worker.py). `worker` is anything with `load()`, `call_many(name, [encoded
call, ...], stand_ins=)`, `call` and `get(name)`: a StudentWorker.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace

from grader.spec.model import Check, Exercise

from . import compiled, inputs
from .cases import CasePlans, NotCompiled
from .dependencies import Dependencies
from .kinds.memory import MEMORY, Memory
from .raised_seen import pointed
from .results import ERROR, FAILED, MISSING, CheckResult, ExerciseResult, check_result


@dataclass(frozen=True)
class Options:
    """How a submission is graded: `include_hidden` False grades the visible checks only."""
    include_hidden: bool = True


NOT_LOADED = "not graded: the submission could not be loaded"


def grade_exercise(exercise: Exercise, worker, options: Options = Options(),
                   plans: CasePlans | None = None, catalogue=()) -> ExerciseResult:
    """One exercise of one submission. `catalogue`: every exercise of the run, so that a check
    is graded around helpers that fail their own checks in other exercises (dependencies.py)."""
    return SubmissionGrading(worker, options, plans, catalogue or [exercise]).exercise(exercise)


class SubmissionGrading:
    """One submission's checks over a catalogue, each graded once, around broken helpers where
    that applies (dependencies.py). A session keeps one for all its exercises."""

    def __init__(self, worker, options: Options = Options(), plans: CasePlans | None = None,
                 catalogue=(), oracles=None):
        self.worker, self.options, self.plans = worker, options, plans or CasePlans()
        graded = [(e, c) for e in catalogue for c in e.checks if self._graded(c)]
        self.dependencies = Dependencies(graded, self._grade_one)
        # by exercises folder: the run's stand-in oracles (oracle.Oracle), kept for its next
        # submission and renewed for this one, or this submission's own
        self.oracles: dict = {} if oracles is None else oracles
        for oracle in self.oracles.values():
            oracle.renew()
        self._own_oracles = oracles is None
        self.memory = Memory(worker)  # what its checks learned, for its other checks

    def close(self) -> None:
        """Stop the reference's processes, if a stand-in call started one and the run does not
        keep them for its next submission."""
        if self._own_oracles:
            for oracle in self.oracles.values():
                oracle.close()

    def exercise(self, exercise: Exercise) -> ExerciseResult:
        start = time.perf_counter()
        token = MEMORY.set(self.memory)  # what one check learns, its other checks use
        self.memory.around.clear()  # the regrades' cases weigh within their exercise only
        self.memory.begin(exercise.path)  # its cases graded ahead of it: ordinary ones now
        try:
            checks = [check for check in exercise.checks if self._graded(check)]
            for check in checks:  # every check's own verdict first, so that explaining one
                self.dependencies.first(exercise, check)  # weighs all the cases its function
            for check in checks:  # ran in the exercise
                self.dependencies.result(exercise, check)
            results = tuple(self.dependencies.explained_again(exercise, check)  # what a later
                            for check in checks)  # check named, tried on the earlier ones
            results = pointed(checks, results, lambda c: self.plans.cases(exercise, c),
                              self.memory)  # a raise another check already told the cause of
        finally:
            MEMORY.reset(token)
        return ExerciseResult(exercise.id, exercise.title, exercise.lecture, results,
                              time.perf_counter() - start)

    def _graded(self, check: Check) -> bool:
        return self.options.include_hidden or not check.hidden

    def _grade_one(self, exercise: Exercise, check: Check, stand_in_names: tuple[str, ...],
                   recorded_only: bool = False):
        """(the check's result, or None when it was not graded, None or what explains its
        failure (Kind.grade_deferred), the stand-ins its student code called, why one of their
        calls was not answered or ""); stand-ins only for `stand_in_names` (none: the student's
        code as it is), answered from the recorded answers alone when `recorded_only` (as in
        the student bundle, which has no reference to compute the others)."""
        load = self.worker.load()
        if not load.ok:  # one reason for every check, not "not defined" or "got ..." per check
            return check_result(check, FAILED, _not_loaded(load)), None, frozenset(), ""
        absent = [n for n in check.must_define(exercise.uses) if n not in load.names]
        if absent:
            message = f"`{absent[0]}` is not defined yet"
            return check_result(check, MISSING, message), None, frozenset(), ""
        if not stand_in_names:  # the worker's call limits: the session set them (settings.py)
            return *_grade_deferred(exercise, check, self.worker, self.plans), frozenset(), ""
        from .oracle import Oracle  # a regrade around broken helpers only: not for a pass
        from .stand_ins import NOT_COMPILED, StandIns, StandInWorker, recorded_calls

        recorded = recorded_calls(compiled.spec_file(exercise))
        if recorded is None:
            return None, None, frozenset(), NOT_COMPILED
        if exercise.folder not in self.oracles:  # started once a run, renewed per submission
            self.oracles[exercise.folder] = Oracle(exercise.folder)
        oracle = None if recorded_only else self.oracles[exercise.folder]
        stand_ins = StandIns(stand_in_names, check, recorded, oracle)
        result, explain = _grade_deferred(exercise, check, StandInWorker(self.worker, stand_ins),
                                          self.plans)
        return result, explain, frozenset(stand_ins.used), stand_ins.unavailable


def grade_around(exercise: Exercise, check: Check, worker, stand_ins,
                 plans: CasePlans) -> CheckResult:
    """The check graded with `stand_ins` bound in the worker (dependencies.py grades again
    this way; `vitgrade compile` records the stand-ins' answers this way)."""
    from .stand_ins import StandInWorker

    return _grade_check(exercise, check, StandInWorker(worker, stand_ins), plans)


def _not_loaded(load) -> str:
    """NOT_LOADED, with the first problem: "...: vit_exercises.py:3: SyntaxError: ..."."""
    first = load.problems[0] if load.problems else None
    return f"{NOT_LOADED}: {first.where}: {first.message}" if first else NOT_LOADED


def _grade_check(exercise: Exercise, check: Check, worker, plans: CasePlans) -> CheckResult:
    result, explain = _grade_deferred(exercise, check, worker, plans)
    return explain(result) if explain else result


def _grade_deferred(exercise: Exercise, check: Check, worker, plans: CasePlans):
    """(the check's result, None or what explains its failure, timed: Kind.grade_deferred)."""
    start = time.perf_counter()
    explain = None
    try:
        result, explain = check.grade_deferred(exercise, worker, plans)
    except inputs.InputError as exc:
        result = check_result(check, ERROR,
                              f"the exercise spec is broken ({exc}); tell your instructor")
    except NotCompiled as exc:
        result = check_result(check, ERROR, str(exc))
    result = replace(result, seconds=time.perf_counter() - start)
    return result, explain and _timed(explain)


def _timed(explain):
    def timed(result: CheckResult) -> CheckResult:
        start = time.perf_counter()
        explained = explain(result)
        return replace(explained, seconds=result.seconds + time.perf_counter() - start)
    return timed
