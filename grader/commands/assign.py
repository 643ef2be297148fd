"""`vitgrade assign SOLUTIONS TEMPLATE`: write the student versions of the solutions
(grader/authoring/assign.py)."""
from __future__ import annotations

import sys

from grader.commands import fail

NAME = "assign"
HELP = ("write the student versions of the solutions (.py, .ipynb): solution regions become "
        "stubs, outputs cleared")


def add_arguments(parser) -> None:
    parser.add_argument("source", metavar="SOLUTIONS",
                        help="a folder of solutions (or one solution file)")
    parser.add_argument("target", metavar="TEMPLATE",
                        help="the folder to write the student versions to")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a student version in TEMPLATE differs from "
                             "what would be written, or a module and its notebook define different "
                             "functions or ANSWERS keys")


def run(args) -> int:
    from pathlib import Path

    from grader.authoring.assign import AssignError, assign, drift

    source = Path(args.source)
    if not source.exists():
        return fail(NAME, f"{source} does not exist")
    try:
        versions = assign(source, args.target)
        drifted = drift(source) + (drift(args.target) if args.check else [])
    except AssignError as error:
        return fail(NAME, str(error), 1)
    if not versions:
        return fail(NAME, f"no .py or .ipynb solutions in {source}")
    for problem in drifted:
        print(f"vitgrade assign: {problem}", file=sys.stderr)
    if args.check:
        stale = [v for v in versions
                 if not v.target.is_file() or v.target.read_text(encoding="utf-8") != v.text]
        for version in stale:
            print(f"{version.target}: differs from the student version of {version.source} "
                  f"(run vitgrade assign)")
        return 1 if stale or drifted else 0
    if drifted:
        return fail(NAME, "nothing written: bring the module and the notebook level first", 1)
    for version in versions:
        version.target.parent.mkdir(parents=True, exist_ok=True)
        version.target.write_text(version.text, encoding="utf-8")
    for version in versions:
        dropped = (f", {version.dropped_cells} instructor-only cell(s) dropped"
                   if version.dropped_cells else "")
        print(f"wrote {version.target} (from {version.source}: {version.regions} solution "
              f"region(s) replaced{dropped})")
    print(f"vitgrade assign: wrote {len(versions)} student version(s) in {args.target}")
    return 0
