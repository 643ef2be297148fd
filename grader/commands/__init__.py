"""The `vitgrade` subcommands: one module each, found by listing this package.

A module defines `NAME`, `HELP`, `add_arguments(parser)` and `run(args) -> int`. It keeps
heavy imports inside `run`, so that `vitgrade grade` starts fast whatever else exists.
"""
from __future__ import annotations

import importlib
import sys
from importlib.util import find_spec

EXERCISES_HELP = "folder of exercise specs (default: as for grade)"  # every command but grade


def command_modules(chosen: str | None = None) -> list:
    """Every subcommand's module, or only the one named `chosen` when there is one: the others'
    parsers cost ~20 ms of every `vitgrade grade`, and listing this package (pkgutil) ~1 ms."""
    name = (chosen or "").replace("-", "_")
    if name.isidentifier() and not name.startswith("_") and find_spec(f"{__name__}.{name}"):
        return [importlib.import_module(f"{__name__}.{name}")]
    import pkgutil

    found = sorted(info.name for info in pkgutil.iter_modules(__path__)
                   if not info.name.startswith("_"))
    return [importlib.import_module(f"{__name__}.{name}") for name in found]


def fail(command: str, message: str, code: int = 2) -> int:
    """Print `vitgrade COMMAND: message` on stderr; returns `code`, the exit code."""
    print(f"vitgrade {command}: {message}", file=sys.stderr)
    return code
