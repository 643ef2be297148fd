"""`vitgrade grade SUBMISSION`: grade one submission and print the score table.

It drives the same GradingSession (grader/session.py) as the pytest plugin (`pytest --student`),
in this process and without pytest: a student waits for the grading, not for pytest's start-up
(~0.4 s of a cold run; benchmarks/grade_time.py). Only `--junitxml`, pytest's own report, runs
it through pytest and the plugin. tests/test_grade_paths.py holds the two paths to the same
results.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from grader.settings import GRADESCOPE_RESULTS, OPTIONS, STUDENT_HELP, SettingsError, student_file

NAME = "grade"
HELP = "grade one submission (.py or .ipynb) and print the score table"
EPILOG = ("Exit codes: 0 full marks, 1 points lost, 2 nothing could be graded. "
          "To regrade on every save, use `vitgrade watch SUBMISSION`.")

# pytest plugins grading does not use. unraisableexception alone costs ~0.25 s: it runs
# gc.collect() five times at exit; the others add per-item work.
LEAN_PYTEST = [f"-pno:{name}" for name in (
    "cacheprovider", "unraisableexception", "threadexception", "faulthandler", "logging", "doctest",
    "pastebin", "nose", "legacypath", "stepwise", "junitxml", "warnings", "tmpdir", "monkeypatch",
    "setuponly", "setupplan",
)]

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


def pytest_arguments(args) -> list[str]:
    """The pytest command line that grades `args.submission` as `vitgrade grade` does."""
    # quiet: no pytest terminal at all (progress, section, summary); run() prints the table
    terminal = ["-pno:terminal"] if args.quiet else ["-q", "--no-header", "--tb=no", "-rN"]
    if args.verbose and not args.quiet:
        terminal.remove("-q")  # pytest's --verbose, which the plugin reads, would cancel it out
    out = ["-p", "grader.plugin", *LEAN_PYTEST, *terminal,
           "--noconftest", "-c", os.devnull, "--rootdir", str(Path.cwd()),
           "--student", args.submission]
    if args.junitxml:
        out.remove("-pno:junitxml")
        out += ["--junitxml", args.junitxml]
    if not args.quiet:
        out.append("--feedback")
    for option in GRADE_OPTIONS:
        value = vars(args)[option.name]
        if value and not (args.quiet and option.name == "verbose"):  # no terminal, no --verbose:
            out += [option.flag] if option.metavar is None else [option.flag, str(value)]
    return out  # (_QuietTable then prints the hiding note)


def run(args) -> int:
    from grader.worker import prestart_zygote

    if args.gradescope and not args.json:
        args.json = GRADESCOPE_RESULTS
    try:
        args.submission = _submission_file(args.submission, say=not args.quiet)
    except SettingsError as error:
        print(f"vitgrade grade: {error}", file=sys.stderr)
        return 2
    zygote = prestart_zygote()  # the worker's numpy import overlaps with ours
    refused = _refused_output(args)
    if refused:  # before grading; the write itself refuses a link planted meanwhile (outputs.py)
        print(f"vitgrade grade: {refused}", file=sys.stderr)
        return 2
    if args.junitxml:
        return _grade_with_pytest(args)
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
        print(f"vitgrade grade: {error}", file=sys.stderr)
        return 2
    try:
        exercises, errors = load_exercises(settings.exercises)
    except OSError as error:  # no such folder, not a folder, unreadable: nothing to grade
        print(f"vitgrade grade: cannot read the exercise specs in {settings.exercises} "
              f"({error.strerror}): give the folder of specs with --exercises DIR",
              file=sys.stderr)
        exercises, errors = [], []
    session = GradingSession(settings, exercises, [str(error) for error in errors], zygote)
    report = session.run()
    code = 0 if report.exercises and all(e.status == PASSED for e in report.exercises) else 1
    if errors:
        code = 1
    lines = report_lines(report, feedback=settings.feedback)
    print("\n".join(lines if args.quiet else [*lines, closing_line(report)]))
    if settings.verbose:
        from grader.hiding_note import hiding_note

        print(hiding_note(session.hiding()))
    if not write_outputs_or_say(report, settings):
        code = 2
    elif args.json:
        print(f"results written to {args.json}")
    if session.interrupted:
        print("vitgrade grade: interrupted; the results hold the exercises graded before",
              file=sys.stderr)
    if report.fatal or session.interrupted or not (report.exercises or errors):
        code = 2
    return code


def _grade_with_pytest(args) -> int:
    """pytest.main with the plugin and only it: other plugins cannot interfere."""
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    import pytest

    table = _QuietTable() if args.quiet else None
    code = pytest.main(pytest_arguments(args), plugins=[table] if table else None)
    if table and table.report is not None:
        from grader.report.terminal import report_lines

        print("\n".join(report_lines(table.report, feedback=False)))
        if args.verbose:
            from grader.hiding_note import hiding_note

            print(hiding_note(table.hiding))
    if args.json and int(code) in (0, 1, 2):  # 2: nothing graded, and the results say so
        print(f"results written to {args.json}")
    if not Path(args.submission).exists():
        return 2
    return {0: 0, 1: 1}.get(int(code), 2)


class _QuietTable:
    """With -q pytest writes nothing: this keeps the report for run() to print."""

    report = None
    hiding = None  # what the worker hid, for --verbose

    def pytest_sessionfinish(self, session) -> None:
        from grader.items import SESSION_KEY

        grading = session.config.stash.get(SESSION_KEY, None)
        if grading is not None:
            self.report, self.hiding = grading.report(), grading.hiding()


def _submission_file(submission: str, say: bool) -> str:
    """The file to grade: `submission`, or the one in that folder (said so when `say`)."""
    chosen = student_file(Path(submission))
    if say and str(chosen) != submission:
        print(f"grading {chosen} (the submission in {submission})")
    return str(chosen)


def _refused_output(args) -> str | None:
    """Why a results file asked for could not be written safely (safe_files.py), if so; its
    missing folders are made."""
    from grader.report.safe_files import UnsafePathError, checked_folder

    for out in (args.json, args.prairielearn):
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
