"""How long grading the solution notebook takes against grading the solution module (issue 4).

Two measures, each the median of several runs, taken alternately so that a busy machine slows
both alike:
  grade  `vitgrade grade FILE -q` end to end, as a student runs it;
  load   the worker's own load time (LoadReport.seconds): reading and running the file, which
         is where a notebook differs from a module (JSON, cells, IPython syntax).

    python benchmarks/notebook_vs_module.py [--runs 9]
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
MODULE = "solutions/vit_exercises.py"
NOTEBOOK = "solutions/vit_exercises.ipynb"


def timed(command: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, env=env, check=False, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def load_seconds(path: str) -> float:
    from grader.worker import StudentWorker

    with StudentWorker(ROOT / path) as worker:
        return worker.load().seconds


def show(what: str, module: list[float], notebook: list[float]) -> None:
    m, n = statistics.median(module), statistics.median(notebook)
    runs = lambda xs: ", ".join(f"{x:.3f}" for x in xs)  # noqa: E731
    print(f"{what}  module    median {m:.3f} s  (runs: {runs(module)})")
    print(f"{what}  notebook  median {n:.3f} s  (runs: {runs(notebook)})")
    print(f"{what}  ratio     {n / m:.2f}x  (notebook {1000 * (n - m):+.0f} ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    command = [sys.executable, "-m", "grader.cli", "grade"]
    for path in (MODULE, NOTEBOOK):  # warm the file cache and write bytecode
        timed([*command, path, "-q"], env)
    module, notebook = [], []
    for _ in range(args.runs):
        module.append(timed([*command, MODULE, "-q"], env))
        notebook.append(timed([*command, NOTEBOOK, "-q"], env))
    show("grade", module, notebook)
    load_module, load_notebook = [], []
    for _ in range(args.runs):
        load_module.append(load_seconds(MODULE))
        load_notebook.append(load_seconds(NOTEBOOK))
    show("load ", load_module, load_notebook)


if __name__ == "__main__":
    main()
