"""One bug, charged once: points lost outside `uses:`, and what grading around bugs costs.

    python benchmarks/fair_grades.py [--runs 5]

Grades the catalogue's buggy fixtures (tests/submissions/buggy/: the solution with one
misconception of the lecture put in, or a few at once, with helpers called in the students'
styles: the multi_*.py ones) two ways in the same run:

- around bugs: as the grader does (checks/dependencies.py), every check graded around the
  student's broken helpers with stand-ins;
- each exercise alone: every exercise graded on the student's code as it is (the grader before
  stand-ins).

It prints the points lost on exercises whose `uses:` does not name a broken function (the target
is 0), then the median time to grade the solution (no failure: no stand-in runs) and the whole
buggy class, each way, over `--runs` runs.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from buggy_submissions import BUGGY, affected_exercises, build_submission  # noqa: E402

from grader.checks import SubmissionGrading, grade_exercise  # noqa: E402
from grader.checks.cases import CasePlans  # noqa: E402
from grader.checks.catalogue import load_exercises  # noqa: E402
from grader.worker import StudentWorker, prestart_zygote  # noqa: E402

SOLUTION = ROOT / "solutions" / "vit_exercises.py"


def grade(path: Path, catalogue, plans: CasePlans, zygote, around_bugs: bool) -> dict:
    """Exercise id -> ExerciseResult of the submission at `path`."""
    with StudentWorker(path, zygote=zygote) as worker:
        if around_bugs:
            grading = SubmissionGrading(worker, plans=plans, catalogue=catalogue)
            return {e.id: grading.exercise(e) for e in catalogue}
        return {e.id: grade_exercise(e, worker, plans=plans) for e in catalogue}


def lost_outside(results: dict, snippet: Path, catalogue) -> float:
    affected = affected_exercises(snippet, catalogue)
    return sum(r.max_score - r.score for i, r in results.items() if i not in affected)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    catalogue, errors = load_exercises(ROOT / "exercises")
    assert not errors, errors
    zygote = prestart_zygote()
    zygote.wait_ready()
    plans = CasePlans()  # expected values computed once for the whole run, as grade-all does
    with tempfile.TemporaryDirectory() as folder:
        class_ = [(s, build_submission(s, Path(folder))) for s in BUGGY]
        multi = sum(s.stem.startswith("multi_") for s, _ in class_)
        print(f"{len(class_)} buggy submissions ({multi} with several bugs)")
        for around in (False, True):
            total = sum(lost_outside(grade(p, catalogue, plans, zygote, around), s, catalogue)
                        for s, p in class_)
            how = "around bugs (stand-ins)" if around else "each exercise alone"
            print(f"points lost outside uses:, {how}: {total:g}")
        times = {key: [] for key in ("solution", "class")}
        for _ in range(args.runs):
            for around in (False, True):
                start = time.perf_counter()
                grade(SOLUTION, catalogue, plans, zygote, around)
                times["solution"].append((around, time.perf_counter() - start))
                start = time.perf_counter()
                for _, path in class_:
                    grade(path, catalogue, plans, zygote, around)
                times["class"].append((around, time.perf_counter() - start))
    for key, rows in times.items():
        alone = statistics.median(t for around, t in rows if not around)
        around = statistics.median(t for is_around, t in rows if is_around)
        print(f"{key:>8}: each alone {alone:.3f} s, around bugs {around:.3f} s "
              f"({around / alone:.2f}x), median of {args.runs}")


if __name__ == "__main__":
    main()
