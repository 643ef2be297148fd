"""Grade submission after submission in this process: specs loaded and checked once, one zygote.

What `vitgrade grade` does for one submission, for a class: the same GradingSession, the same
specs (a broken spec is reported and the others graded), and for each submission a fresh worker
forked from this process's zygote, so every student's code starts from a clean, warm process and
never runs here.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from grader.checks.catalogue import load_exercises
from grader.checks.results import GradeReport
from grader.session import GradingSession
from grader.settings import GraderSettings


class SubmissionGrader:
    """`limits`: the worker's limits by option name (call_timeout, load_timeout, memory_mb, ...);
    `hide`: more paths to hide from student code (grade-all's --out, grader/secret_paths.py)."""

    def __init__(self, exercises_dir: str | Path, limits: dict | None = None, zygote=None,
                 include_hidden: bool = True, exercises_origin: str = "", hide=()):
        from grader.checks.cases import CasePlans
        from grader.worker.zygote_handle import FORK_AVAILABLE, Zygote

        self.zygote = zygote if zygote is not None else (Zygote() if FORK_AVAILABLE else None)
        self.exercises_dir = Path(exercises_dir)
        exercises, errors = load_exercises(self.exercises_dir)
        self.exercises, self.spec_errors = exercises, [str(error) for error in errors]
        self.limits = {k: v for k, v in (limits or {}).items() if v is not None}
        self.plans = CasePlans()  # each case's expected value computed once for all students
        self.include_hidden = include_hidden
        self.exercises_origin = exercises_origin  # shown in the report (grader.spec.locate)
        self.hide = tuple(Path(path) for path in hide)

    def grade(self, path: str | Path, shown: str | None = None) -> GradeReport:
        """The report of the submission at `path`; `shown` is the name students see for it."""
        settings = GraderSettings(student=Path(path), exercises=self.exercises_dir,
                                  exercises_origin=self.exercises_origin,
                                  include_hidden=self.include_hidden, also_hidden=self.hide,
                                  **self.limits)
        session = GradingSession(settings, zygote=self.zygote, plans=self.plans,
                                 catalogue=self.exercises)
        session.spec_errors.extend(self.spec_errors)
        try:
            session.grade_all(self.exercises)
            report = session.report([e.id for e in self.exercises])
        finally:
            session.close()
        return dataclasses.replace(report, submission=shown) if shown else report

    def close(self) -> None:
        if self.zygote is not None:
            self.zygote.close()
