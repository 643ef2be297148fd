"""`vitgrade render`: write the student question sheet (docs/exercises.md) from the specs."""
from __future__ import annotations

import sys
from pathlib import Path

from grader.commands import EXERCISES_HELP

NAME = "render"
HELP = "write the student question sheet (docs/exercises.md) from the exercise specs"


def add_arguments(parser) -> None:
    parser.add_argument("--exercises", metavar="DIR", help=EXERCISES_HELP)
    parser.add_argument("--out", metavar="FILE",
                        help="where to write the sheet "
                             "(default: docs/exercises.md beside the exercises folder)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 when the sheet is out of date with the specs")


def run(args) -> int:
    from grader.authoring import render_sheet
    from grader.checks.catalogue import load_exercises
    from grader.spec.locate import find_exercises

    folder = find_exercises(args.exercises)
    exercises, errors = load_exercises(folder, every_problem=True)
    if errors:
        for error in errors:
            print(error, file=sys.stderr)
        print("vitgrade render: fix the specs first (vitgrade validate)", file=sys.stderr)
        return 1
    out = Path(args.out) if args.out else folder.parent / "docs" / "exercises.md"
    text = render_sheet(exercises)
    if args.check:
        current = out.read_text(encoding="utf-8") if out.is_file() else None
        if current != text:
            print(f"{out} is out of date with {folder}: run `vitgrade render`", file=sys.stderr)
            return 1
        print(f"{out} is up to date ({len(exercises)} exercises)")
        return 0
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}: {len(exercises)} exercises, {sum(e.points for e in exercises):g} points")
    return 0
