"""\
Where a cold `vitgrade grade` spends its time: a timeline of the grading process, phase by phase.

Each run is a fresh interpreter that grades SUBMISSION as `vitgrade grade -q` does, with
timestamps (wall-clock and this process's CPU) taken where the phases meet: the grader's imports,
numpy's import and the zygote's fork, resolving the settings, loading the catalogue, forking the
worker and loading the submission, grading, the worker reaped, the results and the table, the
zygote's exit. The functions that mark them are wrapped when their module is first imported, so
nothing is imported earlier or in another order than in a real run. Also counted: the time spent
waiting for the worker's messages (Connection.receive), the requests sent, and the CPU seconds of
the zygote and the workers (reaped children). `python -c pass` and `python -c "import numpy"` are
timed in the same rounds, alternated, for the interpreter's start and the floor.

    python benchmarks/cold_phases.py [--runs 7] [--submission solutions/vit_exercises.py]

Prints each phase's median over the runs. Bytecode writing is left on, as in grade_time.py.
"""
from __future__ import annotations

import os
import sys
import time

# the timed child imports nothing more before it grades: argparse, json, pathlib... are the
# grader's to import, inside its phases

# (module, attribute path, label of the phase that ends when it is called, label of the phase
# that ends when it returns): each phase is the time since the mark before it
MARKS = [
    ("grader.worker.zygote_handle", "prestart_zygote", "argparse, imports up to the zygote",
     "import numpy, fork the zygote"),
    ("grader.settings", "resolve_settings", "imports for grading (driver, report)",
     "resolve the settings"),
    ("grader.driver", "load_catalogue", "imports for the catalogue", "load the catalogue"),
    ("grader.driver", "Driver.grade", "the rest of Driver() (plans, course secret)", None),
    ("grader.worker.student_worker", "StudentWorker._start_worker",
     "session, imports up to the worker", "fork the worker, load the submission"),
    ("grader.session", "GradingSession.close", "grading (every exercise)",
     "the worker reaped"),
    ("grader.driver", "Driver.close", "results files, the table printed", "the zygote's exit"),
]


def child(submission: str) -> None:
    """One cold run, timed; prints its phases as JSON on stderr's last line."""
    import importlib.abc
    import importlib.machinery
    import resource

    marks = [("interpreter up", time.perf_counter(), time.process_time())]
    waiting = {"seconds": 0.0, "messages": 0, "requests": 0}
    seen: set = set()

    def mark(label: str) -> None:
        if label not in seen:  # a phase ends once: the first call (one worker start, one close)
            seen.add(label)
            marks.append((label, time.perf_counter(), time.process_time()))

    def wrapped(function, before, after):
        def timed(*args, **kwargs):
            if before:
                mark(before)
            result = function(*args, **kwargs)
            if after:
                mark(after)
            return result
        return timed

    def receive_timed(function):
        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                waiting["seconds"] += time.perf_counter() - start
                waiting["messages"] += 1
        return timed

    def send_counted(function):
        def counted(self, header, *args, **kwargs):
            waiting["requests"] += '"op":"call"' in header if type(header) is str else (
                header.get("op") in ("call", "get"))
            return function(self, header, *args, **kwargs)
        return counted

    def patch(name: str, module) -> None:
        for home, path, before, after in MARKS:
            if home == name:
                owner_name, _, attribute = path.rpartition(".")
                owner = getattr(module, owner_name) if owner_name else module
                setattr(owner, attribute, wrapped(getattr(owner, attribute), before, after))
        if name == "grader.worker.channel":
            module.Connection.receive = receive_timed(module.Connection.receive)
            module.Connection.send = send_counted(module.Connection.send)

    class Marker(importlib.abc.MetaPathFinder):
        """Patches a module of MARKS right after it is executed, on its first import."""

        def find_spec(self, name, path, target=None):
            if name not in {m[0] for m in MARKS} | {"grader.worker.channel"}:
                return None
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            execute = spec.loader.exec_module

            def exec_module(module):
                execute(module)
                patch(name, module)
            spec.loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, Marker())
    from grader.dataclass_code import keep_compiled
    from grader.process_setup import one_shot_collector, single_threaded_blas

    single_threaded_blas()  # as entry_point does
    keep_compiled()
    one_shot_collector()
    import grader.cli

    mark("import grader.cli")
    grader.cli.main(["grade", submission, "-q"])  # its table: to the parent's pipe
    mark("end")
    import json

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    phases = [(label, 1000 * (t - t0), 1000 * (c - c0))
              for (_, t0, c0), (label, t, c) in zip(marks, marks[1:], strict=False)]
    print(json.dumps({"phases": phases, "wait_ms": 1000 * waiting["seconds"],
                      "messages": waiting["messages"], "requests": waiting["requests"],
                      "children_cpu_ms": 1000 * (children.ru_utime + children.ru_stime)}),
          file=sys.stderr)


def timed_run(command: list[str], env: dict, root) -> float:
    import subprocess

    start = time.perf_counter()
    subprocess.run(command, cwd=root, env=env, check=False, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return 1000 * (time.perf_counter() - start)


def main() -> None:
    import argparse
    import json
    import statistics
    import subprocess
    from pathlib import Path

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--submission", default="solutions/vit_exercises.py")
    args = parser.parse_args()
    root = Path(__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "CI")}
    env["PYTHONPATH"] = os.pathsep.join([str(root), *filter(None, [env.get("PYTHONPATH")])])
    command = [sys.executable, __file__, "--child", args.submission]
    floors = {"python -c pass": [sys.executable, "-c", "pass"],
              "python -c 'import numpy'": [sys.executable, "-c", "import numpy"]}
    subprocess.run(command, cwd=root, env=env, capture_output=True, check=False)  # bytecode
    runs, floor_times = [], {name: [] for name in floors}
    for _ in range(args.runs):
        for name, floor in floors.items():
            floor_times[name].append(timed_run(floor, env, root))
        done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True,
                              check=False)
        runs.append(json.loads(done.stderr.strip().splitlines()[-1]))
    print(f"a cold `vitgrade grade {args.submission} -q`, medians of {args.runs} runs "
          "(ms; CPU: the grading process's own)")
    for name, times in floor_times.items():
        print(f"{statistics.median(times):8.1f} wall            {name} (a whole process)")
    labels = [label for label, *_ in runs[0]["phases"]]
    for i, label in enumerate(labels):
        wall = statistics.median(run["phases"][i][1] for run in runs)
        cpu = statistics.median(run["phases"][i][2] for run in runs)
        print(f"{wall:8.1f} wall {cpu:6.1f} CPU  {label}")
    total = [sum(p[1] for p in run["phases"]) for run in runs]
    total_cpu = [sum(p[2] for p in run["phases"]) for run in runs]
    print(f"{statistics.median(total):8.1f} wall {statistics.median(total_cpu):6.1f} CPU  "
          "from the interpreter up to the end (the interpreter's start is not in it)")
    print(f"{statistics.median(r['wait_ms'] for r in runs):8.1f} wall              waiting for "
          f"the worker's {runs[0]['messages']} messages ({runs[0]['requests']} requests)")
    print(f"{statistics.median(r['children_cpu_ms'] for r in runs):15.1f} CPU  the zygote and "
          "the workers (their own imports, the submission's load, the calls)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2])
    else:
        main()
