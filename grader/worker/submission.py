"""Loading a submission into a namespace, inside the worker, and describing its exceptions.

A module's top-level statements run in order and a demo line that raises is reported with its
`file:line` while the statements after it still run, so the functions defined below it exist.
Code is compiled with the real filename, so tracebacks show `file:line`. A notebook runs cell by
cell (see notebook.py). Tracebacks keep only the submission's own frames: students see their
code, never the grader's.
"""

from __future__ import annotations

import __future__
import ast
import itertools
import linecache
import sys
import traceback
import types
from dataclasses import dataclass, field
from pathlib import Path

MAX_MESSAGE = 2000  # characters of an exception message kept


@dataclass(frozen=True)
class Problem:
    where: str  # "vit_exercises.py:12", "cell 7" or the file name
    message: str  # "NameError: name 'np' is not defined"


@dataclass
class Submission:
    """A loaded submission as the worker sees it: its namespace and which code is its own."""

    path: Path
    namespace: dict = field(default_factory=dict)
    ok: bool = True  # False when nothing could be loaded
    problems: list[Problem] = field(default_factory=list)
    own_files: dict[str, str] = field(default_factory=dict)  # compiled filename -> shown name

    @property
    def label(self) -> str:
        return self.path.name

    def names(self) -> dict[str, str]:
        """Top-level name -> kind ("function", "class", "module", or the value's type name)."""
        return {name: _kind(value) for name, value in self.namespace.items() if not _is_dunder(name)}

    def describe_error(self, exc: BaseException) -> dict:
        """type, message, traceback (own frames only) and where (innermost own frame) of `exc`."""
        lines, where = [], None
        for frame, lineno in traceback.walk_tb(exc.__traceback__):
            shown = self.own_files.get(frame.f_code.co_filename)
            if shown is None:
                continue
            source = linecache.getline(frame.f_code.co_filename, lineno).strip()
            lines.append(f'  File "{shown}", line {lineno}, in {frame.f_code.co_name}\n')
            if source:
                lines.append(f"    {source}\n")
            where = f"{shown}:{lineno}"
        traceback_text = "".join(lines)
        return {"type": type(exc).__name__, "message": _message(exc), "traceback": traceback_text, "where": where}


def load(path: Path) -> Submission:
    """Run the submission at `path` (a .py module or a .ipynb notebook) and collect what it defines."""
    submission = Submission(path)
    loader = _LOADERS.get(path.suffix.lower())
    if loader is None:
        return _unloadable(submission, "not a Python module or notebook (.py or .ipynb)")
    if not path.is_file():
        return _unloadable(submission, "file not found")
    sys.path.insert(0, str(path.parent))  # so the submission can import its own helper modules
    loader(submission)
    return submission


def _load_module(submission: Submission) -> None:
    """Run the module's top level; after a statement that raises, go on with the next one.

    The module is compiled whole (a SyntaxError anywhere: nothing loads, as with `import`) and
    run at once. Only when a statement raises is the source split into top-level statements, and
    the ones after the failing statement compiled and run the same way. Compiling statement by
    statement from the start gives the same result but compiles ~5x slower (7 ms instead of
    1.2 ms for a 130-line file), paid at every worker start.
    """
    path, label = submission.path, submission.label
    filename = str(path)
    try:
        source = path.read_bytes()
        code = compile(source, filename, "exec", dont_inherit=True)
    except SyntaxError as exc:
        _unloadable(submission, f"SyntaxError: {exc.msg}", f"{label}:{exc.lineno}" if exc.lineno else label)
        return
    except (OSError, ValueError) as exc:  # unreadable, or bytes that are not source
        _unloadable(submission, f"{type(exc).__name__}: {exc}")
        return
    module = _new_module(_module_name(path), filename)
    submission.namespace = module.__dict__
    submission.own_files[filename] = label
    statements: list[ast.stmt] | None = None
    while code is not None:
        problem, position = _run(code, module.__dict__)
        if problem is None:
            return
        if statements is None:
            tree = ast.parse(source, filename)
            statements, flags = tree.body, _future_flags(tree)
        failed = _statement_at(statements, position)
        if failed is None:  # cannot tell where it stopped: better skip the rest than run a line twice
            submission.problems.append(Problem(label, problem))
            return
        submission.problems.append(Problem(f"{label}:{_first_line(statements[failed])}", problem))
        statements = statements[failed + 1 :]
        rest = ast.Module(statements, [])
        code = compile(rest, filename, "exec", flags=flags, dont_inherit=True) if statements else None


