"""Grading one submission, for the driver (driver.py): resolved settings and the catalogue in, a
GradeReport out. `run()` grades every exercise (`vitgrade grade`, `watch`, grade-all's jobs,
`check()`); the plugin calls `grade(exercise)` per pytest item. The submission's one worker
grades each exercise under its own limits (`settings.limits(exercise)`, resolved once) and holds
the submission's deadline (docs/architecture.md, "One driver" and "Time").
"""
from __future__ import annotations

import time
from contextlib import suppress
from dataclasses import dataclass, field, replace

from grader.checks import ExerciseResult, GradeReport, Options, SubmissionGrading
from grader.checks.cases import CasePlans
from grader.checks.compiled import spec_file
from grader.checks.regrade_notes import OWN_CODE
from grader.checks.results import ERROR, CheckResult, printed_tail
from grader.report.feedback_level import redacted
from grader.settings import GraderSettings
from grader.spec.model import Exercise
from grader.spec.parse import shown_path

_UNREAD = object()  # the submission's source not read yet (None: it cannot be)


@dataclass
class GradingSession:
    """One submission's grading: its worker, its deadline and its results, exercise by exercise."""

    settings: GraderSettings
    # every valid exercise of the folder: a check is graded around helpers that fail their own
    # checks in other exercises (checks/dependencies.py): the driver's
    catalogue: list = field(default_factory=list)
    spec_errors: list[str] = field(default_factory=list)
    zygote: object = None
    plans: CasePlans = field(default_factory=CasePlans)  # shared by a batch job's students
    refused: dict = field(default_factory=dict)  # a spec error -> its spec's (id, title, ...)
    results: dict[str, ExerciseResult] = field(default_factory=dict)
    interrupted: bool = False  # run() was stopped by ^C: the report holds what was graded
    started: float = field(default_factory=time.perf_counter)
    clock_start: float = field(default_factory=time.monotonic)  # the submission's time starts
    shared: str | None = None  # why exercises with variants are graded in their shared version
    oracles: dict | None = None  # the run's oracles by folder (checks.oracle.Oracle), kept
    _worker: object = None
    _grading: SubmissionGrading | None = None
    _source: object = None  # report/quotes.Source of the submission, once a hint needs it

    def __post_init__(self):
        self._source = _UNREAD
        if self.settings.run_limits is None:  # not through the driver: the limits resolved now
            self.settings = self.settings.for_catalogue(self.catalogue)

    @property
    def worker(self):
        if self._worker is None:
            from grader.worker import StudentWorker

            limits = self.settings.limits()
            deadline = self.clock_start + limits.submission_timeout  # the whole submission's
            self._worker = StudentWorker(self.settings.student, limits, zygote=self.zygote,
                                         deadline=deadline)
        return self._worker

    def grade(self, exercise: Exercise) -> ExerciseResult:
        """One exercise (the student's variant of it: the catalogue's of its id), under its own
        limits. The grader's own bug costs the exercise (0 of its points, `internal_error`, so
        every report has the same maximum) and is raised."""
        exercise = next((e for e in self.catalogue if e.id == exercise.id), exercise)
        try:
            worker = self.worker
            worker.use_limits(self.settings.limits(exercise))
            if self._grading is None:  # every check's verdict for this submission, each once
                options = Options(self.settings.include_hidden)
                self._grading = SubmissionGrading(worker, options, self.plans, self.catalogue,
                                                  self.oracles)
            # what the student is told: each hint's quotes as the student's code has them
            # (report/quotes.py), each check at its feedback level, before any output
            result = redacted(self.quoted(self._grading.exercise(exercise)),
                              self.settings.feedback_levels(exercise))
        except Exception as error:
            self.results[exercise.id] = internal_error(exercise, error)
            raise
        if exercise.variants and not self.shared:
            result = replace(result, variant=exercise.variant)
        self.results[exercise.id] = result
        return result

    def quoted(self, result: ExerciseResult) -> ExerciseResult:
        """`result` with its hints' code quotes said as the model solution's where the submission's
        source does not hold them; its source is read (never run) once, at the first hint that
        quotes code."""
        if not any((check.hint and ("`" in check.hint or check.misconception))
                   or OWN_CODE in check.message  # a regrade's own code: own_code.py
                   or check.calls_seen  # an array built for a fixed size: fixed_size.py
                   for check in result.checks):  # a named mistake: discarded.py may say it
            return result
        # imported here: a run whose hints quote no code (the solution's) never pays for it
        from grader.report.quotes import submission_code
        from grader.report.spelled import finished
        if self._source is _UNREAD:
            most = self.settings.limits().file_mb * 2**20  # what the worker reads at most
            api = frozenset(name for e in self.catalogue for name in e.uses)
            self._source = submission_code(self.settings.student, most, api)
        exercise = next((e for e in self.catalogue if e.id == result.id), None)
        spec = str(spec_file(exercise)) if exercise is not None else None  # its compiled data
        return finished(result, self._source, str(self.settings.exercises), spec)

    def run(self, exercises: list[Exercise] | None = None) -> GradeReport:
        """Grade `exercises` (default: the catalogue) in order, close the worker, report them. A
        grader's bug costs its exercise, never the run; ^C stops the grading, not the report."""
        exercises = self.catalogue if exercises is None else exercises
        try:
            for exercise in exercises:
                with suppress(Exception):  # recorded by grade() as the exercise's result
                    self.grade(exercise)
        except KeyboardInterrupt:
            self.interrupted = True
        finally:
            self.close()  # every process of the submission ends before the report is written
        return self.report([exercise.id for exercise in exercises])

    def report(self, order: list[str] | None = None) -> GradeReport:
        ids = order or list(self.results)
        load = self._worker.load() if self._worker is not None else None
        problems = tuple(f"{p.where}: {p.message}" for p in load.problems) if load else ()
        fatal = None
        if load is not None and not load.ok:
            fatal = problems[0] if problems else "the submission could not be loaded"
        folder = f"{self.settings.exercises} ({self.settings.exercises_origin})"
        return GradeReport(
            submission=shown_path(self.settings.student),
            exercises=tuple(self.results[i] for i in ids if i in self.results) + tuple(
                not_graded(error, *self.refused[error]) for error in self.spec_errors
                if error in self.refused),
            load_problems=problems, spec_errors=tuple(self.spec_errors), fatal=fatal,
            notes=(tuple(load.notes) if load else ()) + ((
                f"exercises with each student's own numbers were graded with the shared "
                f"version (variant 0), the one everyone gets: {self.shared}",)
                if self.shared else ()),
            seconds=time.perf_counter() - self.started, exercises_folder=folder.removesuffix(" ()"),
            printed=printed_tail(load.stdout) if load is not None and load.problems else "")

    def hiding(self):
        """What the worker said it hid from student code (worker/outcomes.Hiding), if one ran."""
        load = self._worker.load() if self._worker is not None else None
        return load.hiding if load is not None else None

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
        if self._grading is not None:
            self._grading.close()


def not_graded(error: str, id: str, title: str, lecture: str, points: float) -> ExerciseResult:
    """An exercise whose spec was refused: its points stay in the total, none of them scored."""
    check = CheckResult(name="not graded", points=points, score=0.0, status=ERROR,
                        message=f"not graded: its spec is broken ({error}); tell your instructor")
    return ExerciseResult(id, title, lecture, (check,))


def internal_error(exercise: Exercise, error: Exception) -> ExerciseResult:
    """An exercise the grader failed to grade: 0 of its points, and why."""
    message = (f"internal grader error ({type(error).__name__}: {error}); "
               "this is a bug in vit-grader, not in your code: please report it")
    check = CheckResult(name="grading", points=exercise.points, score=0.0, status=ERROR,
                        message=message)
    return ExerciseResult(exercise.id, exercise.title, exercise.lecture, (check,))
