"""How long `vitgrade grade` takes, against the floor of any pytest-based grader.

The floor is `python -c "import pytest, numpy"`: a pytest-based grader that checks numpy
work cannot start faster. Both commands run alternately, several times, in one run;
we print the medians and their ratio. Target (issue 2): at most 1.5x the floor.

    python benchmarks/grade_time.py [--runs 9] [--submission solutions/vit_exercises.py] [--exercises DIR]

Bytecode writing is left on (PYTHONDONTWRITEBYTECODE unset) for both commands, as on a
student's machine: an installed package has its .pyc files, and so does pytest.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(command: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, env=env, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--submission", default="solutions/vit_exercises.py")
    parser.add_argument("--exercises", help="a folder of specs (default: the project's exercises/)")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    floor_cmd = [sys.executable, "-c", "import pytest, numpy"]
    grade_cmd = [sys.executable, "-m", "grader.cli", "grade", args.submission, "-q"]
    if args.exercises:
        grade_cmd += ["--exercises", args.exercises]
    timed(floor_cmd, env), timed(grade_cmd, env)  # warm the file cache and write bytecode
    floor, grade = [], []
    for _ in range(args.runs):
        floor.append(timed(floor_cmd, env))
        grade.append(timed(grade_cmd, env))
    f, g = statistics.median(floor), statistics.median(grade)
    print(f"floor  python -c 'import pytest, numpy'   median {f:.3f} s  (runs: {', '.join(f'{x:.2f}' for x in floor)})")
    print(f"grade  vitgrade grade {args.submission}  median {g:.3f} s  (runs: {', '.join(f'{x:.2f}' for x in grade)})")
    print(f"ratio  {g / f:.2f}x the floor (target <= 1.5x)")


if __name__ == "__main__":
    main()
