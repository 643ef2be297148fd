"""One grading run of one submission, independent of pytest: settings, the worker, results.

The pytest layer (plugin.py, items.py) and `check()` both drive a GradingSession.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from grader.checks import ExerciseResult, GradeReport, Options, SubmissionGrading
from grader.checks.cases import CasePlans
from grader.checks.results import ERROR, CheckResult, printed_tail
from grader.settings import SUBMISSION_TIMEOUT, GraderSettings
from grader.spec.model import Exercise


@dataclass
class GradingSession:
    settings: GraderSettings
    zygote: object = None
    plans: CasePlans = field(default_factory=CasePlans)  # shared by a batch job's students
    # every valid exercise of the folder: a check is graded around helpers that fail their own
    # checks in other exercises (checks/dependencies.py); the plugin sets it once collected
    catalogue: list = field(default_factory=list)
    results: dict[str, ExerciseResult] = field(default_factory=dict)
    spec_errors: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.perf_counter)
    clock_start: float = field(default_factory=time.monotonic)  # the submission's time starts
    _worker: object = None
    _run_limits: object = None      # the worker's limits before any exercise's own
    _grading: SubmissionGrading | None = None

    @property
    def worker(self):
        if self._worker is None:
            from grader.secret_paths import hidden_paths
            from grader.worker import Limits, StudentWorker

            settings = self.settings
            overrides = {"call_timeout": settings.call_timeout, "memory_mb": settings.memory_mb,
                         "load_timeout": settings.load_timeout,
                         "max_processes": settings.max_processes,
                         "max_output_bytes": settings.output_kb and settings.output_kb * 1000,
                         "file_mb": settings.file_mb}
            limits = Limits(**{k: v for k, v in overrides.items() if v is not None},
                            hide=hidden_paths(settings))
            self._worker = StudentWorker(self.settings.student, limits, zygote=self.zygote,
                                         deadline=self.deadline)
        return self._worker

    @property
    def submission_seconds(self) -> float:
        return self.settings.submission_timeout or SUBMISSION_TIMEOUT

    @property
    def deadline(self) -> float:
        """time.monotonic() when the whole submission's time runs out."""
        return self.clock_start + self.submission_seconds

    def exercise_limits(self, exercise: Exercise):
        """The worker's limits while `exercise` is graded: the command line's, else the spec's,
        else the default (call_timeout is passed per call, see Options)."""
        if self._run_limits is None:
            self._run_limits = self.worker.limits
        settings, spec = self.settings, exercise.limits
        chosen = {"memory_mb": (settings.memory_mb, spec.memory_mb),
                  "max_processes": (settings.max_processes, spec.max_processes),
                  "max_output_bytes": (settings.output_kb,
                                       spec.output_kb and spec.output_kb * 1000),
                  "file_mb": (settings.file_mb, spec.file_mb)}
        return replace(self._run_limits, **{k: spec_value
                                            for k, (given, spec_value) in chosen.items()
                                            if given is None and spec_value is not None})

    @property
    def grading(self) -> SubmissionGrading:
        """Every check's verdict for this submission, each graded once."""
        if self._grading is None:
            options = Options(include_hidden=self.settings.include_hidden,
                              call_timeout=self.settings.call_timeout, deadline=self.deadline,
                              submission_seconds=self.submission_seconds)
            self._grading = SubmissionGrading(self.worker, options, self.plans, self.catalogue)
        return self._grading

    def grade(self, exercise: Exercise) -> ExerciseResult:
        try:
            self.worker.use_limits(self.exercise_limits(exercise))
            result = self.grading.exercise(exercise)
        except Exception as error:
            # The grader's bug: the exercise scores 0 of its points, so that every report has the
            # same maximum whatever the submission did; pytest shows the error.
            self.results[exercise.id] = internal_error(exercise, error)
            raise
        self.results[exercise.id] = result
        return result

    def grade_all(self, exercises: list[Exercise]) -> None:
        """Grade `exercises` in order. The grader's own bug costs its exercise (0 points and why,
        `internal_error`), never the run."""
        for exercise in exercises:
            try:
                self.grade(exercise)
            except Exception:  # noqa: BLE001 - recorded by grade() as the exercise's result
                pass

    def report(self, order: list[str] | None = None) -> GradeReport:
        ids = order or list(self.results)
        load = self._worker.load() if self._worker is not None else None
        problems = tuple(f"{p.where}: {p.message}" for p in load.problems) if load else ()
        fatal = None
        if load is not None and not load.ok:
            fatal = problems[0] if problems else "the submission could not be loaded"
        return GradeReport(
            submission=_shown(self.settings.student),
            exercises=tuple(self.results[i] for i in ids if i in self.results),
            load_problems=problems, spec_errors=tuple(self.spec_errors), fatal=fatal,
            seconds=time.perf_counter() - self.started,
            printed=printed_tail(load.stdout) if load is not None and load.problems else "",
            exercises_folder=f"{self.settings.exercises} ({self.settings.exercises_origin})"
            .removesuffix(" ()"),
        )

    def hiding(self):
        """What the worker said it hid from student code (worker/outcomes.Hiding), if one ran."""
        load = self._worker.load() if self._worker is not None else None
        return load.hiding if load is not None else None

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()


def internal_error(exercise: Exercise, error: Exception) -> ExerciseResult:
    """An exercise the grader failed to grade: 0 of its points, and why."""
    message = (f"internal grader error ({type(error).__name__}: {error}); "
               f"this is a bug in vit-grader, "
               f"not in your code: please report it")
    check = CheckResult(name="grading", points=exercise.points, score=0.0, status=ERROR,
                        message=message)
    return ExerciseResult(exercise.id, exercise.title, exercise.lecture, (check,))


def _shown(path: Path) -> str:
    """The submission's path as a student typed it: relative to the working folder when inside
    it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, RuntimeError):  # RuntimeError: a link that loops (graded, and refused)
        return str(path)
