"""How fast `vitgrade grade-all` grades a class, with one job and with two.

Generates N submissions from solutions/vit_exercises.py (about a third correct, most with one to
three injected bugs taken from the lecture's misconceptions, a few untouched templates), grades
them with `--jobs 1` and `--jobs 2` into fresh output folders, and prints submissions per second
and the speed-up: the medians of --repeat runs of each, alternated. Target (issue 6): at least
10 submissions/s with --jobs 2 on a 2-core machine, and a speed-up of at least 1.7x.
`--compare-subprocess K` also times the naive way, one `vitgrade grade --json` process per
submission (K of them, two at a time), for reference.

    python benchmarks/batch_grading.py [--n 200] [--seed 0] [--repeat 3] [--compare-subprocess 20]
                                       [--jobs 1,2] [--baseline REV]
                                       [--class generated|buggy|correct] [--limit N]

`--class buggy` grades the project's buggy fixtures instead (tests/submissions/buggy/, each built
by tests/buggy_submissions.py: the solution with one to three mistakes put in), where every
failed check runs the error model's search (issue 38's speed target: at least 0.8x the throughput
of the code before it); `--class correct` grades N copies of the solution (nothing fails: no
search, no regrade). `--limit N` grades N of the buggy fixtures, spread over the whole list
(every k-th, so each kind of mistake keeps its share): a quicker run while a change is tried on
a shared machine; the figures a bound is judged on are the whole class's.

`--baseline REV` also grades the class with the grader of git revision REV (its files, exported
with `git archive` to a temporary folder, graded with its own exercises/), alternated with this
code's runs, and prints both medians and their ratio: a before/after in the same conditions.
Every run checks the records' fingerprints (submission, specs, grader: never a stale grade), as
grade-all always does. The similarity step (grader/similarity) is timed on its own too: the
fingerprints of every submission, then the pairs of the class, as a share of the grading time.

"grading" counts the grading phase (what --jobs parallelises: job start-up included, the
per-class files excluded); "end to end" is the whole command, CSV, feedback and report.html
included.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import resource
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


def buggy_class(folder: Path, limit: int | None = None) -> dict[str, int]:
    """The project's buggy fixtures (`limit` of them, every k-th, if given), built into
    `folder`; returns how many of each kind."""
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    from buggy_submissions import BUGGY, build_submission
    chosen = list(BUGGY)
    if limit is not None and 0 < limit < len(chosen):
        chosen = [chosen[i * len(chosen) // limit] for i in range(limit)]
    for snippet in chosen:
        build_submission(snippet, folder)
    multi = sum(s.stem.startswith("multi_") for s in chosen)
    return {"one mistake": len(chosen) - multi, "several (multi_*)": multi}


def correct_class(folder: Path, n: int) -> dict[str, int]:
    """N copies of the solution in `folder`."""
    for i in range(n):
        (folder / f"student{i:04d}.py").write_text(SOLUTION.read_text())
    return {"correct": n}


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def grade_all(folder: Path, out: Path, jobs: int, exercises: str | None,
              root: Path = ROOT) -> tuple[float, float, float]:
    """(grading seconds, end-to-end seconds, CPU seconds of the command and the children it
    waited for) of one `vitgrade grade-all` run of the grader in `root` (`python -m` imports
    the `grader` of its working folder first)."""
    cpu = cpu_of_children()
    start = time.perf_counter()
    extra = ["--exercises", exercises] if exercises else []
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade-all", str(folder),
                           "--out", str(out), "--jobs", str(jobs), "--no-progress", *extra],
                          cwd=root, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    # "200 submissions: new: all 200 graded in 17.2 s" (grade_all.summary_line)
    grading = float(re.search(r"graded (?:\([^)]*\) )?in ([0-9.]+) s", done.stdout).group(1))
    return grading, wall, cpu_of_children() - cpu


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


def export_revision(revision: str, folder: Path) -> Path:
    """The project's files at `revision`, in `folder` (no checkout: the work tree is untouched)."""
    folder.mkdir()
    archive = subprocess.run(["git", "archive", "--format=tar", revision], cwd=ROOT,
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def similarity_seconds(folder: Path) -> tuple[float, float, int]:
    """(fingerprinting every submission, finding the pairs, pairs found), in this process."""
    from grader.batch.fingerprints import code_fingerprints
    from grader.similarity.boilerplate import course_code
    from grader.similarity.pairs import similar_pairs

    code_fingerprints(SOLUTION)  # imports
    start = time.perf_counter()
    code = {path.stem: code_fingerprints(path) for path in sorted(folder.iterdir())}
    middle = time.perf_counter()
    course, _ = course_code(ROOT / "exercises")
    pairs = similar_pairs(code, course)
    return middle - start, time.perf_counter() - middle, len(pairs.pairs) + pairs.more


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
    parser.add_argument("--jobs", default="1,2", help="--jobs values to run (default 1,2)")
    parser.add_argument("--baseline", metavar="REV",
                        help="also grade with the grader of this git revision (or of this "
                             "folder: one exported before), alternated")
    parser.add_argument("--class", dest="kind", default="generated",
                        choices=("generated", "buggy", "correct"),
                        help="generated (default): N generated submissions; buggy: the "
                             "project's buggy fixtures (N ignored); correct: N solutions")
    parser.add_argument("--limit", type=int, metavar="N",
                        help="--class buggy: grade N of the fixtures, spread over the list "
                             "(default: all)")
    args = parser.parse_args()
    job_counts = [int(j) for j in args.jobs.split(",")]
    with tempfile.TemporaryDirectory(prefix="vitgrade-bench-") as tmp:
        folder = Path(tmp) / "submissions"
        folder.mkdir()
        if args.kind == "buggy":
            kinds = buggy_class(folder, args.limit)
            args.n = sum(kinds.values())
        elif args.kind == "correct":
            kinds = correct_class(folder, args.n)
        else:
            kinds = make_submissions(folder, args.n, args.seed)
        specs = len(list(Path(args.exercises or ROOT / "exercises").glob("*.yaml")))
        print(f"{args.n} submissions ({', '.join(f'{v} {k}' for k, v in kinds.items())}), "
              f"{specs} exercises, {os.cpu_count()} CPUs")
        graders = {"this code": (ROOT, args.exercises)}
        if args.baseline:
            base = (Path(args.baseline).resolve() if Path(args.baseline).is_dir()
                    else export_revision(args.baseline, Path(tmp) / "baseline"))
            graders[f"baseline {args.baseline}"] = (base, str(base / "exercises"))
        rates = {(who, jobs): [] for who in graders for jobs in job_counts}
        walls = {key: [] for key in rates}
        cpus = {key: [] for key in rates}
        for run in range(args.repeat):  # alternated, so that a slow spell of the machine hits all
            for (who, jobs) in rates:
                root, exercises = graders[who]
                grading, wall, cpu = grade_all(folder, Path(tmp) / f"out-{run}-{jobs}-{len(walls)}"
                                          f"-{who.split()[0]}", jobs, exercises, root)
                rates[who, jobs].append(args.n / grading)
                walls[who, jobs].append(args.n / wall)
                cpus[who, jobs].append(cpu)
                print(f"run {run + 1}, {who}, --jobs {jobs}: grading {grading:6.2f} s = "
                      f"{args.n / grading:5.1f} submissions/s;"
                      f"  end to end {wall:6.2f} s = {args.n / wall:5.1f} submissions/s;"
                      f"  CPU {cpu:6.2f} s")
        print(f"medians of {args.repeat} runs (submissions/s, grading / end to end; CPU seconds "
              "of the processes waited for: not comparable between revisions whose workers are "
              "reaped differently):")
        for (who, jobs), values in rates.items():
            print(f"  {who}, --jobs {jobs}: {statistics.median(values):.1f} / "
                  f"{statistics.median(walls[who, jobs]):.1f}; "
                  f"{statistics.median(cpus[who, jobs]):.2f} s")
        if 1 in job_counts and 2 in job_counts:
            one, two = (statistics.median(rates["this code", j]) for j in (1, 2))
            print(f"speed-up of --jobs 2: {two / one:.2f}x; targets: >= 10 submissions/s with "
                  "--jobs 2, >= 1.7x")
        if args.baseline:
            for jobs in job_counts:
                now_rate = statistics.median(rates["this code", jobs])
                then = statistics.median(rates[f"baseline {args.baseline}", jobs])
                now_wall = statistics.median(walls["this code", jobs])
                then_wall = statistics.median(walls[f"baseline {args.baseline}", jobs])
                pairs = [now / then for now, then in zip(
                    rates["this code", jobs], rates[f"baseline {args.baseline}", jobs],
                    strict=True)]  # each run of this code and the baseline's right after it
                print(f"--jobs {jobs}: this code / baseline = {now_rate / then:.2f}x grading, "
                      f"{now_wall / then_wall:.2f}x end to end; run by run (grading) "
                      f"{', '.join(f'{r:.2f}' for r in pairs)}: median "
                      f"{statistics.median(pairs):.2f}x")
        prints, pairs, found = similarity_seconds(folder)
        grading = args.n / statistics.median(rates["this code", max(job_counts)])
        print(f"similarity: fingerprints of {args.n} submissions {prints:.2f} s of CPU (in the "
              f"jobs: about {prints / max(job_counts):.2f} s of wall time with --jobs "
              f"{max(job_counts)}), pairs {pairs:.3f} s ({found} found); "
              f"{100 * (prints / max(job_counts) + pairs) / grading:.1f}% of the class's "
              f"grading time ({grading:.1f} s)")
        if args.compare_subprocess:
            files = sorted(folder.iterdir())[: args.compare_subprocess]
            seconds = grade_by_subprocess(files, 2, args.exercises)
            print(f"for reference, one `vitgrade grade` process per submission, 2 at a time: "
                  f"{len(files) / seconds:.1f} submissions/s")


if __name__ == "__main__":
    main()
