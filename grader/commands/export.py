"""`vitgrade export gradescope OUT.zip`: the Gradescope autograder zip
(grader/lms/gradescope_zip.py)."""
from __future__ import annotations

from grader.commands import EXERCISES_HELP, fail

NAME = "export"
HELP = "build an autograder package for a learning platform (gradescope)"
PLATFORMS = ("gradescope",)


def add_arguments(parser) -> None:
    parser.add_argument("platform", choices=PLATFORMS, help="the platform to export for")
    parser.add_argument("out", metavar="OUT.zip", help="the archive to write")
    parser.add_argument("--exercises", metavar="DIR", help=EXERCISES_HELP)


def run(args) -> int:
    from pathlib import Path

    from grader.lms.gradescope_zip import build_gradescope_zip
    from grader.spec.locate import find_exercises

    exercises = find_exercises(args.exercises)
    if not exercises.is_dir():
        return fail(NAME, f"{exercises} is not a folder of exercise specs")
    names = build_gradescope_zip(Path(args.out), exercises)
    specs = sum(1 for n in names if n.endswith((".yaml", ".yml")))
    print(f"wrote {args.out}: setup.sh, run_autograder and the grader with {specs} specs "
          f"({len(names)} files). "
          "Upload it as the assignment's autograder (Ubuntu 24.04 base image recommended). "
          "It holds the hidden cases: do not share it with students.")
    return 0
