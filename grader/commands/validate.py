"""`vitgrade validate [--exercises DIR]`: check exercise specs; one `file:line: message` per
problem, every problem of each file."""
from __future__ import annotations

from grader.commands import EXERCISES_HELP, fail

NAME = "validate"
HELP = "check exercise specs and report file:line for each problem"


def add_arguments(parser) -> None:
    parser.add_argument("directory", nargs="?", help="folder of specs (as --exercises)")
    parser.add_argument("--exercises", metavar="DIR", help=EXERCISES_HELP)


def run(args) -> int:
    from grader.checks import compiled
    from grader.checks.catalogue import load_exercises
    from grader.checks.course_file import course_settings
    from grader.spec import spec_files
    from grader.spec.locate import find_exercises

    if args.directory and args.exercises and args.directory != args.exercises:
        return fail(NAME, "give the folder of specs once: DIR or --exercises DIR")
    folder = find_exercises(args.exercises or args.directory)
    if not folder.is_dir():
        return fail(NAME, f"{folder} is not a folder of exercise specs")
    exercises, errors = load_exercises(folder, build_inputs=True, every_problem=True)
    errors += course_settings(folder).problems  # course.yaml's
    for error in sorted(errors, key=lambda e: (e.path, e.line or 0)):  # each file's in its order
        print(error)
    bad = len({e.path for e in errors})
    print(f"{folder}: {len(exercises)} exercises load and validate; {bad} spec file(s) with "
          "problems")
    # a note per spec whose compiled expectations are not fresh: grading computes them
    # meanwhile (or, without the reference, says it cannot)
    if (folder / "compiled").is_dir():
        for path in spec_files(folder):
            state = compiled.state(path)
            if state in ("missing", "stale"):
                print(f"note: {path.name}: its compiled data is {state}; `vitgrade compile` "
                      "writes it again")
            elif state != "fresh":
                print(f"note: {path.name}: {state}")
    return 1 if errors else 0
