"""\
How long a student waits: a cold `vitgrade grade`, and a regrade by `vitgrade watch` after a save.

Against the floor of any pytest-based grader, `python -c "import pytest, numpy"`, measured in
the same run, alternated with the others so that a slow spell of the machine hits all alike:

    floor  python -c "import pytest, numpy"
    cold   vitgrade grade SUBMISSION      every run from nothing: a student's, CI's, an LMS's
    uncompiled  the same with VITGRADE_NO_COMPILED=1: the expected values computed, not read
               (the baseline of the compiled expectations, exercises/compiled/)
    watch  a save of SUBMISSION while `vitgrade watch SUBMISSION` runs, until the new table
           is printed (the watcher looks at the file five times a second)

and we print the medians and their ratios to the floor, wall-clock time and CPU time (user +
system of the command and every process it waited for: on a shared machine the CPU time moves
less than the wall-clock time when others' work slows everything down).

    python benchmarks/grade_time.py [--runs 9] [--submission solutions/vit_exercises.py]
                                    [--exercises DIR]

Bytecode writing is left on (PYTHONDONTWRITEBYTECODE unset), as on a student's machine.
"""
from __future__ import annotations

import argparse
import os
import queue
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARK = "Ctrl-C to stop"  # the watcher's last line after each table


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str], env: dict, cpu: list | None = None) -> float:
    """Wall-clock seconds of `command`; appends its CPU seconds to `cpu` when given."""
    before = cpu_of_children()
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, env=env, check=False, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    if cpu is not None:
        cpu.append(cpu_of_children() - before)
    return wall


class Watcher:
    """`vitgrade watch` on a copy of the submission; `regrade()` saves it and times the table."""

    def __init__(self, submission: Path, exercises: str | None, env: dict):
        self.folder = Path(tempfile.mkdtemp(prefix="vitgrade-watch-bench-"))
        self.copy = self.folder / submission.name
        shutil.copy(submission, self.copy)
        command = [sys.executable, "-m", "grader.cli", "watch", str(self.copy), "-q"]
        command += ["--exercises", exercises] if exercises else []
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self._wait()
        self.saves = 0

    def _pump(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)

    def _wait(self) -> None:
        while MARK not in self.lines.get(timeout=120):
            pass

    def regrade(self) -> float:
        self.saves += 1
        text = self.copy.read_text() + f"\n# save {self.saves}\n"
        start = time.perf_counter()
        self.copy.write_text(text)
        self._wait()
        return time.perf_counter() - start

    def close(self) -> None:
        self.process.terminate()
        self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--submission", default="solutions/vit_exercises.py")
    parser.add_argument("--exercises", help="a folder of specs (default: the project's exercises/)")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "CI")}
    floor_cmd = [sys.executable, "-c", "import pytest, numpy"]
    grade_cmd = [sys.executable, "-m", "grader.cli", "grade", args.submission, "-q"]
    if args.exercises:
        grade_cmd += ["--exercises", args.exercises]
    for command in (floor_cmd, grade_cmd):  # warm the file cache, write bytecode
        timed(command, env)
    watcher = Watcher(ROOT / args.submission, args.exercises, env)
    uncompiled_env = {**env, "VITGRADE_NO_COMPILED": "1"}
    times = {"floor": [], "cold": [], "uncompiled": [], "watch": []}
    cpu = {"floor": [], "cold": [], "uncompiled": []}
    try:
        watcher.regrade()  # its first regrade plans nothing new, like every later one
        for _ in range(args.runs):
            times["floor"].append(timed(floor_cmd, env, cpu["floor"]))
            times["cold"].append(timed(grade_cmd, env, cpu["cold"]))
            times["uncompiled"].append(timed(grade_cmd, uncompiled_env, cpu["uncompiled"]))
            times["watch"].append(watcher.regrade())
            time.sleep(0.5)  # a student reads the table before saving again
    finally:
        watcher.close()
    floor = statistics.median(times["floor"])
    labels = {"floor": "python -c 'import pytest, numpy'",
              "cold": f"vitgrade grade {args.submission}",
              "uncompiled": "the same, VITGRADE_NO_COMPILED=1",
              "watch": "vitgrade watch: from a save to the new table"}
    for name, runs in times.items():
        median = statistics.median(runs)
        ratio = "" if name == "floor" else f"  {median / floor:.2f}x the floor"
        print(f"{name:10s}  {labels[name]:48s} median {median:.3f} s{ratio}"
              f"  (runs: {', '.join(f'{x:.2f}' for x in runs)})")
    cpu_floor = statistics.median(cpu["floor"])
    for name, runs in cpu.items():
        median = statistics.median(runs)
        ratio = "" if name == "floor" else f"  {median / cpu_floor:.2f}x the floor"
        print(f"{name:10s}  {'CPU seconds, the same runs':48s} median {median:.3f} s{ratio}")


if __name__ == "__main__":
    main()
