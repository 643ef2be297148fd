"""`vitgrade render`: write the student question sheet (docs/exercises.md) from the specs, and
the part of docs/student-api.md that lists the course's own functions (authoring/render.py)."""
from __future__ import annotations

import sys
from pathlib import Path

from grader.commands import EXERCISES_HELP, fail

NAME = "render"
HELP = "write the student question sheet (docs/exercises.md) from the exercise specs"


def add_arguments(parser) -> None:
    parser.add_argument("--exercises", metavar="DIR", help=EXERCISES_HELP)
    parser.add_argument("--out", metavar="FILE",
                        help="where to write the sheet "
                             "(default: docs/exercises.md beside the exercises folder)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 when the sheet is out of date with the specs")
    parser.add_argument("--student-id", metavar="ID",
                        help="write that student's own sheet, their variant's numbers (default "
                             "--out: exercises-ID.md here); needs the course secret")


def run(args) -> int:
    from grader.authoring import render_sheet
    from grader.authoring.render import with_course_functions
    from grader.checks.catalogue import load_exercises
    from grader.spec.locate import find_exercises

    folder = find_exercises(args.exercises)
    exercises, errors = load_exercises(folder, every_problem=True)
    if errors:
        for error in errors:
            print(error, file=sys.stderr)
        return fail(NAME, "fix the specs first (vitgrade validate)", 1)
    if args.student_id:
        return _student_sheet(folder, exercises, args.student_id, args.out)
    out = Path(args.out) if args.out else folder.parent / "docs" / "exercises.md"
    texts = {out: render_sheet(exercises)}
    api_doc = folder.parent / "docs" / "student-api.md"  # its part on the course's functions
    if api_doc.is_file():
        texts[api_doc] = with_course_functions(api_doc.read_text(encoding="utf-8"), folder)
    if args.check:
        stale = [path for path, text in texts.items()
                 if not path.is_file() or path.read_text(encoding="utf-8") != text]
        for path in stale:
            print(f"{path} is out of date with {folder}: run `vitgrade render`", file=sys.stderr)
        if stale:
            return 1
        print(f"{out} is up to date ({len(exercises)} exercises)")
        return 0
    out.parent.mkdir(parents=True, exist_ok=True)
    for path, text in texts.items():
        path.write_text(text, encoding="utf-8")
    print(f"wrote {out}: {len(exercises)} exercises, {sum(e.points for e in exercises):g} points")
    return 0


def _student_sheet(folder: Path, exercises: list, student_id: str, out: str | None) -> int:
    """One student's sheet: each exercise with variants as the course secret picks it for them."""
    from grader.authoring import render_sheet
    from grader.batch.discover import student_id as safe_id  # grade-all's file-safe ids
    from grader.checks.catalogue import student_variants
    from grader.checks.variants import SECRET_ENV, SECRET_FILE, course_secret

    secret = course_secret(folder)
    if secret is None:
        return fail(NAME, f"no course secret ({SECRET_ENV}, or {folder / SECRET_FILE}): "
                          "`vitgrade compile` makes one", 1)
    path = Path(out or f"exercises-{safe_id(student_id)}.md")
    path.write_text(render_sheet(student_variants(exercises, secret, student_id), student_id),
                    encoding="utf-8")
    varied = sum(bool(e.variants) for e in exercises)
    print(f"wrote {path}: {len(exercises)} exercises, {varied} with {student_id}'s own numbers")
    return 0
