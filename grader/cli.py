"""`vitgrade`: the command line. `grade` runs pytest with the plugin; it does not re-implement it.

Exit codes: 0 full marks (or, for other commands, success), 1 points lost or specs
invalid, 2 bad usage or nothing could be graded.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from grader.settings import HELP


# pytest plugins grading does not use. unraisableexception alone costs ~0.25 s: it runs
# gc.collect() five times at exit; the others add per-item work.
LEAN_PYTEST = [f"-pno:{name}" for name in (
    "cacheprovider", "unraisableexception", "threadexception", "faulthandler", "logging", "doctest",
    "pastebin", "nose", "legacypath", "stepwise", "junitxml", "warnings", "tmpdir", "monkeypatch", "setuponly", "setupplan",
)]


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    return args.run(args)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="vitgrade", description="Grade Vision Transformer exercises (lecture 4.2).")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    grade = commands.add_parser("grade", help="grade one submission (.py or .ipynb) and print the score table")
    grade.add_argument("submission", help=HELP["student"])
    grade.add_argument("--json", metavar="OUT", help=HELP["grade_json"])
    grade.add_argument("--exercises", metavar="DIR", help=HELP["exercises"])
    grade.add_argument("--visible-only", action="store_true", help=HELP["visible_only"])
    grade.add_argument("--call-timeout", metavar="SECONDS", help=HELP["call_timeout"])
    grade.add_argument("-q", "--quiet", action="store_true", help="print only the score table, not the feedback")
    grade.set_defaults(run=run_grade)

    validate = commands.add_parser("validate", help="check exercise specs and report file:line for each problem")
    validate.add_argument("directory", nargs="?", help="folder of specs (default: as for grade)")
    validate.set_defaults(run=run_validate)
    return parser


def run_grade(args) -> int:
    from grader.worker import prestart_zygote

    prestart_zygote()  # the worker's numpy import overlaps with pytest's start-up
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # only our plugin: faster, and a student's other plugins can't interfere
    import pytest

    pytest_args = ["-p", "grader.plugin", *LEAN_PYTEST, "-q", "--no-header", "--tb=no", "-rN",
                   "--noconftest", "-c", os.devnull, "--rootdir", str(Path.cwd()), "--student", args.submission]
    if not args.quiet:
        pytest_args.append("--grade-feedback")
    for flag, value in (("--grade-json", args.json), ("--exercises", args.exercises), ("--call-timeout", args.call_timeout)):
        if value:
            pytest_args += [flag, value]
    if args.visible_only:
        pytest_args.append("--visible-only")
    code = pytest.main(pytest_args)
    if args.json:
        print(f"results written to {args.json}")
    return {0: 0, 1: 1}.get(int(code), 2)


def run_validate(args) -> int:
    from grader.checks.validate import validate_exercise
    from grader.spec import load_specs
    from grader.spec.locate import find_exercises

    folder = find_exercises(args.directory)
    if not folder.is_dir():
        print(f"vitgrade validate: {folder} is not a folder of exercise specs", file=sys.stderr)
        return 2
    exercises, errors = load_specs(folder)
    for exercise in exercises:
        errors += validate_exercise(exercise, build_inputs=True)
    for error in errors:
        print(error)
    bad = len({e.path for e in errors})
    print(f"{folder}: {len(exercises)} exercises load; {bad} spec file(s) with problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
