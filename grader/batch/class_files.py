"""The class's files, OUT/batch.json, grades.csv, feedback/<student>.md and report.html, rebuilt
from the records at the end of `grade-all` and `merge` alike. batch.json (`Manifest`) keeps what
the specs and the course's files say (labels.py, grader/similarity/boilerplate.py), so `vitgrade
merge`, which has neither, writes the files a single run would.

    batch.json: {"format": "vitgrade-batch/1", "shard": "2/3" or null, "specs_sha256": ...,
     "grader_version": ..., "students": [ids graded from the class folder], "removed": [ids with
     a record and no submission any more], "labels": {what the report calls checks and
     misconceptions}, "course_code": {"files": [...], "fingerprints": [...]}}
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from grader.checks.results import GradeReport

from .records import Record

Row = tuple[str, GradeReport | None, str | None]  # student, report, why there is none
FORMAT = "vitgrade-batch/1"
NAME = "batch.json"


@dataclass(frozen=True)
class Manifest:
    shard: str | None           # "K/N", or None for the whole class
    specs_sha256: str
    grader_version: str
    students: tuple[str, ...]
    removed: tuple[str, ...] = ()
    labels: dict = field(default_factory=dict, compare=False)        # Labels.to_json()
    course_files: tuple[str, ...] = ()
    course_fingerprints: tuple[int, ...] = field(default=(), compare=False, repr=False)

    def to_json(self) -> dict:
        return {"format": FORMAT, "shard": self.shard, "specs_sha256": self.specs_sha256,
                "grader_version": self.grader_version, "students": list(self.students),
                "removed": list(self.removed), "labels": self.labels,
                "course_code": {"files": list(self.course_files),
                                "fingerprints": list(self.course_fingerprints)}}


def read_manifest(out: Path) -> Manifest:
    """OSError or ValueError when `out` holds no readable batch.json."""
    data = json.loads((Path(out) / NAME).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{Path(out) / NAME} is not a {FORMAT} file")
    course = data.get("course_code") if isinstance(data.get("course_code"), dict) else {}
    labels = data.get("labels") if isinstance(data.get("labels"), dict) else {}
    return Manifest(data.get("shard"), str(data["specs_sha256"]), str(data["grader_version"]),
                    tuple(data["students"]), tuple(data.get("removed", ())), labels,
                    tuple(str(f) for f in course.get("files", ())),
                    tuple(h for h in course.get("fingerprints", ()) if type(h) is int))


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
    """The class's files for the manifest's students (their `records`) and its `removed` ones;
    returns the report's grader.similarity.pairs.Similarity. A shard's compares no code
    (class_report.AT_MERGE): a fragment rare in a shard may be common in the class."""
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
    write_text_atomic(out / NAME, json.dumps(manifest.to_json(), indent=1) + "\n", suffix=".json")
    return similarity