def _load_notebook(submission: Submission) -> None:
    from grader.worker.notebook import load_notebook  # it imports this module: loaded on first use

    load_notebook(submission)


_LOADERS = {".py": _load_module, ".ipynb": _load_notebook}


def _run(code, namespace: dict) -> tuple[str | None, tuple[int, int] | None]:
    """Execute top-level code -> (the problem it raised or None, where in `code` it stopped).

    The position is (line, column) of the top-level instruction that was running. A time budget
    for top-level code (hardening) belongs here.
    """
    try:
        exec(code, namespace)
    except BaseException as exc:  # noqa: BLE001 - sys.exit() in a demo line must not end the load
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code is not code:
            tb = tb.tb_next
        if tb is None:
            return _describe(exc), None
        _line, _end, column, _end_column = next(itertools.islice(code.co_positions(), tb.tb_lasti // 2, None))
        return _describe(exc), (tb.tb_lineno, column or 0)
    return None, None


def _describe(exc: BaseException) -> str:
    message = _message(exc)
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def _statement_at(statements: list[ast.stmt], position: tuple[int, int] | None) -> int | None:
    """Index of the top-level statement at `position` (line, column): the last one starting
    before it, among those holding its line (`a = 1; b = f()` is two statements on one line)."""
    if position is None:
        return None
    holding = [i for i, s in enumerate(statements) if _first_line(s) <= position[0] <= s.end_lineno]
    started = [i for i in holding if (_first_line(statements[i]), _start_column(statements[i])) <= position]
    return (started or holding or [None])[-1]


def _start_column(statement: ast.stmt) -> int:
    return 0 if getattr(statement, "decorator_list", None) else statement.col_offset


def _first_line(statement: ast.stmt) -> int:
    """Where a statement starts, decorators included."""
    return min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", ()))])


def _unloadable(submission: Submission, message: str, where: str | None = None) -> Submission:
    submission.ok = False
    submission.problems.append(Problem(where or submission.label, message))
    return submission


def _new_module(name: str, filename: str) -> types.ModuleType:
    """A module registered in sys.modules while (and after) it runs, as `import` would do."""
    module = types.ModuleType(name)
    module.__file__ = filename
    sys.modules[name] = module
    return module


def _module_name(path: Path) -> str:
    """The file's stem, unless that would shadow a module the worker already uses."""
    stem = path.stem
    if stem.isidentifier() and stem not in sys.modules and stem not in sys.stdlib_module_names:
        return stem
    return "student_submission"


def _future_flags(tree: ast.Module) -> int:
    """Compiler flags of the module's `from __future__ import ...`, for compiling the rest of it."""
    flags = 0
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom) and statement.module == "__future__":
            for alias in statement.names:
                flags |= getattr(__future__, alias.name).compiler_flag
    return flags


def _kind(value) -> str:
    if isinstance(value, types.FunctionType):
        return "function"
    if isinstance(value, type):
        return "class"
    if isinstance(value, types.ModuleType):
        return "module"
    name = type(value).__name__
    return name if isinstance(name, str) else "object"


def _is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def _message(exc: BaseException) -> str:
    try:
        return str(exc)[:MAX_MESSAGE]
    except BaseException:  # noqa: BLE001 - a student's __str__
        return "<the exception's message could not be printed>"
