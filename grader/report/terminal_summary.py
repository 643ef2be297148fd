"""Write the grading summary into pytest's terminal report."""
from __future__ import annotations

from grader.checks.results import MISSING, NOT_IMPLEMENTED, PASSED

from .terminal import exercise_feedback, report_header, score_table


def write_summary(terminalreporter, report, settings) -> None:
    terminalreporter.section("vit-grader", sep="=", bold=True)
    for line in report_header(report):
        terminalreporter.write_line(line)
    if settings.feedback:
        for exercise in report.exercises:
            if exercise.status not in (PASSED, NOT_IMPLEMENTED, MISSING):
                terminalreporter.write_line(exercise_feedback(exercise))
                terminalreporter.write_line("")
    terminalreporter.write_line(f"submission: {report.submission}")
    terminalreporter.write_line(score_table(report))
