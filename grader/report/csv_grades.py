"""grades.csv: one row per student, a column per exercise and a total, importable into a gradebook.

The header is the one Canvas's gradebook importer recognises (`Student`, `ID`, `SIS User ID`,
`SIS Login ID`, `Section`, an assignment per exercise, then `Final Points`, which it ignores on
import); Moodle maps any column. A submission that could not be graded gets empty cells ("no
grade"). docs/lms.md ("grades.csv") gives both mappings step by step.
"""
from __future__ import annotations

import csv
import io

from grader.checks.results import GradeReport

from .escape import csv_cell

STUDENT_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
TOTAL_COLUMN = "Final Points"


def grades_csv(rows: list[tuple[str, GradeReport | None]], exercises: list[str]) -> str:
    """The CSV text: `rows` are (student id, report or None), `exercises` ids in column order."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180 line ends, as spreadsheets do
    writer.writerow(STUDENT_COLUMNS + exercises + [TOTAL_COLUMN])
    for student, report in sorted(rows, key=lambda row: row[0]):
        name = csv_cell(student)  # a student id could start with '='
        # Section, which both importers ignore: the file graded, as the feedback names it, and
        # the variant of each exercise with variants (grader/checks/variants.py)
        identity = [name, "", "", name, csv_cell(section(report)) if report else ""]
        if report is None:
            writer.writerow(identity + [""] * (len(exercises) + 1))
            continue
        scores = {e.id: e.score for e in report.exercises}
        writer.writerow(identity + [number_cell(scores.get(e, 0.0)) for e in exercises]
                        + [number_cell(report.score)])
    return out.getvalue()


def section(report: GradeReport) -> str:
    """"vit_exercises.py", or with variants "vit_exercises.py (variants: token-count 3, ...)"."""
    chosen = ", ".join(f"{e.id} {e.variant}" for e in report.exercises if e.variant is not None)
    return f"{report.submission} (variants: {chosen})" if chosen else report.submission


def number_cell(x: float) -> str:
    """A score as gradebooks read it: no exponent, at most two decimals (Canvas shows two)."""
    x = round(float(x), 2)
    return str(int(x)) if x == int(x) else f"{x:.2f}".rstrip("0")
