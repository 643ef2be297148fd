"""What grading the buggy class does, counted: a machine's load changes its times, not these.

    python benchmarks/work_counts.py [--baseline DIR] [--limit N] [--profile] [--keep DIR]

Builds the buggy class (as `batch_grading.py --class buggy`; `--limit N` as there) and grades it
with `vitgrade grade-all --jobs 1` by this code and, with `--baseline`, by the grader of that
work tree (`git worktree add --detach DIR REV`: an export grades differently, same_records.py),
each with its own exercises/. The job is started with counters wrapped around the grader's
functions by name (those a revision lacks count nothing): the requests sent to the worker and the
calls in them, the stand-in calls answered, the checks graded again around broken helpers, the
failed checks explained, the error model's searches, tries and compiles, the reference's
process's calls; and the job's own CPU. Prints each count's total for the class and per
submission, side by side. `--profile` also writes a cProfile of each job (DIR/<who>.pstats,
read with `python -m pstats`): use it with a small `--limit`. One job grades the class in order,
so the counts are the same from run to run; what a process keeps from one submission to the next
(the error model's verdicts, its models) makes them depend on the class.
"""
from __future__ import annotations

import argparse
import functools
import importlib
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from batch_grading import ROOT, buggy_class  # noqa: E402

# (module:qualified name, what a call of it counts)
COUNTED = [
    ("grader.worker.student_worker:StudentWorker._request", "requests sent to the worker"),
    ("grader.checks.stand_ins:StandIns.answer", "stand-in calls answered"),
    ("grader.checks.stand_ins:StandIns.__init__", "checks graded with stand-ins"),
    ("grader.checks.dependencies:Dependencies._trial", "  of them, trials with one put back"),
    ("grader.checks.helper_shows:helper_shows", "  of them, end-to-end hedges' trials"),
    ("grader.checks.kinds.call:CallCheck._explain", "failed checks explained"),
    ("grader.checks.dependencies:Dependencies.explained_again", "checks explained again (asked)"),
    ("grader.checks.kinds.mistakes:_searched", "error-model searches asked"),
    ("grader.reference.error_model:search", "error-model searches run"),
    ("grader.reference.error_model:confirms", "error-model confirms (a named mistake tried)"),
    ("grader.reference.error_model.trial:attempt", "error-model tries (rewrites evaluated)"),
    ("grader.reference.error_model.runs:run", "error-model runs (a rewrite on a call)"),
    ("grader.reference.error_model.tree:compile_with", "error-model compiles asked"),
    ("grader.checks.oracle:Oracle.call", "the reference process's calls"),
]
CALLS = "calls run by the worker"
_COUNTS: dict[str, int] = {}


def _counted(function, what: str):
    @functools.wraps(function)
    def counting(*args, **kwargs):
        _COUNTS[what] = _COUNTS.get(what, 0) + 1
        if what == COUNTED[0][1]:  # _request(self, header, blobs, count, ...)
            _COUNTS[CALLS] = _COUNTS.get(CALLS, 0) + args[3]
        return function(*args, **kwargs)
    return counting


def install(out: str, profile: str | None) -> None:
    """In a grade-all job, before it imports the driver: every COUNTED function wrapped (and
    each module's own name for it: `from x import f`), one JSON line per submission to `out`."""
    wrapped = {}
    for target, what in COUNTED:
        module_name, name = target.split(":")
        try:
            owner = importlib.import_module(module_name)
        except ImportError:
            continue
        *path, last = name.split(".")
        for part in path:
            owner = getattr(owner, part, None)
        original = getattr(owner, last, None)
        if original is not None:
            wrapped[id(original)] = _counted(original, what)
            setattr(owner, last, wrapped[id(original)])
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("grader"):
            for key, value in list(vars(module).items()):
                if id(value) in wrapped and value is not wrapped[id(value)]:
                    setattr(module, key, wrapped[id(value)])
    from grader import driver

    profiler = None
    if profile:
        import cProfile
        profiler = cProfile.Profile()
        profiler.enable()
    grade = driver.Driver.grade

    def counted_grade(self, student=None, *args, **kwargs):
        _COUNTS.clear()
        start = _cpu()
        try:
            return grade(self, student, *args, **kwargs)
        finally:
            row = {"student": Path(str(student)).name, "job CPU (s)": _cpu() - start, **_COUNTS}
            with open(out, "a") as lines:
                lines.write(json.dumps(row) + "\n")
            if profiler is not None:
                profiler.dump_stats(profile)  # which stops it
                profiler.enable()
    driver.Driver.grade = counted_grade


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# the job's command (grade_all._JOB_MAIN) with the counters installed first
_JOB = ("import sys; root = sys.argv.pop(1)\n"
        "if root not in sys.path: sys.path.insert(0, root)\n"
        "sys.path.insert(1, {here!r}); import work_counts\n"
        "work_counts.install({out!r}, {profile!r})\n"
        "from grader.batch.job import main; sys.exit(main())")
_RUN = ("import sys; from grader.batch import grade_all; grade_all._JOB_MAIN = sys.argv.pop(1)\n"
        "from grader.cli import main; sys.exit(main())")


def counts(root: Path, folder: Path, out: Path, profile: Path | None) -> dict[str, dict]:
    """Each student's counts, graded by the grader in `root` (its own exercises/)."""
    lines = out.with_suffix(".jsonl")
    job = _JOB.format(here=str(Path(__file__).resolve().parent), out=str(lines),
                      profile=str(profile) if profile else None)
    subprocess.run([sys.executable, "-c", _RUN, job, "grade-all", str(folder), "--out",
                    str(out), "--jobs", "1", "--no-progress", "--exercises",
                    str(root / "exercises")], cwd=root, capture_output=True, check=True)
    return {row["student"]: row for row in map(json.loads, lines.read_text().splitlines())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="DIR", help="a work tree of the revision to "
                        "count beside this code")
    parser.add_argument("--limit", type=int, metavar="N", help="N of the fixtures (default all)")
    parser.add_argument("--profile", action="store_true", help="a cProfile of each job too")
    parser.add_argument("--keep", metavar="DIR", help="keep the outputs (and profiles) here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="vitgrade-counts-") as tmp:
        folder = Path(tmp) / "submissions"
        folder.mkdir()
        kinds = buggy_class(folder, args.limit)
        keep = Path(args.keep or tmp)
        keep.mkdir(parents=True, exist_ok=True)
        graders = {"this code": ROOT}
        if args.baseline:
            graders = {"baseline": Path(args.baseline).resolve(), **graders}
        found = {}
        for who, root in graders.items():
            name = who.replace(" ", "-")
            start = time.perf_counter()
            found[who] = counts(root, folder, keep / name,
                                keep / f"{name}.pstats" if args.profile else None)
            print(f"{who} ({root}): {time.perf_counter() - start:.1f} s", file=sys.stderr)
        students = sum(kinds.values())
        what = [CALLS] + [w for _, w in COUNTED] + ["job CPU (s)"]
        print(f"{students} submissions; totals (per submission)")
        print(f"{'':46s}" + "".join(f"{who:>22s}" for who in found))
        for label in what:
            cells = [sum(row.get(label, 0) for row in rows.values()) for rows in found.values()]
            print(f"{label:46s}" + "".join(f"{c:12.1f} ({c / students:7.2f})" for c in cells))
        if args.keep:
            print(f"kept: {keep}")


if __name__ == "__main__":
    main()
