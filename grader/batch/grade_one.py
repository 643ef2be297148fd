"""Grade submission after submission in this process: specs loaded and checked once, one zygote.

What `vitgrade grade` does for one submission, for a class and for `vitgrade watch`: the same
driver (GradingSession.run), the same specs (a broken spec is reported and the others graded),
and for each submission a fresh worker forked from this process's zygote, so every student's
code starts from a clean, warm process and never runs here.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from grader.checks.catalogue import load_exercises
from grader.checks.results import GradeReport
from grader.session import GradingSession
from grader.settings import GraderSettings


class SubmissionGrader:
    """`settings`: resolved once for every submission (settings.resolve_settings; its `student`
    is replaced by each submission's)."""

    def __init__(self, settings: GraderSettings, zygote=None):
        from grader.checks.cases import CasePlans
        from grader.worker.zygote_handle import FORK_AVAILABLE, Zygote

        self.zygote = zygote if zygote is not None else (Zygote() if FORK_AVAILABLE else None)
        self.settings = settings
        exercises, errors = load_exercises(settings.exercises)
        self.exercises, self.spec_errors = exercises, [str(error) for error in errors]
        self.plans = CasePlans()  # each case's expected value computed once for all students

    def grade(self, path: str | Path, shown: str | None = None) -> GradeReport:
        """The report of the submission at `path`; `shown` is the name students see for it.
        ^C (watch's) is raised once the session has closed its worker."""
        settings = dataclasses.replace(self.settings, student=Path(path))
        session = GradingSession(settings, self.exercises, list(self.spec_errors), self.zygote,
                                 self.plans)
        report = session.run()
        if session.interrupted:
            raise KeyboardInterrupt
        return dataclasses.replace(report, submission=shown) if shown else report

    def close(self) -> None:
        if self.zygote is not None:
            self.zygote.close()
