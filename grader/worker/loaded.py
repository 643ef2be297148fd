"""A loaded submission as the worker holds it: its namespace, its problems, its own code.

Shared by the module loader (submission.py) and the notebook loader (notebook.py). Tracebacks
keep only the submission's own frames: students see their code, never the grader's.
"""

from __future__ import annotations
import __future__

import linecache
import sys
import traceback
import types
from dataclasses import dataclass, field
from pathlib import Path

from grader.worker.limits import DEFAULT_LIMITS
from grader.worker.outcomes import LoadProblem

MAX_MESSAGE = 2000  # characters of an exception message kept
# The flags `from __future__` imports set in a code object's co_flags: compiling the rest of a
# module or notebook with them keeps those imports in force.
FUTURE_FLAGS = 0
for _feature in __future__.all_feature_names:
    FUTURE_FLAGS |= getattr(__future__, _feature).compiler_flag


@dataclass
class Submission:
    path: Path
    namespace: dict = field(default_factory=dict)
    ok: bool = True  # False when nothing could be loaded
    problems: list[LoadProblem] = field(default_factory=list)
    own_files: dict[str, str] = field(default_factory=dict)  # compiled filename -> shown name
    budget: tuple[float, float] = DEFAULT_LIMITS.load_budget  # per statement or cell, in all
    skip: frozenset = frozenset()  # "vit_exercises.py:40", "cell 3": stopped before, not run again
    stopped: list[str] = field(default_factory=list)  # what was stopped at its limit in this load
    source: bytes | None = None  # the file's bytes, when read before the worker dropped privileges
    notes: list[str] = field(default_factory=list)  # not problems: "graded the 5 marked cells"
    setup: tuple[str, str] | None = None  # the course's setup code: (file name, source)

    def run_setup(self) -> None:
        """Run the course's setup code in the namespace, before the submission: the names it
        defines are the student's to use. Its frames are never shown (not an own file); when it
        raises, a load problem says so, for the instructor."""
        if not self.setup:
            return
        name, source = self.setup
        try:
            exec(compile(source, f"<course setup: {name}>", "exec", dont_inherit=True),
                 self.namespace)
        except BaseException as exc:  # noqa: BLE001 - the course's bug, said, never the worker's end
            self.problems.append(LoadProblem(name, f"the course's setup code raised "
                                             f"{type(exc).__name__}: {exc} (tell your instructor)"))

    @property
    def label(self) -> str:
        return self.path.name

    def names(self) -> dict[str, str]:
        """Top-level name -> kind ("function", "class", "module", or the value's type name)."""
        return {name: kind_of(value) for name, value in self.namespace.items()
                if type(name) is str and not (name.startswith("__") and name.endswith("__"))}

    def unloadable(self, message: str, where: str | None = None) -> Submission:
        """Mark it as not loadable at all, and why."""
        self.ok = False
        self.problems.append(LoadProblem(where or self.label, message))
        return self

    def describe_error(self, exc: BaseException) -> dict:
        """type, message, traceback (own frames only), where (innermost own frame) and raised_in
        (that frame's function, when `exc` started there: not while handling another) of `exc`."""
        lines, where, innermost, last = [], None, None, None
        for frame, lineno in traceback.walk_tb(exc.__traceback__):
            last = frame
            shown = self.own_files.get(frame.f_code.co_filename)
            if shown is None:
                continue
            source = linecache.getline(frame.f_code.co_filename, lineno).strip()
            lines.append(f'  File "{shown}", line {lineno}, in {frame.f_code.co_name}\n')
            if source:
                lines.append(f"    {source}\n")
            where, innermost = f"{shown}:{lineno}", frame
        started_there = (innermost is not None and innermost is last
                         and exc.__context__ is None and exc.__cause__ is None)
        return {"type": type(exc).__name__, "message": message_of(exc), "traceback": "".join(lines),
                "where": where, "raised_in": innermost.f_code.co_name if started_there else None}


def new_module(name: str, filename: str) -> types.ModuleType:
    """A module registered in sys.modules while (and after) it runs, as `import` would do."""
    module = types.ModuleType(name)
    module.__file__ = filename
    sys.modules[name] = module
    return module


def kind_of(value) -> str:
    if isinstance(value, types.FunctionType):
        return "function"
    if isinstance(value, type):
        return "class"
    if isinstance(value, types.ModuleType):
        return "module"
    name = type(value).__name__
    return name if isinstance(name, str) else "object"


def message_of(exc: BaseException) -> str:
    try:
        return str(exc)[:MAX_MESSAGE]
    except BaseException:  # noqa: BLE001 - a student's __str__
        return "<the exception's message could not be printed>"


def describe(exc: BaseException) -> str:
    """'NameError: name 'np' is not defined'."""
    message = message_of(exc)
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__
