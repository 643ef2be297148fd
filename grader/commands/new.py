"""`vitgrade new ID`: scaffold a new exercise spec that validates, ready to edit."""
from __future__ import annotations

import sys
from pathlib import Path

from grader.commands import fail

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
    from grader.authoring import scaffold
    from grader.checks.catalogue import spec_problems

    folder = Path(args.exercises) if args.exercises else scaffold.project_exercises()
    path = folder / f"{args.id}.yaml"
    try:
        order = scaffold.next_order(folder) if folder.is_dir() else 100
        text = scaffold.scaffold_spec(args.id, call=args.function or args.call, order=order,
                                      new_function=bool(args.function))
    except ValueError as error:
        return fail(NAME, str(error))
    if path.exists() and not args.force:
        return fail(NAME, f"{path} exists (use --force to overwrite it)", 1)
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    written, kept = [path], []
    reference = folder / "reference" / f"{args.function}.py"
    if args.function and (args.force or not reference.exists()):  # never the course's own
        reference.parent.mkdir(exist_ok=True)
        reference.write_text(scaffold.REFERENCE_TEMPLATE.format(call=args.function), "utf-8")
        written.append(reference)
    elif args.function:
        kept.append(reference)
    _, problems = spec_problems(path, build_inputs=True)
    for problem in problems:
        print(problem, file=sys.stderr)
    for done in written:
        print(f"wrote {done}")
    for done in kept:
        print(f"kept {done}: it exists (--force overwrites it)")
    print("next: edit the TODOs, then check it as docs/authoring.md says "
          "(`vitgrade validate`, `vitgrade compile`, `vitgrade render`, ...)")
    return 1 if problems else 0
