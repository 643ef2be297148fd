"""Loading a submission into a namespace, inside the worker, and describing its exceptions.

A module's top-level statements run in order and a demo line that raises is reported with its
`file:line` while the statements after it still run, so the functions defined below it exist.
Code is compiled with the real filename, so tracebacks show `file:line`. A notebook runs cell by
cell (see notebook.py). Tracebacks keep only the submission's own frames: students see their
code, never the grader's.

Top-level code runs under a time budget (`TimeBudget`): a statement still running when it is
spent is stopped and reported, and the statements after it still run, so a demo loop that never
ends costs nothing but a line in the report. The same clock can time notebook cells.
"""

from __future__ import annotations

import __future__
import ast
import io
import itertools
import linecache
import signal
import sys
import threading
import time
import tokenize
import traceback
import types
from dataclasses import dataclass, field
from pathlib import Path

MAX_MESSAGE = 2000  # characters of an exception message kept
SPENT_SECONDS = 1.0  # each run's limit once the whole budget is spent: defining functions is instant
_REPEAT_SECONDS = 0.05  # the alarm repeats until the code stops: `except BaseException: pass` cannot hold it


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
    budget: tuple[float, float] | None = None  # for top-level code: see TimeBudget

    @property
    def label(self) -> str:
        return self.path.name

    def names(self) -> dict[str, str]:
        """Top-level name -> kind ("function", "class", "module", or the value's type name)."""
        return {name: _kind(value) for name, value in self.namespace.items()
                if type(name) is str and not _is_dunder(name)}  # globals()[1] = ... is possible

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


def load(path: Path, source: bytes | None = None, budget: tuple[float, float] | None = None) -> Submission:
    """Run the submission at `path` (a .py module or a .ipynb notebook) and collect what it defines.

    `source`: the file's bytes, when the caller read them already (the worker reads them before
    it drops privileges: the file may sit in a folder its new user cannot open). `budget`:
    (seconds, total seconds) for top-level code, see TimeBudget; None for no limit.
    """
    submission = Submission(path if source is None else SourcePath(path, source), budget=budget)
    loader = _LOADERS.get(path.suffix.lower())
    if loader is None:
        return _unloadable(submission, "not a Python module or notebook (.py or .ipynb)")
    if source is None and not path.is_file():
        return _unloadable(submission, "file not found")
    sys.path.insert(0, str(path.parent))  # so the submission can import its own helper modules
    loader(submission)
    return submission


class SourcePath(type(Path())):
    """The submission's path, holding the bytes read before the worker dropped privileges:
    `read_bytes()` returns them, so every loader (notebook.py too) reads the file the same way,
    whoever may open the folder now. Paths derived from it (`.parent`) are plain paths again."""

    _source: bytes | None = None

    def __new__(cls, path, source: bytes):
        self = super().__new__(cls, path)
        self._source = source
        return self

    def read_bytes(self) -> bytes:
        return self._source if self._source is not None else super().read_bytes()

    def read_text(self, encoding: str | None = None, errors: str | None = None) -> str:
        return self.read_bytes().decode(encoding or "utf-8", errors or "strict")

    def is_file(self) -> bool:
        return self._source is not None or super().is_file()


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
        _remember_source(filename, source)
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
    with TimeBudget(*(submission.budget or (None, None))) as clock:
        while code is not None:
            problem, position = _run(code, module.__dict__, clock)
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


