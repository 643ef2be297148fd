"""\
What a function that never returns costs: one student waiting, and a class graded beside it.

    looping     `vitgrade grade` of the solution with `while True: pass` at the top of
                `patchify` (default settings: the call timeout is 10 s): its wall-clock time,
                and which exercises lost points (only those that use `patchify` may)
    solution    the solution itself, alternated with it: what the loop adds
    class       `vitgrade grade-all --jobs 2` of 30 copies of the solution, and of the same
                class with one of them looping: what one such student adds to the class

Issue 39's bounds: the looping submission within the call timeout plus 2 s, and the class with
it within the call timeout plus 2 s of the class without. Medians of --runs alternated runs.

    python benchmarks/looping_cost.py [--runs 3] [--n 30]
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOLUTION = ROOT / "solutions" / "vit_exercises.py"
LOOP = "    while True:  # never returns\n        pass\n"


def looping_solution() -> str:
    """The solution, `patchify` starting with an endless loop."""
    text = SOLUTION.read_text()
    match = re.search(r"(?m)^def patchify\(.*\n", text)
    if match is None:
        raise SystemExit("solutions/vit_exercises.py defines no patchify")
    return text[:match.end()] + LOOP + text[match.end():]


def graded(submission: Path, results: Path) -> tuple[float, dict[str, float]]:
    """(wall-clock seconds of `vitgrade grade SUBMISSION`, exercise id -> points lost)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(submission), "-q",
                    "--json", str(results)], cwd=ROOT, capture_output=True, check=False)
    wall = time.perf_counter() - start
    tests = json.loads(results.read_text())["tests"]
    lost = {}
    for test in tests:
        exercise = test.get("name", "").split(":")[0].split(" ")[0]
        gap = float(test.get("max_score", 0)) - float(test.get("score", 0))
        if gap > 0:
            lost[exercise] = lost.get(exercise, 0.0) + gap
    return wall, lost


def class_seconds(folder: Path, out: Path) -> float:
    """Wall-clock seconds of `vitgrade grade-all FOLDER --jobs 2`."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "grader.cli", "grade-all", str(folder), "--out",
                    str(out), "--jobs", "2", "--no-progress"], cwd=ROOT, capture_output=True,
                   check=True)
    return time.perf_counter() - start


def patchify_users() -> set[str]:
    """The exercises whose spec's `uses:` or calls reach `patchify` (they may lose points)."""
    sys.path.insert(0, str(ROOT))
    from grader.driver import load_catalogue

    return {e.id for e in load_catalogue(ROOT / "exercises").exercises
            if "patchify" in e.uses or any(c.call == "patchify" for c in e.checks
                                            if hasattr(c, "call"))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--n", type=int, default=30, help="students in the class (default 30)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="vitgrade-loop-bench-") as tmp:
        tmp = Path(tmp)
        looping = tmp / "looping" / "vit_exercises.py"
        looping.parent.mkdir()
        looping.write_text(looping_solution())
        calm, loud = tmp / "class", tmp / "class_with_loop"
        for folder in (calm, loud):
            folder.mkdir()
            for i in range(args.n):
                (folder / f"student{i:03d}.py").write_text(SOLUTION.read_text())
        (loud / "student000.py").write_text(looping_solution())
        walls = {"looping": [], "solution": [], "class": [], "class with one looping": []}
        lost: dict[str, float] = {}
        for run in range(args.runs):
            seconds, lost = graded(looping, tmp / f"loop-{run}.json")
            walls["looping"].append(seconds)
            walls["solution"].append(graded(SOLUTION, tmp / f"sol-{run}.json")[0])
            walls["class"].append(class_seconds(calm, tmp / f"out-calm-{run}"))
            walls["class with one looping"].append(class_seconds(loud, tmp / f"out-loud-{run}"))
            print(f"run {run + 1}: " + ", ".join(f"{k} {v[-1]:.2f} s" for k, v in walls.items()))
        median = {k: statistics.median(v) for k, v in walls.items()}
        users = patchify_users()
        print(f"medians of {args.runs} runs (wall-clock seconds):")
        print(f"  looping submission: {median['looping']:.2f} s (the solution: "
              f"{median['solution']:.2f} s); bound: call timeout (10 s) + 2 s = 12 s")
        print(f"  points lost in: {', '.join(sorted(lost)) or 'none'}; outside the exercises "
              f"that use patchify: {', '.join(sorted(set(lost) - users)) or 'none'}")
        print(f"  class of {args.n}, --jobs 2: {median['class']:.2f} s; with one looping: "
              f"{median['class with one looping']:.2f} s (+"
              f"{median['class with one looping'] - median['class']:.2f} s; bound +12 s)")


if __name__ == "__main__":
    main()
