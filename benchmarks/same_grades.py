"""Does a cold-path change leave every grade as it was? `vitgrade grade --json` before and after.

    python benchmarks/same_grades.py --baseline DIR [--fixtures 20] [--keep DIR]

Grades the solution, the student template and `--fixtures` files of tests/submissions/buggy/
(spread over the sorted list) with a cold `vitgrade grade FILE -q --json OUT`, once by the grader
in DIR (a work tree of the revision before: `git worktree add --detach DIR REV`, graded with its
own exercises/) and once by this code, and compares the two results files of each: the score, every
exercise's and check's score, status, visibility and text (its hints and verdicts). Only the run's
time (`execution_time`) is left out. Prints each file whose results differ, with the first lines
that differ, and exits 1 if any does. The cold path's counterpart of `same_records.py` (which
compares `grade-all` records): `vitgrade grade` grades in its own process (commands/grade.py).
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UNSTABLE = ("execution_time",)


def chosen(fixtures: int) -> list[Path]:
    """The solution, the template and `fixtures` buggy fixtures spread over the sorted list."""
    buggy = sorted((ROOT / "tests" / "submissions" / "buggy").glob("*.py"))
    step = max(1, len(buggy) // fixtures) if fixtures else 1
    picked = buggy[::step][:fixtures]
    return [ROOT / "solutions" / "vit_exercises.py",
            ROOT / "student_template" / "vit_exercises.py", *picked]


def graded(root: Path, submission: str, out: Path, cwd: Path) -> dict:
    """The results file of a cold `vitgrade grade` of `submission` (a path relative to `cwd`, the
    same for both graders: the report shows it) by the grader in `root`, its time left out
    (`{"missing": ...}` when it wrote none)."""
    env = {**os.environ, "PYTHONPATH": str(root)}  # this grader's package, not the installed one
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", submission, "-q",
                           "--json", str(out), "--exercises", str(root / "exercises")],
                          cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if not out.is_file():
        return {"missing": done.stderr[-2000:], "status": done.returncode}
    results = json.loads(out.read_text())
    return {"status": done.returncode,
            **{k: v for k, v in results.items() if k not in UNSTABLE}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="DIR", required=True,
                        help="a work tree of the revision whose results this code's must equal")
    parser.add_argument("--fixtures", type=int, default=20, metavar="N",
                        help="buggy fixtures graded besides the solution and the template")
    parser.add_argument("--keep", metavar="DIR", help="keep the results files here")
    args = parser.parse_args()
    base = Path(args.baseline).resolve()
    differ = 0
    with tempfile.TemporaryDirectory(prefix="vitgrade-same-grades-") as tmp:
        keep = Path(args.keep or tmp).resolve()
        keep.mkdir(parents=True, exist_ok=True)
        files = chosen(args.fixtures)
        work = Path(tmp) / "work"
        (work / "submissions").mkdir(parents=True)
        for i, submission in enumerate(files):
            name = f"submissions/{submission.parent.name}-{submission.name}"
            shutil.copy(submission, work / name)
            before = graded(base, name, keep / f"{i:02d}-{submission.stem}.before.json", work)
            after = graded(ROOT, name, keep / f"{i:02d}-{submission.stem}.after.json", work)
            if before == after:
                continue
            differ += 1
            lines = list(difflib.unified_diff(
                json.dumps(before, indent=1, sort_keys=True).splitlines(),
                json.dumps(after, indent=1, sort_keys=True).splitlines(),
                "before", "after", lineterm="", n=1))
            print(f"{submission.relative_to(ROOT)}: differs\n  " + "\n  ".join(lines[:24]))
    print(f"{len(files)} files graded before and after: {differ} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
