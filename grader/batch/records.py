"""One student's result on disk: OUT/results/<student>.json, written atomically as it finishes.

The record holds the whole GradeReport, so grades.csv, the feedback files and report.html can
be rebuilt from the records alone. A re-run reuses a `graded` or `timeout` record (the student's
doing) only when its fingerprints (fingerprints.py) match the submission, specs and grader of the
run; an `error` record (the grader's own failure) is always retried.
"""
from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path

from grader.checks.results import CheckResult, ExerciseResult, GradeReport

FORMAT = "vitgrade-batch-result/1"
GRADED, TIMEOUT, ERROR = "graded", "timeout", "error"
FINAL = (GRADED, TIMEOUT)   # a re-run reuses these, when nothing they were graded from changed


@dataclass(frozen=True)
class Record:
    student: str
    submission: str                 # the graded path, as given
    status: str                     # graded | timeout | error
    report: GradeReport | None      # None unless graded
    reason: str = ""                # why there is no report
    seconds: float = 0.0
    graded_at: str = ""
    submission_sha256: str = ""     # what it was graded from (fingerprints.py); "" when unknown
    specs_sha256: str = ""
    grader_version: str = ""
    # the submission's functions as fingerprints (grader/similarity/code.py), None: not read
    code: dict | None = None

    def to_json(self) -> dict:
        return {"format": FORMAT, **_fields(self), "seconds": round(self.seconds, 3),
                "report": report_to_json(self.report) if self.report is not None else None}

    @classmethod
    def from_json(cls, data: dict) -> Record:
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} record")
        report = report_from_json(data["report"]) if data.get("report") is not None else None
        # a field missing from `data` takes its default; student, submission and status have none
        return cls(**{**_known(cls, data), "report": report, "code": _code(data.get("code"))})


def _code(data) -> dict | None:
    """{function: [int, ...]} as written by a job; anything else is None (not compared)."""
    if not isinstance(data, dict):
        return None
    return {str(name): [h for h in hashes if type(h) is int] for name, hashes in data.items()
            if isinstance(hashes, list)}


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def record_path(results: Path, student: str) -> Path:
    return Path(results) / f"{student}.json"


def write_record(results: Path, record: Record) -> Path:
    """Write `record` atomically as compact JSON (indenting would leave json's fast C encoder:
    several milliseconds of a grading job's time per student)."""
    from grader.report.outputs import write_text_atomic

    path = record_path(results, record.student)
    text = json.dumps(record.to_json(), allow_nan=False, separators=(",", ":"))
    write_text_atomic(path, text + "\n", suffix=".json")
    return path


def read_record(path: Path) -> Record | None:
    """The record at `path`, or None when it is missing or unreadable (then it is graded again)."""
    try:
        return Record.from_json(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None


def report_to_json(report: GradeReport) -> dict:
    """The report as JSON data (what dataclasses.asdict gives, less `extra`), built field by field:
    asdict deep-copies every value, a few milliseconds per student in a batch."""
    data = _fields(report)
    data.pop("extra", None)
    data["exercises"] = [{**_fields(e), "checks": [_check_fields(c) for c in e.checks]}
                         for e in report.exercises]
    data.update(load_problems=list(report.load_problems), spec_errors=list(report.spec_errors),
                notes=list(report.notes))
    return data


def _fields(instance) -> dict:
    return {field.name: getattr(instance, field.name) for field in dataclasses.fields(instance)}


def _check_fields(check: CheckResult) -> dict:
    data = _fields(check)
    data.pop("outputs", None)  # grading's own (dependencies.py), not a report's
    data.pop("raised", None)  # grading's own (raised_seen.py), not a report's
    data.pop("calls_seen", None)  # grading's own (calls_seen.py), not a report's
    data.pop("timed_out", None)  # grading's own (timed_out.py), not a report's
    return data


def report_from_json(data: dict) -> GradeReport:
    checks = [[CheckResult(**{**_known(CheckResult, c), "stand_ins": tuple(c.get("stand_ins", ())),
                              "blames": tuple(c.get("blames", ()))})
               for c in e["checks"]] for e in data["exercises"]]
    exercises = tuple(ExerciseResult(**{**_known(ExerciseResult, e), "checks": tuple(c)})
                      for e, c in zip(data["exercises"], checks, strict=True))
    return GradeReport(**{**_known(GradeReport, data), "exercises": exercises,
                          "load_problems": tuple(data.get("load_problems", ())),
                          "spec_errors": tuple(data.get("spec_errors", ())),
                          "notes": tuple(data.get("notes", ()))})


def _known(cls, data: dict) -> dict:
    """The keys of `data` that `cls` takes (records outlive changes to the dataclasses)."""
    names = {f.name for f in dataclasses.fields(cls) if f.init}
    return {k: v for k, v in data.items() if k in names}
