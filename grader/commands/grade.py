"""`vitgrade grade SUBMISSION`: grade one submission with the driver (grader/driver.py), in this
process and without pytest (~0.4 s of a cold run saved), and print the score table.
"""
from __future__ import annotations

import sys
from pathlib import Path

from grader.commands import fail
from grader.settings import OPTIONS, STUDENT_HELP, SettingsError

NAME = "grade"
HELP = "grade one submission (.py or .ipynb) and print the score table"
EPILOG = ("Exit codes: 0 full marks, 1 points lost, 2 nothing could be graded. "
          "To regrade on every save, use `vitgrade watch SUBMISSION`.")


def add_arguments(parser) -> None:
    parser.add_argument("submission", help=STUDENT_HELP)
    for option in OPTIONS:  # the plugin's own (grader/settings.py)
        parser.add_argument(option.flag, **option.argparse_kwargs())
    parser.add_argument("--junitxml", metavar="OUT",
                        help="also write JUnit XML with each exercise's points as properties")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print only the score table (and where results were written)")


def run(args) -> int:
    from grader.worker import prestart_zygote

    zygote = prestart_zygote(forked=True)  # first, before anything of the course is read
    from grader.driver import Driver
    from grader.report.terminal import closing_line, report_lines
    from grader.settings import resolve_settings

    given = {**vars(args), "student": args.submission, "show_feedback": not args.quiet}
    try:
        settings = resolve_settings(given.get, Path.cwd())
    except SettingsError as error:
        return fail(NAME, str(error))
    if not args.quiet and settings.student != Path.cwd() / args.submission:  # a folder's file
        print(f"grading {Path(args.submission, settings.student.name)} (the submission in "
              f"{args.submission})")
    refused = _refused_output(settings, args.junitxml)
    if refused:  # before grading; the write itself refuses a link planted meanwhile (outputs.py)
        return fail(NAME, refused)
    driver = Driver(settings, zygote)
    try:
        outcome = driver.grade(junit_out=args.junitxml)
        lines = report_lines(outcome.report, feedback=settings.feedback)
        print("\n".join(lines if args.quiet else [*lines, closing_line(outcome.report)]))
        if settings.verbose:
            from grader.hiding_note import hiding_note

            print(hiding_note(outcome.hiding))
        if settings.json_out and outcome.written:
            from grader.spec.parse import shown_path

            print(f"results written to {shown_path(settings.json_out)}")
        for note in outcome.notes:
            print(note, file=sys.stderr)
    finally:
        driver.close()  # the zygote: after the table is printed, as the student reads it
    return outcome.status


def _refused_output(settings, junit_out: str | None) -> str | None:
    """Why a results file asked for could not be written safely (safe_files.py), if so; its
    missing folders are made."""
    from grader.report.safe_files import UnsafePathError, checked_folder

    for out in (settings.json_out, settings.prairielearn_out, junit_out):
        if out:
            try:
                with checked_folder(Path(out).absolute().parent, out):
                    pass
            except UnsafePathError as error:
                return str(error)
            except OSError as error:  # a folder that cannot be made: read-only, not a folder
                return (f"cannot write {out} ({error.strerror or error}): choose a folder you "
                        "can write to")
    return None
