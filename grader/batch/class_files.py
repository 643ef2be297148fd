"""The class's files, rebuilt from the records at the end of `grade-all` and `merge`:

    OUT/batch.json, OUT/grades.csv, OUT/feedback/<student>.md, OUT/report.html

The same code writes them for a single run and for merged shards, from the same inputs (the
records and batch.json, which keeps the specs' labels and the course's own code), so the files
are the same.
"""
from __future__ import annotations

from pathlib import Path

from grader.checks.results import GradeReport

from .manifest import Manifest, write_manifest
from .records import Record

Row = tuple[str, GradeReport | None, str | None]  # student, report, why there is none


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


def write_class_files(out: Path, manifest: Manifest, records: dict[str, Record | None],
                      removed: dict[str, Record]):
    """batch.json (`manifest`), grades.csv, feedback/<student>.md and report.html, for the
    manifest's students (their `records`) and its `removed` ones; returns the
    grader.similarity.pairs.Similarity of the report. A shard's report compares no code
    (class_report.AT_MERGE): a fragment rare in a shard may be common in the class, so
    similarity is computed by merge, over everyone."""
    from grader.report.class_report import AT_MERGE, class_report_html
    from grader.report.csv_grades import grades_csv
    from grader.report.feedback_md import feedback_markdown
    from grader.report.labels import Labels
    from grader.report.outputs import FEEDBACK_FOLDER, write_text_atomic
    from grader.similarity.pairs import similar_pairs

    rows = class_rows(list(manifest.students), records, removed)
    exercises = list(dict.fromkeys(e.id for _, report, _ in rows if report is not None
                                   for e in report.exercises))
    write_text_atomic(out / "grades.csv", grades_csv([(s, r) for s, r, _ in rows], exercises),
                      suffix=".csv")
    for student, report, why in rows:
        write_text_atomic(out / FEEDBACK_FOLDER / f"{student}.md",
                          feedback_markdown(student, report, why), suffix=".md")
    # each student's code fingerprints (None: not read), not those of gone records
    code = {s: (records[s].code if records.get(s) is not None else None)
            for s in manifest.students}
    similarity = (AT_MERGE if manifest.shard is not None else
                  similar_pairs(code, manifest.course_fingerprints, manifest.course_files))
    write_text_atomic(out / "report.html",
                      class_report_html(rows, labels=Labels.from_json(manifest.labels),
                                        similarity=similarity), suffix=".html")
    write_manifest(out, manifest)
    return similarity
