"""The one driver of a grading run: resolved settings (settings.py) -> the catalogue, loaded once
-> grading (session.py: a GradingSession per submission) -> the results files -> the report and
the exit status. Every entry point (`vitgrade grade`, `pytest --student`, `watch`, grade-all's
jobs, `check()`, the Gradescope wrapper) builds settings, calls a Driver and prints; none loads
specs, writes results files or picks an exit status itself, so the same submission and settings
give the same scores, messages and exit status through each (tests/test_entry_points.py).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from grader.settings import GraderSettings

FULL_MARKS, POINTS_LOST, NOTHING_GRADED = 0, 1, 2  # the exit statuses (README)


@dataclass(frozen=True)
class Catalogue:
    """Every exercise of the folder that loads, by order then id, and the spec errors (one per
    refused spec: a bad file, an id used twice, ...); `unreadable`: why the folder was not read."""

    exercises: tuple
    errors: tuple  # SpecError: `file:line: message`, and its `path`
    unreadable: str | None = None
    refused: dict = dataclasses.field(default_factory=dict)  # str(error) -> (id, title, lecture,
    # points) of a refused spec, whose points stay in the total as "not graded"


def load_catalogue(folder: Path) -> Catalogue:
    from grader.checks.catalogue import load_exercises, refused_spec

    try:
        exercises, errors = load_exercises(folder)
    except OSError as error:  # no such folder, not a folder, unreadable: nothing to grade
        return Catalogue((), (), f"cannot read the exercise specs in {folder} ({error.strerror})"
                                 ": give the folder of specs with --exercises DIR")
    from grader.checks.course_file import course_settings

    ids = {exercise.id for exercise in exercises}
    refused = {str(error): found for error in errors
               if (found := refused_spec(error)) is not None and found[0] not in ids}
    course = course_settings(folder).problems  # course.yaml's: no exercise's points
    return Catalogue(tuple(exercises), tuple(errors) + course, refused=refused)


@dataclass(frozen=True)
class Outcome:
    """What a run ends with: the report, its exit status, and what to tell on stderr."""

    report: object  # checks.results.GradeReport
    status: int
    notes: tuple[str, ...] = ()
    hiding: object = None  # worker/outcomes.Hiding: what the worker hid, if one ran
    interrupted: bool = False
    written: bool = True  # False: a results file was refused (a link where it goes)


class Driver:
    """One run's settings and catalogue, for one submission or many (watch, grade-all's jobs):
    each is graded by its own GradingSession, in a worker forked from `zygote`."""

    def __init__(self, settings: GraderSettings, zygote=None):
        from grader.checks.cases import CasePlans
        from grader.checks.variants import course_secret

        self.catalogue = load_catalogue(settings.exercises)
        self.settings = settings.for_catalogue(self.catalogue.exercises)
        self.zygote = zygote
        self.plans = CasePlans()  # each case's expected value computed once for all submissions
        self.oracles: dict = {}  # exercises folder -> checks.oracle.Oracle, started on the
        # first stand-in call that needs the reference and kept for the next submission
        self.secret = course_secret(settings.exercises)  # None: everyone grades the shared one
        self._variants: dict = {}  # (exercise id, index) -> that variant, built once

    def variants(self, student_id: str | None) -> tuple[list, str | None]:
        """(the catalogue as `student_id` grades it, why that is the shared version of the
        exercises that have variants, if it is: no id, or no course secret)."""
        from grader.checks.catalogue import student_variants

        exercises = list(self.catalogue.exercises)
        if not any(e.variants for e in exercises):
            return exercises, None
        if not student_id:
            return exercises, "no student id was given (`--student-id ID` grades your own)"
        if self.secret is None:
            return exercises, "the course has no secret to draw each student's numbers from " \
                "(no course secret)"
        return student_variants(exercises, self.secret, student_id, self._variants), None

    def session(self, student: str | Path | None = None, student_id: str | None = None):
        """A GradingSession of `student` (default: the settings' own), with the variants of
        `student_id` (default: the settings' own)."""
        from grader.attempts import counted
        from grader.session import GradingSession

        settings = self.settings
        if student is not None:
            settings = dataclasses.replace(settings, student=Path(student))
        if student_id is not None:
            settings = dataclasses.replace(settings, student_id=student_id)
        exercises, shared = self.variants(settings.student_id)
        settings = counted(settings, exercises)  # this attempt's number, locally
        return GradingSession(settings, exercises, [str(error) for error in self.catalogue.errors],
                              self.zygote, self.plans, refused=self.catalogue.refused,
                              shared=shared, oracles=self.oracles)

    def grade(self, student: str | Path | None = None, exercises: list | None = None, *,
              shown: str | None = None, junit_out: str | None = None,
              student_id: str | None = None) -> Outcome:
        """Grade `student` on `exercises` (default: all), write the results files, say the exit
        status. ^C stops the grading, never the report and the files."""
        session = self.session(student, student_id)
        session.run(exercises)
        return self.finish(session, shown=shown, junit_out=junit_out)

    def finish(self, session, *, shown: str | None = None, junit_out: str | None = None
               ) -> Outcome:
        """Close the worker, write the results files, say the exit status: 0 full marks, 1 points
        lost or a spec refused, 2 nothing graded (unreadable, a results file refused, ^C)."""
        from grader.checks.results import PASSED
        from grader.report.outputs import write_outputs

        session.close()  # every process of the submission ends before the results are written
        report = session.report()
        if shown:
            report = dataclasses.replace(report, submission=shown)
        notes = [f"vitgrade: {self.catalogue.unreadable}"] if self.catalogue.unreadable else []
        refused = write_outputs(report, session.settings, junit_out)
        if refused:
            notes.append(f"vitgrade: {refused}; no results file was written")
        if session.interrupted:
            notes.append("vitgrade: interrupted; the results hold the exercises graded before")
        passed = report.exercises and all(e.status == PASSED for e in report.exercises)
        status = FULL_MARKS if passed and not report.spec_errors else POINTS_LOST
        if refused or report.fatal or session.interrupted or not (report.exercises
                                                                  or report.spec_errors):
            status = NOTHING_GRADED
        return Outcome(report, status, tuple(notes), session.hiding(), session.interrupted,
                       written=refused is None)

    def close(self, zygote: bool = True) -> None:
        """Stop the reference's processes, and the zygote unless the caller keeps it for the
        next driver (`watch`, when the specs change)."""
        for oracle in self.oracles.values():
            oracle.close()
        if zygote and self.zygote is not None:
            self.zygote.close()
