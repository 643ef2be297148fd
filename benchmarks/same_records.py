"""Does a speed change leave every grade as it was? Grades the buggy class twice and compares.

    python benchmarks/same_records.py --baseline REV [--limit N] [--keep DIR]
    python benchmarks/same_records.py --compare BEFORE AFTER

Builds the project's buggy fixtures (as `batch_grading.py --class buggy` does; `--limit N`: N of
them, spread over the list), grades them with `vitgrade grade-all --jobs 1` by the grader of git
revision REV (or of a folder: one exported before) and by this code, each with its own
exercises/, and compares the two records of every fixture: every exercise's and check's status,
score, message, hint, the hint's kind, the misconception, the stand-ins and the functions blamed,
the load problems and the notes. Only times are left out (`seconds`), where each grader's
exercises sit, and the class folder's path (in a warning's text). `--compare BEFORE AFTER`
compares two `grade-all --out` folders made before. Prints each fixture whose record differs,
with the first lines that differ, and exits 1 if any does; `--keep DIR` keeps the two output
folders there (DIR/before, DIR/after).

Compare like with like: 675a2553 exported by `git archive` into a temporary folder graded 82 of
the 911 fixtures differently from the same code in a work tree (2026-12-06; in 44 of them the
student's code got "Permission denied" on that copy's `exercises/reference` through a stand-in),
so for the records give `--baseline` a work tree of REV (`git worktree add --detach DIR REV`), or
grade both yourself and use `--compare`.
"""
from __future__ import annotations

import argparse
import difflib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from batch_grading import ROOT, buggy_class, export_revision  # noqa: E402

UNSTABLE = ("seconds", "exercises_folder")  # a run's times; where each grader's specs sit


def stable(value, folder: str = "\0"):
    """A record's report without what changes from run to run, the class's `folder` (in a
    warning's `printed` path) said as CLASS."""
    if isinstance(value, dict):
        return {k: stable(v, folder) for k, v in value.items() if k not in UNSTABLE}
    if isinstance(value, list):
        return [stable(v, folder) for v in value]
    return value.replace(folder, "CLASS") if isinstance(value, str) else value


def records(out: Path) -> dict[str, dict]:
    found = {}
    for path in sorted((out / "results").glob("*.json")):
        record = json.loads(path.read_text())
        folder = str(Path(record.get("submission") or "/").parent)
        found[path.stem] = {"status": record.get("status"), "reason": record.get("reason"),
                            "report": stable(record.get("report"), folder)}
    return found


def compare(before: Path, after: Path) -> int:
    """Prints the fixtures whose records differ; their number."""
    old, new = records(before), records(after)
    differ = 0
    for student in sorted(old.keys() | new.keys()):
        if old.get(student) == new.get(student):
            continue
        differ += 1
        lines = list(difflib.unified_diff(
            json.dumps(old.get(student), indent=1, sort_keys=True).splitlines(),
            json.dumps(new.get(student), indent=1, sort_keys=True).splitlines(),
            "before", "after", lineterm="", n=1))
        print(f"{student}: differs\n  " + "\n  ".join(lines[:24]))
    print(f"{len(old)} records before, {len(new)} after: {differ} differ")
    return differ


def grade(root: Path, folder: Path, out: Path) -> None:
    subprocess.run([sys.executable, "-m", "grader.cli", "grade-all", str(folder), "--out",
                    str(out), "--jobs", "1", "--no-progress", "--exercises",
                    str(root / "exercises")], cwd=root, capture_output=True, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="REV", help="git revision (or exported folder) "
                        "whose records this code's must equal")
    parser.add_argument("--limit", type=int, metavar="N", help="N of the fixtures (default all)")
    parser.add_argument("--keep", metavar="DIR", help="keep the two output folders here")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"),
                        help="compare two grade-all output folders instead")
    args = parser.parse_args()
    if args.compare:
        sys.exit(1 if compare(*map(Path, args.compare)) else 0)
    if not args.baseline:
        parser.error("--baseline REV (or --compare BEFORE AFTER)")
    with tempfile.TemporaryDirectory(prefix="vitgrade-same-") as tmp:
        folder = Path(tmp) / "submissions"
        folder.mkdir()
        kinds = buggy_class(folder, args.limit)
        print(f"{sum(kinds.values())} fixtures")
        base = (Path(args.baseline).resolve() if Path(args.baseline).is_dir()
                else export_revision(args.baseline, Path(tmp) / "baseline"))
        keep = Path(args.keep or tmp)
        grade(base, folder, keep / "before")
        grade(ROOT, folder, keep / "after")
        differ = compare(keep / "before", keep / "after")
        if args.keep:
            print(f"kept: {keep / 'before'}, {keep / 'after'}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
