"""How fast `vitgrade grade-all` grades a class, with one job and with two.

Generates N submissions from solutions/vit_exercises.py (about a third correct, most with one to
three injected bugs taken from the lecture's misconceptions, a few untouched templates), grades
them with `--jobs 1` and `--jobs 2` into fresh output folders, and prints submissions per second
and the speed-up: the medians of --repeat runs of each, alternated. Target (issue 6): at least
10 submissions/s with --jobs 2 on a 2-core machine, and a speed-up of at least 1.7x.
`--compare-subprocess K` also times the naive way, one `vitgrade grade --json` process per
submission (K of them, two at a time), for reference.

    python benchmarks/batch_grading.py [--n 200] [--seed 0] [--repeat 3] [--compare-subprocess 20]

"grading" counts the grading phase (what --jobs parallelises: job start-up included, the
per-class files excluded); "end to end" is the whole command, CSV, feedback and report.html
included.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOLUTION = ROOT / "solutions" / "vit_exercises.py"
TEMPLATE = ROOT / "student_template" / "vit_exercises.py"

# (what the solution says, what a student wrote instead): bugs seen in the lecture's practice
# sessions
BUGS = [
    # overlapping windows
    ("return (H // P) * (W // P)", "return (H - P + 1) * (W - P + 1)"),
    # no ValueError when not tiling
    ("if P <= 0 or H % P or W % P:", "if P <= 0:"),
    # [CLS] forgotten
    ("+ (1 if cls_token else 0)", "+ 0"),
    # channels forgotten
    ("return P * P * C", "return P * P"),
    # attention scores linear in T
    ("return num_tokens ** 2", "return num_tokens"),
    # patches not in raster order
    (".transpose(0, 2, 1, 3, 4)", ""),
    # eps outside the square root
    ("np.sqrt(var + eps)", "(np.sqrt(var) + eps)"),
    # a wrong concept answer
    ('ANSWERS["positions"] = "permutation"', 'ANSWERS["positions"] = "speed"'),
    ('ANSWERS["medical"] = "pretrained"', 'ANSWERS["medical"] = "scratch"'),
    # mean pooling, not [CLS]
    ("return x[0] @ params", "return x.mean(axis=0) @ params"),
    # stride 1: overlapping windows
    ("return (P, P)", "return (P, 1)"),
]


def make_submissions(folder: Path, n: int, seed: int) -> dict[str, int]:
    """N submissions in `folder`; returns how many of each kind."""
    rng = random.Random(seed)
    solution, template = SOLUTION.read_text(), TEMPLATE.read_text()
    bugs = [(old, new) for old, new in BUGS if old in solution]
    kinds = {"correct": 0, "buggy": 0, "template": 0}
    for i in range(n):
        roll = rng.random()
        if roll < 0.3:
            text, kind = solution, "correct"
        elif roll < 0.95:
            text, kind = solution, "buggy"
            for old, new in rng.sample(bugs, rng.randint(1, min(3, len(bugs)))):
                text = text.replace(old, new, 1)
        else:
            text, kind = template, "template"
        kinds[kind] += 1
        (folder / f"student{i:04d}.py").write_text(text)
    return kinds


def grade_all(folder: Path, out: Path, jobs: int, exercises: str | None) -> tuple[float, float]:
    """(grading seconds, end-to-end seconds) of one `vitgrade grade-all` run."""
    start = time.perf_counter()
    extra = ["--exercises", exercises] if exercises else []
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade-all", str(folder),
                           "--out", str(out), "--jobs", str(jobs), "--no-progress", *extra],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    grading = float(re.search(r"graded \d+ in ([0-9.]+) s", done.stdout).group(1))
    return grading, wall


def grade_by_subprocess(files: list[Path], jobs: int, exercises: str | None) -> float:
    extra = ["--exercises", exercises] if exercises else []

    def one(path: Path) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(path), "-q", "--json",
                            str(Path(tmp) / "r.json"), *extra], cwd=ROOT, capture_output=True,
                           check=False)

    start = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:
        list(pool.map(one, files))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="submissions to generate (default 200)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--exercises", metavar="DIR",
                        help="grade with these specs (default: the course's)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each; medians are reported (default 3)")
    parser.add_argument("--compare-subprocess", type=int, default=0, metavar="K",
                        help="also grade K submissions one `vitgrade grade` process each, "
                             "two at a time")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="vitgrade-bench-") as tmp:
        folder = Path(tmp) / "submissions"
        folder.mkdir()
        kinds = make_submissions(folder, args.n, args.seed)
        specs = len(list(Path(args.exercises or ROOT / "exercises").glob("*.yaml")))
        print(f"{args.n} submissions ({', '.join(f'{v} {k}' for k, v in kinds.items())}), "
              f"{specs} exercises, {os.cpu_count()} CPUs")
        rates = {1: [], 2: []}
        for run in range(args.repeat):  # alternated, so that a slow spell of the machine hits both
            for jobs in (1, 2):
                grading, wall = grade_all(folder, Path(tmp) / f"out-{run}-{jobs}", jobs,
                                          args.exercises)
                rates[jobs].append(args.n / grading)
                print(f"run {run + 1}, --jobs {jobs}: grading {grading:6.2f} s = "
                      f"{args.n / grading:5.1f} submissions/s;"
                      f"  end to end {wall:6.2f} s = {args.n / wall:5.1f} submissions/s")
        one, two = statistics.median(rates[1]), statistics.median(rates[2])
        ratios = ", ".join(f"{b / a:.2f}x" for a, b in zip(rates[1], rates[2], strict=True))
        print(f"median of {args.repeat} runs: --jobs 1 {one:.1f} submissions/s, "
              f"--jobs 2 {two:.1f} submissions/s; "
              f"speed-up {two / one:.2f}x (per run: {ratios})")
        print("targets: >= 10 submissions/s with --jobs 2, >= 1.7x")
        if args.compare_subprocess:
            files = sorted(folder.iterdir())[: args.compare_subprocess]
            seconds = grade_by_subprocess(files, 2, args.exercises)
            print(f"for reference, one `vitgrade grade` process per submission, 2 at a time: "
                  f"{len(files) / seconds:.1f} submissions/s")


if __name__ == "__main__":
    main()
