"""OUT/batch.json: what a grade-all output holds, so that shard outputs can be merged (merge.py).

    {"format": "vitgrade-batch/1", "shard": "2/3" or null, "specs_sha256": ..., "grader_version":
     ..., "students": [ids graded from the class folder], "removed": [ids with a record and no
     submission any more], "labels": {what the report calls checks and misconceptions},
     "course_code": {"files": [...], "fingerprints": [...]}}

The labels (grader/report/labels.py) and the course's own code (grader/similarity/
boilerplate.py) come from the specs and the course's files, so `vitgrade merge`, which has
neither, writes the report a single run would.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

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


def write_manifest(out: Path, manifest: Manifest) -> None:
    from grader.report.outputs import write_text_atomic

    write_text_atomic(Path(out) / NAME, json.dumps(manifest.to_json(), indent=1) + "\n",
                      suffix=".json")


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
