"""The `vitgrade` subcommands: one module each, found by listing this package.

A module defines `NAME`, `HELP`, `add_arguments(parser)` and `run(args) -> int`. It keeps
heavy imports inside `run`, so that `vitgrade grade` starts fast whatever else exists.
"""
from __future__ import annotations

import importlib
import pkgutil

EXERCISES_HELP = "folder of exercise specs (default: as for grade)"  # every command but grade


def command_modules() -> list:
    found = sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name)
    return [importlib.import_module(f"{__name__}.{info.name}")
            for info in found if not info.name.startswith("_")]
