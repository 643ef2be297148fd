"""`vitgrade grade SUBMISSION`: grade one submission and print the score table.

It drives the same GradingSession (grader/session.py) as the pytest plugin (`pytest --student`),
in this process and without pytest: a student waits for the grading, not for pytest's start-up
(~0.4 s of a cold run; benchmarks/grade_time.py). tests/test_grade_paths.py holds the two paths
to the same results, `--junitxml` (report/junit.py) included.
"""
from __future__ import annotations

import sys
from pathlib import Path

from grader.commands import fail
from grader.settings import GRADESCOPE_RESULTS, OPTIONS, STUDENT_HELP, SettingsError, student_file

NAME = "grade"
HELP = "grade one submission (.py or .ipynb) and print the score table"
EPILOG = ("Exit codes: 0 full marks, 1 points lost, 2 nothing could be graded. "
          "To regrade on every save, use `vitgrade watch SUBMISSION`.")

# the plugin's own options (grader/settings.py); feedback is the default here
GRADE_OPTIONS = tuple(option for option in OPTIONS if option.name != "feedback")


def add_arguments(parser) -> None:
    parser.add_argument("submission", help=STUDENT_HELP)
    for option in GRADE_OPTIONS:
        parser.add_argument(option.flag, **option.argparse_kwargs())
    parser.add_argument("--junitxml", metavar="OUT",
                        help="also write JUnit XML with each exercise's points as properties")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print only the score table (and where results were written)")


def run(args) -> int:
    from grader.worker import prestart_zygote

    if args.gradescope and not args.json:
        args.json = GRADESCOPE_RESULTS
    try:
        chosen = str(student_file(Path(args.submission)))  # a folder: the file in it
    except SettingsError as error:
        return fail(NAME, str(error))
    if not args.quiet and chosen != args.submission:
        print(f"grading {chosen} (the submission in {args.submission})")
    args.submission = chosen
    zygote = prestart_zygote()  # the worker's numpy import overlaps with ours
    refused = _refused_output(args)
    if refused:  # before grading; the write itself refuses a link planted meanwhile (outputs.py)
        return fail(NAME, refused)
    return _grade_in_process(args, zygote)


def _grade_in_process(args, zygote) -> int:
    """Grade as the plugin does (the same GradingSession, every exercise in order, the results
    files, the exit code), with the report printed as its terminal summary is."""
    from grader.checks.catalogue import load_exercises
    from grader.checks.results import PASSED
    from grader.report.outputs import write_outputs_or_say
    from grader.report.terminal import closing_line, report_lines
    from grader.session import GradingSession
    from grader.settings import resolve_settings

    given = {**vars(args), "student": args.submission, "feedback": not args.quiet}
    try:
        settings = resolve_settings(given.get, Path.cwd())
    except SettingsError as error:
        return fail(NAME, str(error))
    try:
        exercises, errors = load_exercises(settings.exercises)
    except OSError as error:  # no such folder, not a folder, unreadable: nothing to grade
        print(f"vitgrade grade: cannot read the exercise specs in {settings.exercises} "
              f"({error.strerror}): give the folder of specs with --exercises DIR",
              file=sys.stderr)
        exercises, errors = [], []
    session = GradingSession(settings, exercises, [str(error) for error in errors], zygote)
    report = session.run()
    passed = report.exercises and all(e.status == PASSED for e in report.exercises)
    code = 0 if passed and not errors else 1
    lines = report_lines(report, feedback=settings.feedback)
    print("\n".join(lines if args.quiet else [*lines, closing_line(report)]))
    if settings.verbose:
        from grader.hiding_note import hiding_note

        print(hiding_note(session.hiding()))
    if not write_outputs_or_say(report, settings, junit_out=args.junitxml):
        code = 2
    elif args.json:
        print(f"results written to {args.json}")
    if session.interrupted:
        print("vitgrade grade: interrupted; the results hold the exercises graded before",
              file=sys.stderr)
    if report.fatal or session.interrupted or not (report.exercises or errors):
        code = 2
    return code


def _refused_output(args) -> str | None:
    """Why a results file asked for could not be written safely (safe_files.py), if so; its
    missing folders are made."""
    from grader.report.safe_files import UnsafePathError, checked_folder

    for out in (args.json, args.prairielearn, args.junitxml):
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
