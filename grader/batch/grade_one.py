"""Grade submission after submission in this process: specs loaded and checked once, one zygote.

What `vitgrade grade` does through pytest, without pytest's start-up per submission: the same
GradingSession, the same specs (a broken spec is reported and the others graded), and for each
submission a fresh worker forked from this process's zygote, so every student's code starts
from a clean, warm process and never runs here.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from grader.checks.results import GradeReport
from grader.session import GradingSession, internal_error
from grader.settings import GraderSettings
from grader.spec import SpecError, load_specs
from grader.spec.model import Exercise


class SubmissionGrader:
    """`limits`: the worker's limits by GraderSettings field (call_timeout, load_timeout, memory_mb, ...)."""

    def __init__(self, exercises_dir: str | Path, limits: dict | None = None, zygote=None):
        from grader.checks.cases import CasePlans
        from grader.worker.zygote_handle import FORK_AVAILABLE, Zygote

        self.zygote = zygote if zygote is not None else (Zygote() if FORK_AVAILABLE else None)
        self.exercises_dir = Path(exercises_dir)
        self.exercises, self.spec_errors = load_checked_specs(self.exercises_dir)
        self.limits = {k: v for k, v in (limits or {}).items() if v is not None}
        self.plans = CasePlans()  # each case's expected value computed once for all students

    def grade(self, path: str | Path, shown: str | None = None) -> GradeReport:
        """The report of the submission at `path`; `shown` is the name students see for it."""
        settings = GraderSettings(student=Path(path), exercises=self.exercises_dir, **self.limits)
        session = GradingSession(settings, zygote=self.zygote, plans=self.plans)
        session.spec_errors.extend(self.spec_errors)
        try:
            for exercise in self.exercises:
                try:
                    session.grade(exercise)
                except Exception as exc:  # noqa: BLE001 - the grader's bug costs one exercise, not the class
                    session.results.setdefault(exercise.id, internal_error(exercise, exc))
            report = session.report([e.id for e in self.exercises])
        finally:
            session.close()
        return dataclasses.replace(report, submission=shown) if shown else report

    def close(self) -> None:
        if self.zygote is not None:
            self.zygote.close()


def load_checked_specs(folder: Path) -> tuple[list[Exercise], list[str]]:
    """The exercises that load and validate, and one message per spec that does not."""
    from grader.checks.validate import validate_exercise

    exercises, errors = load_specs(folder)
    good = []
    for exercise in exercises:
        problems = validate_exercise(exercise)
        if problems:
            errors.append(problems[0])
        else:
            good.append(exercise)
    return good, [str(e) for e in errors if isinstance(e, SpecError)]
