"""\
How long a student waits: a cold `vitgrade grade`, and a regrade by `vitgrade watch` after a save.

Against the floor of any pytest-based grader, `python -c "import pytest, numpy"`, measured in
the same run, alternated with the others so that a slow spell of the machine hits all alike:

    floor       python -c "import pytest, numpy"
    numpy       python -c "import numpy": the floor of a grader that imports no pytest (issue 39's
                bound: a cold run at most 2.0x it)
    cold        vitgrade grade SUBMISSION: every run from nothing (a student's, CI's, an LMS's),
                in one process, without pytest (grader/commands/grade.py)
    parsed      the same with the compiled indexes' parsed specs removed (a copy of the
                exercises): YAML parsed and the schema compiled on every run, as before
    uncompiled  the same with VITGRADE_NO_COMPILED=1: neither parsed specs nor expected values
                read, all computed (the baseline of exercises/compiled/)
    pytest      the same through pytest and the plugin, `pytest --student SUBMISSION`: the
                path of every run before
    watch       a save of SUBMISSION while `vitgrade watch SUBMISSION` runs, until the new table
                is printed (the watcher wakes at the save: inotify on Linux)
    baseline    with --baseline REV: the cold run of the grader of git revision REV (its files,
                exported with `git archive`, grading with its own exercises/): the figure before
                a change, in the same run
    watch base  with --baseline REV: the same save while REV's `vitgrade watch` runs

and we print the medians and their ratios to the floor and to numpy's import, wall-clock time
and CPU time (user + system of the command and every process it waited for: on a shared machine
the CPU time moves less than the wall-clock time when others' work slows everything down).

    python benchmarks/grade_time.py [--runs 9] [--submission solutions/vit_exercises.py]
                                    [--exercises DIR] [--baseline REV] [--only cold,baseline]

`--only` times those commands (and the two floors) alone, without the watchers: a quicker A/B.

Bytecode writing is left on (PYTHONDONTWRITEBYTECODE unset), as on a student's machine.
"""
from __future__ import annotations

import argparse
import json
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

from batch_grading import export_revision

ROOT = Path(__file__).resolve().parents[1]
MARK = "Ctrl-C to stop"  # the watcher's last line after each table


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str], env: dict, cpu: list | None = None, cwd: Path = ROOT) -> float:
    """Wall-clock seconds of `command`; appends its CPU seconds to `cpu` when given."""
    before = cpu_of_children()
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, check=False, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    if cpu is not None:
        cpu.append(cpu_of_children() - before)
    return wall


class Watcher:
    """`vitgrade watch` on a copy of the submission; `regrade()` saves it and times the table."""

    def __init__(self, submission: Path, exercises: str | None, env: dict, cwd: Path = ROOT):
        self.folder = Path(tempfile.mkdtemp(prefix="vitgrade-watch-bench-"))
        self.copy = self.folder / submission.name
        shutil.copy(submission, self.copy)
        command = [sys.executable, "-m", "grader.cli", "watch", str(self.copy), "-q"]
        command += ["--exercises", exercises] if exercises else []
        self.process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE,
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
        """Seconds from a save to its table. The save replaces the file whole (a rename), so the
        watcher never sees it half written and grades it once; any table still queued (a grading
        the timer did not ask for) is dropped first, so it cannot pass for this save's."""
        self.saves += 1
        text = self.copy.read_text() + f"\n# save {self.saves}\n"
        partial = self.folder / "saving.tmp"
        partial.write_text(text)
        while not self.lines.empty():
            self.lines.get_nowait()
        start = time.perf_counter()
        os.replace(partial, self.copy)
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
    parser.add_argument("--baseline", metavar="REV",
                        help="also time the cold run of the grader of this git revision")
    parser.add_argument("--only", metavar="NAMES",
                        help="only these commands (comma-separated), the floors and no watcher")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="vitgrade-grade-time-") as tmp:
        measure(args, export_revision(args.baseline, Path(tmp) / "baseline")
                if args.baseline else None, Path(tmp))


