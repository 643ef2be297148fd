"""One grading run of one submission, independent of pytest: settings, the worker, results.

The pytest layer (plugin.py, items.py) and `check()` both drive a GradingSession.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from grader.checks import ExerciseResult, GradeReport, Options, grade_exercise
from grader.spec.model import Exercise


@dataclass(frozen=True)
class GraderSettings:
    """Resolved once per run (command line over defaults)."""
    student: Path
    exercises: Path
    include_hidden: bool = True
    call_timeout: float | None = None
    json_out: Path | None = None
    feedback: bool = False          # print per-exercise feedback after the table (the CLI does)
    memory_mb: int | None = None    # worker address-space limit
    classroom: bool = False         # write GitHub Classroom output
    prairielearn_out: Path | None = None


@dataclass
class GradingSession:
    settings: GraderSettings
    zygote: object = None
    results: dict[str, ExerciseResult] = field(default_factory=dict)
    spec_errors: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.perf_counter)
    _worker: object = None

    @property
    def worker(self):
        if self._worker is None:
            from grader.worker import Limits, StudentWorker

            overrides = {"call_timeout": self.settings.call_timeout, "memory_mb": self.settings.memory_mb}
            limits = Limits(**{k: v for k, v in overrides.items() if v is not None})
            self._worker = StudentWorker(self.settings.student, limits, zygote=self.zygote)
        return self._worker

    def grade(self, exercise: Exercise) -> ExerciseResult:
        options = Options(include_hidden=self.settings.include_hidden, call_timeout=self.settings.call_timeout)
        result = grade_exercise(exercise, self.worker, options)
        self.results[exercise.id] = result
        return result

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
        )

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()


def _shown(path: Path) -> str:
    """The submission's path as a student typed it: relative to the working folder when inside it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
