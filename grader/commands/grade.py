"""`vitgrade grade SUBMISSION`: grade one submission through pytest and the plugin."""
from __future__ import annotations

import os
from pathlib import Path

from grader.settings import HELP as OPTION_HELP

NAME = "grade"
HELP = "grade one submission (.py or .ipynb) and print the score table"
EPILOG = ("Exit codes: 0 full marks, 1 points lost, 2 nothing could be graded. "
          "To regrade on every save, use `vitgrade watch SUBMISSION`.")

# pytest plugins grading does not use. unraisableexception alone costs ~0.25 s: it runs
# gc.collect() five times at exit; the others add per-item work.
LEAN_PYTEST = [f"-pno:{name}" for name in (
    "cacheprovider", "unraisableexception", "threadexception", "faulthandler", "logging", "doctest",
    "pastebin", "nose", "legacypath", "stepwise", "junitxml", "warnings", "tmpdir", "monkeypatch", "setuponly", "setupplan",
)]

# `vitgrade grade` flag -> the plugin's pytest option; each takes a value.
FORWARDED = {"json": "--grade-json", "exercises": "--exercises", "call_timeout": "--call-timeout",
             "memory_mb": "--memory-mb", "prairielearn": "--grade-prairielearn", "junitxml": "--junitxml",
             "load_timeout": "--load-timeout", "max_processes": "--max-processes", "output_kb": "--output-kb",
             "file_mb": "--file-mb"}


def add_arguments(parser) -> None:
    parser.add_argument("submission", help=OPTION_HELP["student"])
    parser.add_argument("--json", metavar="OUT", help=OPTION_HELP["grade_json"])
    parser.add_argument("--gradescope", action="store_true",
                        help="write Gradescope results to /autograder/results/results.json")
    parser.add_argument("--classroom", action="store_true", help=OPTION_HELP["grade_classroom"])
    parser.add_argument("--prairielearn", metavar="OUT", help=OPTION_HELP["grade_prairielearn"])
    parser.add_argument("--junitxml", metavar="OUT", help="also write JUnit XML with each exercise's points as properties")
    parser.add_argument("--exercises", metavar="DIR", help=OPTION_HELP["exercises"])
    parser.add_argument("--visible-only", action="store_true", help=OPTION_HELP["visible_only"])
    parser.add_argument("--call-timeout", metavar="SECONDS", help=OPTION_HELP["call_timeout"])
    parser.add_argument("--memory-mb", metavar="MB", help=OPTION_HELP["memory_mb"])
    parser.add_argument("--load-timeout", metavar="SECONDS", help=OPTION_HELP["load_timeout"])
    parser.add_argument("--max-processes", metavar="N", help=OPTION_HELP["max_processes"])
    parser.add_argument("--output-kb", metavar="KB", help=OPTION_HELP["output_kb"])
    parser.add_argument("--file-mb", metavar="MB", help=OPTION_HELP["file_mb"])
    parser.add_argument("-q", "--quiet", action="store_true", help="print only the score table, not the feedback")


def pytest_arguments(args) -> list[str]:
    """The pytest command line that grades `args.submission` as `vitgrade grade` does."""
    out = ["-p", "grader.plugin", *LEAN_PYTEST, "-q", "--no-header", "--tb=no", "-rN",
           "--noconftest", "-c", os.devnull, "--rootdir", str(Path.cwd()), "--student", args.submission]
    if args.junitxml:
        out.remove("-pno:junitxml")
    if not args.quiet:
        out.append("--grade-feedback")
    if args.gradescope and not args.json:
        args.json = "/autograder/results/results.json"
    for attribute, flag in FORWARDED.items():
        value = getattr(args, attribute, None)
        if value:
            out += [flag, str(value)]
    if args.classroom:
        out.append("--grade-classroom")
    if args.visible_only:
        out.append("--visible-only")
    return out


def run(args) -> int:
    from grader.worker import prestart_zygote

    prestart_zygote()  # the worker's numpy import overlaps with pytest's start-up
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # only our plugin: faster, and other plugins can't interfere
    import pytest

    code = pytest.main(pytest_arguments(args))
    if args.json:
        print(f"results written to {args.json}")
    if not Path(args.submission).exists():
        return 2
    return {0: 0, 1: 1}.get(int(code), 2)
