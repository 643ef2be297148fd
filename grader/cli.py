"""`vitgrade`: the command line. Each subcommand lives in grader/commands/.

Exit codes: 0 full marks (or, for other commands, success), 1 points lost or specs
invalid, 2 bad usage or nothing could be graded.
"""
from __future__ import annotations

import argparse
import sys

from grader.commands import command_modules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="vitgrade", description="Grade Vision Transformer exercises (lecture 4.2).")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in command_modules():
        sub = commands.add_parser(module.NAME, help=module.HELP, description=module.HELP,
                                  epilog=getattr(module, "EPILOG", None))
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    return args.run(args)


def entry_point() -> int:
    """The console script: `vitgrade grade` goes to the warm server when one can take it
    (grader/server/), and at a terminal leaves one behind for next time; `vitgrade ... | head`
    ends quietly instead of with a BrokenPipeError."""
    from grader.process_setup import single_threaded_blas
    from grader.server import paths

    single_threaded_blas()  # before anything imports numpy
    argv = sys.argv[1:]
    use_server = paths.wanted(argv)
    if use_server:
        from grader.server.client import served

        code = served(argv)
        if code is not None:
            return code
    try:
        code = main(argv)
    except BrokenPipeError:
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 1
    if use_server and paths.should_start(interactive=sys.stdout.isatty()):
        from grader.server.client import start_server

        start_server(_exercises_folder(argv))
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


def _exercises_folder(argv: list[str]) -> str | None:
    """The exercises folder `vitgrade grade argv` used, for the server to prepare."""
    explicit = None
    for i, arg in enumerate(argv):
        if arg == "--exercises" and i + 1 < len(argv):
            explicit = argv[i + 1]
        elif arg.startswith("--exercises="):
            explicit = arg.split("=", 1)[1]
    try:
        from grader.spec.locate import find_exercises

        return str(find_exercises(explicit).resolve())
    except OSError:
        return None


if __name__ == "__main__":
    sys.exit(entry_point())
