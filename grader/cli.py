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
        sub = commands.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    return args.run(args)


def entry_point() -> int:
    """The console script: `vitgrade ... | head` ends quietly instead of with a BrokenPipeError."""
    try:
        return main()
    except BrokenPipeError:
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 1


if __name__ == "__main__":
    sys.exit(entry_point())