def _remember_source(filename: str, source: bytes) -> None:
    """Put the source in linecache, so tracebacks show its lines even where the worker's user may
    not open the file. An entry without a modification time is never re-read from disk."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
        lines = source.decode(encoding, "replace").splitlines(True)
    except (SyntaxError, LookupError):  # an unknown coding cookie: compile() will say so
        return
    linecache.cache[filename] = (len(source), None, lines, filename)


def _load_notebook(submission: Submission) -> None:
    from grader.worker.notebook import load_notebook  # it imports this module: loaded on first use

    if submission.budget is None:
        load_notebook(submission)
    else:
        cell_seconds, notebook_seconds = submission.budget
        load_notebook(submission, cell_seconds=cell_seconds, notebook_seconds=notebook_seconds)


_LOADERS = {".py": _load_module, ".ipynb": _load_notebook}


def _run(code, namespace: dict, clock: TimeBudget) -> tuple[str | None, tuple[int, int] | None]:
    """Execute top-level code under `clock` -> (the problem it raised or None, where in `code` it
    stopped). The position is (line, column) of the top-level instruction that was running."""
    exc, limit = clock.run(lambda: exec(code, namespace))
    if exc is None:
        return None, None
    problem = _timeout_problem(limit) if isinstance(exc, TopLevelTimeout) else _describe(exc)
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code is not code:
        tb = tb.tb_next
    if tb is None:
        return problem, None
    _line, _end, column, _end_column = next(itertools.islice(code.co_positions(), tb.tb_lasti // 2, None))
    return problem, (tb.tb_lineno, column or 0)


def _timeout_problem(limit: float) -> str:
    return (f"stopped after {limit:g} s, the grader's time limit for top-level code (the statements "
            f"after it still ran; put demos under `if __name__ == \"__main__\":`)")


class TopLevelTimeout(BaseException):
    """Raised in top-level code that ran past its limit (a BaseException: `except Exception` lets it through)."""


class TimeBudget:
    """Time limits for top-level code (a module's statements, a notebook's cells), with SIGALRM.

    Each `run(thunk)` may take `seconds`, and all runs together `total_seconds`; once that is
    spent, each run still gets SPENT_SECONDS. Code past its limit gets TopLevelTimeout; code that
    swallows it (`except BaseException: pass` in a loop) gets it again at the next alarm, and from
    then on at every line it runs, raised by a trace function: an `except` clause cannot hold it.
    Only in the main thread (signals need it) and with limits set; otherwise code runs unlimited
    and the grading side's load timeout, which kills the worker, is the only limit. So is it for
    C code that never returns to Python (a signal handler runs between bytecodes).
    """

    def __init__(self, seconds: float | None, total_seconds: float | None):
        self.seconds, self.total_seconds = seconds, total_seconds
        self.enabled = seconds is not None and threading.current_thread() is threading.main_thread()
        self._armed, self._alarms, self._limit, self._previous, self._start = False, 0, 0.0, None, 0.0
        self._tracing, self._previous_trace = False, None

    def __enter__(self) -> TimeBudget:
        self._start = time.monotonic()
        if self.enabled:
            self._previous = signal.signal(signal.SIGALRM, self._on_alarm)
        return self

    def __exit__(self, *exc_info) -> None:
        if self.enabled:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous or signal.SIG_DFL)

    def limit(self) -> float:
        """The next run's limit: `seconds`, less when the total runs out, never less than SPENT_SECONDS."""
        if self.seconds is None:
            return float("inf")
        if self.total_seconds is None:
            return self.seconds
        left = self.total_seconds - (time.monotonic() - self._start)
        return min(self.seconds, max(left, SPENT_SECONDS))

    def run(self, thunk) -> tuple[BaseException | None, float]:
        """Run `thunk` under the next limit -> (what it raised or None, the limit)."""
        limit = self._limit = self.limit()
        self._alarms = 0
        try:
            try:
                self._armed = True
                if self.enabled:
                    signal.setitimer(signal.ITIMER_REAL, limit, _REPEAT_SECONDS)
                thunk()
            finally:  # an alarm due before these lines ran is still this run's timeout
                self._armed = False
                if self._tracing:
                    sys.settrace(self._previous_trace)
                    self._tracing = False
                if self.enabled:
                    signal.setitimer(signal.ITIMER_REAL, 0)
        except BaseException as exc:  # noqa: BLE001 - sys.exit() in a demo line must not end the load
            return exc, limit
        return None, limit

    def _on_alarm(self, signum, frame) -> None:
        if not self._armed:
            return
        self._alarms += 1
        if self._alarms > 1:  # the code caught the last one
            self._trace_code(frame)
        raise TopLevelTimeout(self._limit)

    def _trace_code(self, frame) -> None:
        """From now on, raise TopLevelTimeout at every line the running code reaches."""
        if not self._tracing:
            self._previous_trace, self._tracing = sys.gettrace(), True
            sys.settrace(self._trace_call)
        while frame is not None and frame.f_code is not TimeBudget.run.__code__:
            frame.f_trace = self._trace_line
            frame = frame.f_back

    def _trace_call(self, frame, event, arg):
        return self._trace_line

    def _trace_line(self, frame, event, arg):
        if self._armed:
            raise TopLevelTimeout(self._limit)
        return None


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
