"""The class's files, rebuilt from the records at the end of `grade-all` and `merge`:

    OUT/grades.csv, OUT/feedback/<student>.md, OUT/report.html

The same code writes them for a single run and for merged shards, from the same inputs (rows,
the specs' labels and the course's own code, both kept in batch.json), so the files are the same.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from grader.checks.results import GradeReport

from .records import Record

Row = tuple[str, GradeReport | None, str | None]  # student, report, why there is none


@dataclass(frozen=True)
class ReportInputs:
    """What the report needs besides the rows: labels (grader/report/labels.py, as JSON), each
    student's code fingerprints (None: not read) and the course code's (similarity section).
    A shard's report compares no code (`whole_class` False): a fragment rare in a shard may be
    common in the class, so similarity is computed by merge, over everyone."""
    labels: dict = field(default_factory=dict)
    code: dict = field(default_factory=dict)
    course_fingerprints: tuple[int, ...] = ()
    course_files: tuple[str, ...] = ()
    whole_class: bool = True


def class_rows(students: list[str], records: dict[str, Record | None],
               removed: dict[str, Record]) -> list[Row]:
    """One row per student of the class, then one per record whose submission is gone (no grade:
    it may be from other specs, and its file is not there to be graded again)."""
    rows = []
    for student in students:
        record = records.get(student)
        report = record.report if record is not None else None
        why = (record.reason if record is not None
               else "not graded yet (the batch was stopped)") or record.status
        rows.append((student, report, None if report is not None else why))
    for student, record in sorted(removed.items()):
        rows.append((student, None, f"no submission in the class folder any more (its record, "
                                    f"graded {record.graded_at}, is kept in results/)"))
    return sorted(rows, key=lambda row: row[0])


def student_code(students: list[str], records: dict[str, Record | None]) -> dict:
    """{student: fingerprints or None} of the students of the class (not of gone records)."""
    return {s: (records[s].code if records.get(s) is not None else None) for s in students}


def write_class_files(out: Path, rows: list[Row], inputs: ReportInputs):
    """grades.csv, feedback/<student>.md and report.html from the rows; returns the
    grader.similarity.pairs.Similarity of the report (a shard's: similarity_section.AT_MERGE)."""
    from grader.report.class_report import class_report_html
    from grader.report.csv_grades import grades_csv
    from grader.report.feedback_md import feedback_markdown
    from grader.report.labels import Labels
    from grader.report.outputs import FEEDBACK_FOLDER, write_text_atomic
    from grader.report.similarity_section import AT_MERGE
    from grader.similarity.pairs import similar_pairs

    exercises = list(dict.fromkeys(e.id for _, report, _ in rows if report is not None
                                   for e in report.exercises))
    write_text_atomic(out / "grades.csv", grades_csv([(s, r) for s, r, _ in rows], exercises),
                      suffix=".csv")
    for student, report, why in rows:
        write_text_atomic(out / FEEDBACK_FOLDER / f"{student}.md",
                          feedback_markdown(student, report, why), suffix=".md")
    similarity = (similar_pairs(inputs.code, inputs.course_fingerprints, inputs.course_files)
                  if inputs.whole_class else AT_MERGE)
    write_text_atomic(out / "report.html",
                      class_report_html(rows, labels=Labels.from_json(inputs.labels),
                                        similarity=similarity), suffix=".html")
    return similarity
