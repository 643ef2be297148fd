"""Write the grading summary into pytest's terminal report."""
from __future__ import annotations

from .terminal import report_lines


def write_summary(terminalreporter, report, settings) -> None:
    terminalreporter.section("vit-grader", sep="=", bold=True)
    for line in report_lines(report, feedback=settings.feedback):
        terminalreporter.write_line(line)
