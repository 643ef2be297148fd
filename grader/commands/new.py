"""`vitgrade new ID`: scaffold a new exercise spec that validates, ready to edit."""
from __future__ import annotations

import sys
from pathlib import Path

NAME = "new"
HELP = "scaffold a new exercise spec (exercises/ID.yaml) that validates"


def add_arguments(parser) -> None:
    parser.add_argument("id", help="the exercise id: lower case letters, digits and dashes "
                                   "(e.g. patches-per-row)")
    parser.add_argument("--call", default="num_patches", metavar="NAME",
                        help="the student-API function the exercise calls (default: num_patches)")
    parser.add_argument("--function", metavar="NAME",
                        help="a new function, the course's own: the spec declares it, and "
                             "reference/NAME.py beside the specs computes it (docs/authoring.md)")
    parser.add_argument("--exercises", metavar="DIR",
                        help="folder to write into "
                             "(default: the nearest exercises/ folder, else ./exercises)")
    parser.add_argument("--force", action="store_true",
                        help="overwrite an existing spec of that id")


def run(args) -> int:
    from grader.authoring.scaffold import (
        next_order,
        project_exercises,
        scaffold_function,
        scaffold_spec,
    )
    from grader.checks.catalogue import spec_problems

    folder = Path(args.exercises) if args.exercises else project_exercises()
    path = folder / f"{args.id}.yaml"
    try:
        order = next_order(folder) if folder.is_dir() else 100
        if args.function:
            texts = dict(zip((path, folder / "reference" / f"{args.function}.py"),
                             scaffold_function(args.id, args.function, order), strict=True))
        else:
            texts = {path: scaffold_spec(args.id, call=args.call, order=order)}
    except ValueError as error:
        print(f"vitgrade new: {error}", file=sys.stderr)
        return 2
    for target in texts:
        if target.exists() and not args.force:
            print(f"vitgrade new: {target} exists (use --force to overwrite it)", file=sys.stderr)
            return 1
    for target, text in texts.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    _, problems = spec_problems(path, build_inputs=True)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"wrote {', '.join(map(str, texts))}; next: edit its TODOs, then check it as docs/authoring.md says "
          "(`vitgrade validate`, `vitgrade compile`, `vitgrade render`, ...)")
    return 1 if problems else 0
