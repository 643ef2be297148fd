"""`vitgrade`: the command line. Each subcommand lives in grader/commands/.

Exit codes: 0 full marks (or, for other commands, success), 1 points lost or specs
invalid, 2 bad usage or nothing could be graded.
"""
from __future__ import annotations

import argparse
import sys
from importlib.util import find_spec

from grader.commands import command_modules

# They read the reference, the solutions or the hidden checks, which the student bundle has not
INSTRUCTOR_ONLY = ("validate", "compile", "export", "grade-all", "assign")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="vitgrade", description="Grade Vision Transformer exercises (lecture 4.2).")
    parser.add_argument("--version", action=_VersionAction, nargs=0,
                        help="show the program's version number and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    argv = sys.argv[1:] if argv is None else argv
    chosen = argv[0] if argv and not argv[0].startswith("-") else None
    if chosen in INSTRUCTOR_ONLY and find_spec("grader.reference") is None:  # the student bundle
        print(f"vitgrade {chosen}: an instructor's command, which needs the full grader (the "
              "reference and every spec); this is the student bundle", file=sys.stderr)
        return 2
    for module in command_modules(chosen):
        sub = commands.add_parser(module.NAME, help=module.HELP, description=module.HELP,
                                  epilog=getattr(module, "EPILOG", None))
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    return args.run(args)


class _VersionAction(argparse.Action):
    """`--version`, looked up only when asked: importlib.metadata costs ~80 ms of every run."""

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib.metadata import PackageNotFoundError, version

        try:
            installed = version("vit-grader")
        except PackageNotFoundError:  # run from a copy never installed
            installed = "unknown"
        print(f"vitgrade {installed}")  # to stdout, as argparse's own version action
        parser.exit()


def entry_point() -> int:
    """The console script; `vitgrade ... | head` ends quietly instead of with a BrokenPipeError."""
    from grader.dataclass_code import keep_compiled
    from grader.process_setup import one_shot_collector, single_threaded_blas

    single_threaded_blas()  # before anything imports numpy
    keep_compiled()  # before the classes on the command's path are made
    argv = sys.argv[1:]
    if argv[:1] == ["grade"]:  # one submission, then _exit_now
        one_shot_collector()
    try:
        code = main(argv)
    except BrokenPipeError:
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 1
    if argv[:1] == ["grade"]:
        _exit_now(code)
    return code


def _exit_now(code: int) -> None:
    """Exit as `sys.exit` would, minus the interpreter's teardown of pytest, numpy and the
    grader (~0.15 s of a 1 s run): exit handlers run (they stop the zygote and remove
    temporary folders), output is flushed, nothing else is left to do. `grade` starts no threads."""
    import atexit
    import os

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or 1
    os._exit(code)


if __name__ == "__main__":
    sys.exit(entry_point())
