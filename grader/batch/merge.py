"""`vitgrade merge OUT_1 ... OUT_N --out OUT`: the outputs of `grade-all --shard K/N` as one.

OUT gets the records, then the class's files from the same code as a single run's
(class_files.py). Outputs graded from other specs or by another grader are refused (MergeError);
shards missing from 1..N and students found in two outputs are reported (docs/lms.md, "Shards").
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from grader.report.outputs import FEEDBACK_FOLDER
from grader.report.safe_files import make_folder

from .class_files import Manifest, read_manifest, write_class_files
from .records import Record, read_record, record_path, write_record


class MergeError(ValueError):
    """Outputs that cannot be merged: not grade-all outputs, or of other versions."""


@dataclass
class MergeResult:
    students: list[str]
    duplicated: dict[str, list[str]] = field(default_factory=dict)  # student -> outputs
    missing_shards: list[str] = field(default_factory=list)         # "K/N"
    missing_records: list[str] = field(default_factory=list)        # listed, no record
    removed: list[str] = field(default_factory=list)
    similarity: object = None  # grader.similarity.pairs.Similarity of the report

    @property
    def complete(self) -> bool:
        return not (self.duplicated or self.missing_shards or self.missing_records)


def merge(outputs: list[Path], out: Path) -> MergeResult:
    out = Path(out).absolute()
    manifests = [(Path(o), _manifest(Path(o), out)) for o in outputs]
    _same_versions(manifests)
    current: dict[str, Record | None] = {}
    gone: dict[str, Record] = {}
    seen: dict[str, list[str]] = {}
    for folder, manifest in manifests:
        for student in manifest.students:
            seen.setdefault(student, []).append(str(folder))
            record = _record(folder, manifest, student)
            if current.get(student) is None or (record is not None
                                                and record.graded_at > current[student].graded_at):
                current[student] = record  # of two, the one graded last
        for student in manifest.removed:
            record = _record(folder, manifest, student)
            if record is not None:
                gone[student] = record
    gone = {s: r for s, r in gone.items() if s not in current}
    shards = [m.shard for _, m in manifests if m.shard]
    count = int(shards[0].split("/")[1]) if shards else 0
    missing = [f"{k}/{count}" for k in range(1, count + 1) if f"{k}/{count}" not in shards]
    result = MergeResult(sorted(current), {s: f for s, f in seen.items() if len(f) > 1}, missing,
                         sorted(s for s, r in current.items() if r is None), sorted(gone))
    results = out / "results"
    for folder in (results, out / FEEDBACK_FOLDER):
        make_folder(folder)
    for record in [*current.values(), *gone.values()]:
        if record is not None:
            write_record(results, record)
    first = manifests[0][1]
    course = sorted({h for _, m in manifests for h in m.course_fingerprints})
    files = tuple(dict.fromkeys(f for _, m in manifests for f in m.course_files))
    manifest = Manifest(None, first.specs_sha256, first.grader_version, tuple(result.students),
                        tuple(result.removed), first.labels, files, tuple(course))
    result.similarity = write_class_files(out, manifest, current, gone)
    return result


def _manifest(folder: Path, out: Path) -> Manifest:
    if folder.absolute() == out:
        raise MergeError(f"{folder} is both an input and --out")
    try:
        return read_manifest(folder)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise MergeError(f"{folder} is not an output of `vitgrade grade-all` (no readable "
                         f"batch.json: {error})") from None


def _same_versions(manifests: list[tuple[Path, Manifest]]) -> None:
    first_folder, first = manifests[0]
    for folder, manifest in manifests[1:]:
        for what, mine, theirs in (("specs", manifest.specs_sha256, first.specs_sha256),
                                   ("grader", manifest.grader_version, first.grader_version)):
            if mine != theirs:
                raise MergeError(f"{folder} was graded with other {what} than {first_folder} "
                                 f"({mine[:16]} against {theirs[:16]}): grade both with the "
                                 "same specs and grader (a plain re-run regrades what changed)")
    counts = {m.shard.split("/")[1] if m.shard else "1" for _, m in manifests}
    if len(counts) > 1:
        raise MergeError(f"the outputs are shards of different counts ({', '.join(sorted(counts))})"
                         ": every output must come from `--shard K/N` with the same N")


def _record(folder: Path, manifest: Manifest, student: str) -> Record | None:
    record = read_record(record_path(folder / "results", student))
    if record is not None and (record.specs_sha256, record.grader_version) != (
            manifest.specs_sha256, manifest.grader_version):
        raise MergeError(f"{record_path(folder / 'results', student)} was graded with other specs "
                         f"or another grader than the rest of {folder}: run grade-all there again")
    return record