def measure(args, baseline: Path | None, scratch: Path) -> None:
    """Time every command of the docstring, alternated, and print the medians."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "CI")}
    exercises = Path(args.exercises).resolve() if args.exercises else ROOT / "exercises"
    grade = [sys.executable, "-m", "grader.cli", "grade", str((ROOT / args.submission).resolve()),
             "-q"]
    own = [*grade, "--exercises", str(exercises)]
    commands = {  # name: (what it is, command, environment, working folder)
        "floor": ("python -c 'import pytest, numpy'",
                  [sys.executable, "-c", "import pytest, numpy"], env, ROOT),
        "numpy": ("python -c 'import numpy'", [sys.executable, "-c", "import numpy"], env, ROOT),
        "cold": (f"vitgrade grade {args.submission}", own, env, ROOT),
        "parsed": ("the same, specs parsed (no spec kept compiled)",
                   [*grade, "--exercises", str(without_kept_specs(exercises, scratch))], env,
                   ROOT),
        "uncompiled": ("the same, VITGRADE_NO_COMPILED=1", own,
                       {**env, "VITGRADE_NO_COMPILED": "1"}, ROOT),
        "pytest": ("the same through pytest (pytest --student)",
                   [sys.executable, "-m", "pytest", "-p", "grader.plugin", "-q",
                    "-p", "no:cacheprovider", "--student", grade[4], "--exercises", str(exercises)],
                   {**env, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}, ROOT),
    }
    if baseline is not None:  # `python -m` imports the `grader` of its working folder first
        commands["baseline"] = (f"the cold run of revision {args.baseline}", grade, env, baseline)
    if args.only:
        kept = {"floor", "numpy", *args.only.split(",")}
        commands = {name: command for name, command in commands.items() if name in kept}
    for _, command, environment, cwd in commands.values():  # warm the cache, write bytecode
        timed(command, environment, cwd=cwd)
    watchers = {} if args.only else {"watch": Watcher(ROOT / args.submission, args.exercises,
                                                      env)}
    if baseline is not None and not args.only:  # the baseline's watch, with its own exercises/
        watchers["watch base"] = Watcher(ROOT / args.submission, None, env, baseline)
    times = {name: [] for name in [*commands, *watchers]}
    cpu = {name: [] for name in commands}
    try:
        for watcher in watchers.values():
            watcher.regrade()  # its first regrade plans nothing new, like every later one
        for _ in range(args.runs):
            for name, (_, command, environment, cwd) in commands.items():
                times[name].append(timed(command, environment, cpu[name], cwd))
            for name, watcher in watchers.items():
                times[name].append(watcher.regrade())
                time.sleep(0.5)  # a student reads the table before saving again
    finally:
        for watcher in watchers.values():
            watcher.close()
    labels = {name: label for name, (label, *_) in commands.items()}
    labels["watch"] = "vitgrade watch: from a save to the new table"
    labels["watch base"] = f"the same, the watch of revision {args.baseline}"
    report(times, labels)
    report(cpu, {name: "CPU seconds, the same runs" for name in cpu})
    if baseline is not None:
        paired(times, cpu)


def without_kept_specs(exercises: Path, scratch: Path) -> Path:
    """A copy of `exercises` without the parsed specs `vitgrade compile` keeps: the YAML is parsed
    and the schema compiled on every run, as before the specs were kept (checks/parsed_specs.py;
    an older revision kept them in each compiled index)."""
    copy = scratch / "exercises-parsed"
    shutil.copytree(exercises, copy)
    (copy / "compiled" / "catalogue.parsed").unlink(missing_ok=True)
    for index in (copy / "compiled").glob("*.json"):
        data = json.loads(index.read_text(encoding="utf-8"))
        if data.pop("parsed", None) is not None:
            index.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return copy


def paired(times: dict[str, list[float]], cpu: dict[str, list[float]]) -> None:
    """Each command's runs against the baseline's of the same round: the median of the pairs'
    ratios, wall-clock and CPU (a slow spell hits both of a pair alike)."""
    for name in cpu:
        if name in ("floor", "numpy", "baseline"):
            continue
        ratios = [statistics.median(a / b for a, b in zip(runs[name], runs["baseline"],
                                                           strict=True) if b > 0)
                  for runs in (times, cpu)]
        print(f"{name:10s}  against the baseline, the median of the {len(cpu[name])} pairs' "
              f"ratios: wall {ratios[0]:.3f}, CPU {ratios[1]:.3f}")


def report(runs_of: dict[str, list[float]], labels: dict[str, str]) -> None:
    """One line per command: its median, its ratios to the floors', every run."""
    floor, numpy = statistics.median(runs_of["floor"]), statistics.median(runs_of["numpy"])
    for name, runs in runs_of.items():
        median = statistics.median(runs)
        ratio = "" if name in ("floor", "numpy") else (f"  {median / floor:.2f}x the floor, "
                                                        f"{median / numpy:.2f}x numpy's")
        print(f"{name:10s}  {labels[name]:48s} median {median:.3f} s{ratio}"
              f"  (runs: {', '.join(f'{x:.2f}' for x in runs)})")


if __name__ == "__main__":
    main()
