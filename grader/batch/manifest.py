"""OUT/batch.json: what a grade-all output holds, so that shard outputs can be merged (merge.py).

    {"format": "vitgrade-batch/1", "shard": "2/3" or null, "specs_sha256": ..., "grader_version":
     ..., "students": [ids graded from the class folder], "removed": [ids with a record and no
     submission any more]}
"""
from __future__ import annotations

import json
from dataclasses import dataclass
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

    def to_json(self) -> dict:
        return {"format": FORMAT, "shard": self.shard, "specs_sha256": self.specs_sha256,
                "grader_version": self.grader_version, "students": list(self.students),
                "removed": list(self.removed)}


def write_manifest(out: Path, manifest: Manifest) -> None:
    from grader.report.outputs import write_text_atomic

    write_text_atomic(Path(out) / NAME, json.dumps(manifest.to_json(), indent=1) + "\n",
                      suffix=".json")


def read_manifest(out: Path) -> Manifest:
    """OSError or ValueError when `out` holds no readable batch.json."""
    data = json.loads((Path(out) / NAME).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{Path(out) / NAME} is not a {FORMAT} file")
    return Manifest(data.get("shard"), str(data["specs_sha256"]), str(data["grader_version"]),
                    tuple(data["students"]), tuple(data.get("removed", ())))
