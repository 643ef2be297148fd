"""How long `vitgrade grade` takes, against the floor of any pytest-based grader.

The floor is `python -c "import pytest, numpy"`: a pytest-based grader that checks numpy
work cannot start faster. Three commands run in turn, several times each, in one run:

    floor  python -c "import pytest, numpy"
    warm   vitgrade grade SUBMISSION         a student's second and later runs: the warm server
                                             (grader/server/) takes the command
    cold   VITGRADE_SERVER=0 vitgrade grade  every run starts from nothing, as the first one
                                             and every autograder run do

and we print the medians and their ratios to the floor. Target (issue 2): at most 1.5x.

    python benchmarks/grade_time.py [--runs 9] [--submission solutions/vit_exercises.py] [--exercises DIR]

Bytecode writing is left on (PYTHONDONTWRITEBYTECODE unset) for all, as on a student's machine:
an installed package has its .pyc files, and so does pytest. The warm server lives in a private
folder of this run and is stopped at the end.
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
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
    runtime = tempfile.mkdtemp(prefix="vitgrade-benchmark-")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "CI", "VITGRADE_SERVER")}
    env["VITGRADE_RUNTIME_DIR"] = runtime
    floor_cmd = [sys.executable, "-c", "import pytest, numpy"]
    grade_cmd = [sys.executable, "-m", "grader.cli", "grade", args.submission, "-q"]
    if args.exercises:
        grade_cmd += ["--exercises", args.exercises]
    # VITGRADE_SERVER=1: start the server as a run at a terminal would (stdout here is not one)
    commands = {"floor": (floor_cmd, env), "warm": (grade_cmd, {**env, "VITGRADE_SERVER": "1"}),
                "cold": (grade_cmd, {**env, "VITGRADE_SERVER": "0"})}
    try:
        for command, environment in commands.values():  # warm the file cache, write bytecode, start the server
            timed(command, environment)
        _wait_for_server(runtime)
        times = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, (command, environment) in commands.items():
                times[name].append(timed(command, environment))
                time.sleep(1.0)  # a student reads the table before grading again; the server's next spare settles
    finally:
        _stop_servers(runtime)
    floor = statistics.median(times["floor"])
    labels = {"floor": "python -c 'import pytest, numpy'", "warm": f"vitgrade grade {args.submission}",
              "cold": f"VITGRADE_SERVER=0 vitgrade grade {args.submission}"}
    for name, runs in times.items():
        median = statistics.median(runs)
        ratio = "" if name == "floor" else f"  {median / floor:.2f}x the floor"
        print(f"{name:5s}  {labels[name]:60s} median {median:.3f} s{ratio}  (runs: {', '.join(f'{x:.2f}' for x in runs)})")
    print("target <= 1.5x the floor")


def _wait_for_server(runtime: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not any(name.endswith(".sock") for name in os.listdir(runtime)):
        if time.monotonic() > deadline:
            raise SystemExit(f"no grading server started in {runtime}; see {runtime}/server.log")
        time.sleep(0.1)


def _stop_servers(runtime: str) -> None:
    """SIGTERM the servers of this run (their pids are in the log)."""
    log = Path(runtime) / "server.log"
    for line in log.read_text().splitlines() if log.exists() else []:
        if "(pid " in line:
            try:
                os.kill(int(line.rsplit("(pid ", 1)[1].rstrip(")")), signal.SIGTERM)
            except (OSError, ValueError):
                pass
    shutil.rmtree(runtime, ignore_errors=True)


if __name__ == "__main__":
    main()
