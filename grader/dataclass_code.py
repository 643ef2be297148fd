"""The methods `dataclasses` writes for the grader's classes, compiled once and kept on disk.

For each class, `dataclasses` writes the source of its `__init__`, `__repr__`, `__eq__` (and a
frozen class's `__setattr__`, `__delattr__`, `__hash__`) and compiles it with `exec`: ~0.5 ms a
class, ~20 ms of a cold `vitgrade grade` for the ~40 classes on its path, about a tenth of its
wall time (docs/architecture.md, "The cold path"). `keep_compiled()` hands the `dataclasses`
module an `exec` that compiles each source text once and keeps the code object, by the text,
in a file beside the grader's bytecode (`__pycache__/dataclass_code.<tag>.methods`, with the
interpreter's bytecode magic number): the next run unmarshals it instead of compiling.

Nothing else changes: the same text compiled as `exec` compiles it (`<string>`, no inherited
`__future__` flags) is the same code, run with the same globals and locals; a text not in the
file is compiled as before. The file holds nothing secret (the methods of the grader's own
classes) and is trusted as the `.pyc` files beside it are: whoever may write one may write the
other. It is read only if this user or root owns it and nobody else may write it, and a file
that is not what this interpreter wrote is ignored; it is written only by the process that
installed the `exec` (never a zygote or a worker forked from it; a worker also drops it,
worker/sandbox.py), only where bytecode is written, atomically.
"""
from __future__ import annotations

import atexit
import builtins
import dataclasses
import marshal
import os
import sys
from importlib.util import MAGIC_NUMBER, cache_from_source

KEPT_AT_MOST = 2000  # source texts in the file: the classes of every command, with room to change
CodeType = type(compile("", "<string>", "exec"))


class CompiledMethods:
    """Source text -> code object: those read from the file, and those compiled in this run."""

    def __init__(self, path: str | None):
        self.path, self.pid = path, os.getpid()
        self.code: dict[str, CodeType] = read(path) if path else {}
        self.compiled: dict[str, CodeType] = {}

    def exec(self, source, globals=None, locals=None, /):
        if type(source) is str:
            code = self.code.get(source)
            if code is None:
                code = compile(source, "<string>", "exec", dont_inherit=True)
                self.code[source] = self.compiled[source] = code
            source = code
        return builtins.exec(source, globals, locals)

    def save(self) -> None:
        """Write the file again when this run compiled a text it did not hold (in this process
        only, never in a forked child)."""
        if not self.compiled or not self.path or os.getpid() != self.pid:
            return
        kept = dict(self.compiled)
        for source, code in self.code.items():
            if len(kept) >= KEPT_AT_MOST:
                break
            kept.setdefault(source, code)
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            partial = f"{self.path}.{self.pid}.partial"
            with open(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
                      "wb") as file:
                file.write(MAGIC_NUMBER + marshal.dumps(kept))
            os.replace(partial, self.path)
        except OSError:  # a read-only install: compiled on each run, as without the file
            return
        self.compiled = {}


def read(path: str) -> dict[str, CodeType]:
    """The file's code objects by source text; {} when it is missing or not this interpreter's."""
    try:
        with open(path, "rb") as file:
            mine = trusted(os.fstat(file.fileno()))
            data = file.read() if mine else b""
    except OSError:
        return {}
    if not data.startswith(MAGIC_NUMBER):
        return {}
    try:
        code = marshal.loads(data[len(MAGIC_NUMBER):])
    except (ValueError, EOFError, TypeError):
        return {}
    if type(code) is not dict or not all(
            type(k) is str and type(v) is CodeType for k, v in code.items()):
        return {}
    return code


def trusted(stat: os.stat_result) -> bool:
    """Written by this user (or root) and writable by nobody else, as the exercises folder a
    run reads must be (grader/spec/locate.py)."""
    return stat.st_uid in (os.geteuid(), 0) and not stat.st_mode & 0o022


def methods_file() -> str | None:
    """Where the file lies: beside this module's bytecode (sys.pycache_prefix respected)."""
    try:
        return cache_from_source(__file__).removesuffix(".pyc") + ".methods"
    except (NotImplementedError, ValueError):  # no bytecode cache on this interpreter
        return None


def keep_compiled() -> CompiledMethods | None:
    """From now on, the classes `dataclasses` makes in this process use the kept methods; the
    file is brought up to date at the exit. Once a process (for its console script)."""
    if isinstance(getattr(getattr(dataclasses, "exec", None), "__self__", None), CompiledMethods):
        return None
    methods = CompiledMethods(methods_file())
    dataclasses.exec = methods.exec  # dataclasses looks `exec` up among its globals
    if not sys.dont_write_bytecode:
        atexit.register(methods.save)
    return methods
