"""`vitgrade dist OUT/`: the student bundle (grader/lms/student_bundle.py)."""
from __future__ import annotations

from grader.commands import EXERCISES_HELP, fail

NAME = "dist"
HELP = "write the student bundle: template, visible specs, the grader, a README (nothing hidden)"


def add_arguments(parser) -> None:
    parser.add_argument("out", metavar="OUT", help="folder to write (must be empty or absent)")
    parser.add_argument("--exercises", metavar="DIR", help=EXERCISES_HELP)
    parser.add_argument("--template", metavar="DIR",
                        help="folder of student starter files (default: student_template/)")
    parser.add_argument("--student-id", metavar="ID",
                        help="one student's bundle: their own variants' visible cases (needs "
                             "the course secret); without it, no variant's numbers")


def run(args) -> int:
    from pathlib import Path

    from grader.lms.student_bundle import BundleError, write_student_bundle
    from grader.spec.locate import find_exercises

    try:
        notes = write_student_bundle(Path(args.out), find_exercises(args.exercises),
                                     Path(args.template) if args.template else None,
                                     student_id=args.student_id)
    except BundleError as error:
        return fail(NAME, str(error))
    for note in notes:
        print(note)
    print(f"wrote the student bundle to {args.out}: `pip install {args.out}` "
          "then `vitgrade grade vit_exercises.py`")
    return 0
