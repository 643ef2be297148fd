"""\
What a student's own variant costs: a cold `vitgrade grade` of the solution with `--student-id`
(each exercise with `variants:` graded in the variant the course secret picks for that id)
against the same without an id (the shared version: the fixed questions), alternated run by run
so that a slow spell of the machine hits both alike. Prints the medians, wall clock and CPU
(user + system of the command and what it waited for), and their ratios (issue 36: at most
1.10).

    python benchmarks/variant_cost.py [--runs 11] [--submission solutions/vit_exercises.py]

A fixed course secret is used (VITGRADE_COURSE_SECRET), and a new student id each run, so no run
reuses another's variant.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(command: list[str], env: dict) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--submission", default="solutions/vit_exercises.py")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k not in ("VITGRADE_STUDENT_ID", "CI")}
    env["VITGRADE_COURSE_SECRET"] = "benchmark-secret"
    grade = [sys.executable, "-m", "grader.cli", "grade", args.submission, "-q",
             "--exercises", str(ROOT / "exercises")]
    timed(grade, env)  # bytecode written, files cached
    times = {"variant": [], "shared": []}
    for run in range(args.runs):
        times["variant"].append(timed([*grade, "--student-id", f"student-{run}"], env))
        times["shared"].append(timed(grade, env))
    for name, label in (("variant", "with --student-id (the student's variants)"),
                        ("shared", "without an id (the fixed questions)")):
        walls, cpus = zip(*times[name], strict=True)
        print(f"{name:8} {label:45} median {statistics.median(walls):.3f} s wall, "
              f"{statistics.median(cpus):.3f} s CPU")
    for index, what in ((0, "wall"), (1, "CPU")):
        pairs = zip(times["variant"], times["shared"], strict=True)
        ratios = [v[index] / s[index] for v, s in pairs]
        print(f"variant / shared, {what}: median {statistics.median(ratios):.3f} "
              f"(pairs: {', '.join(f'{r:.2f}' for r in ratios)})")


if __name__ == "__main__":
    main()
