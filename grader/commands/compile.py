"""`vitgrade compile [--exercises DIR] [--check]`: the compiled expectations of every spec
(grader/checks/compile_specs.py)."""
from __future__ import annotations

import sys
from pathlib import Path

from grader.commands import EXERCISES_HELP, fail

NAME = "compile"
HELP = ("compute each spec's expected values once and store them beside it (exercises/compiled/), "
        "so grading reads them instead of running the reference")


def add_arguments(parser) -> None:
    parser.add_argument("--exercises", metavar="DIR", help=EXERCISES_HELP)
    parser.add_argument("--solution", metavar="FILE",
                        help="the instructor's solution, whose calls record the stand-ins' "
                             "answers (default: solutions/vit_exercises.py beside the exercises "
                             "folder)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing: exit 1 and name each spec whose compiled data is "
                             "missing, stale or corrupt")


def run(args) -> int:
    from grader.checks.compile_specs import compile_folder, default_solution, stale_specs
    from grader.spec.locate import find_exercises

    folder = find_exercises(args.exercises)
    if args.check:
        stale = stale_specs(folder)
        for line in stale:
            print(line)
        if stale:
            return fail(NAME, f"{len(stale)} spec(s) of {folder} need `vitgrade compile`", 1)
        return 0
    solution = Path(args.solution) if args.solution else default_solution(folder)
    if solution is None or not solution.is_file():
        print(f"vitgrade compile: no solution at {solution or 'solutions/vit_exercises.py'}: "
              "the stand-ins' answers are not compiled (pass --solution FILE)", file=sys.stderr)
        solution = None
    try:
        written, unchanged, notes = compile_folder(folder, solution)
    except ImportError as error:  # a grader without its reference (the student bundle)
        return fail(NAME, f"this grader has no reference to compute with ({error})")
    for note in notes:
        print(note)
    print(f"compiled into {folder / 'compiled'}: {len(written)} file(s) written, "
          f"{len(unchanged)} unchanged")
    return 1 if notes else 0
