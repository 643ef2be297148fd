"""Loading a submission into a namespace, inside the worker, and describing its exceptions.

A module's top-level statements run in order and a demo line that raises is reported with its
`file:line` while the statements after it still run, so the functions defined below it exist.
Code is compiled with the real filename, so tracebacks show `file:line`. A notebook runs cell by
cell (see notebook.py). Tracebacks keep only the submission's own frames: students see their
code, never the grader's.

Top-level code runs under a time budget (top_level.py): a statement still running when it is
spent is stopped and reported, and the statements after it still run, so a demo loop that never
ends costs nothing but a line in the report. Notebook cells run under the same clock.
"""

from __future__ import annotations

import ast
import io
import itertools
import linecache
import sys
import tokenize
from pathlib import Path

from grader.worker.bound_names import bound_names, statement_code
from grader.worker.limits import DEFAULT_LIMITS
from grader.worker.loaded import FUTURE_FLAGS, Submission, describe, new_module
from grader.worker.notebook import load_notebook
from grader.worker.outcomes import LoadProblem
from grader.worker.top_level import TopLevelClock, TopLevelTimeout

TIMEOUT_PROBLEM = ("stopped after {limit:g} s, the grader's time limit for top-level code (the "
                   "statements after it still ran; put demos under `if __name__ == \"__main__\":`)")


def load(path: Path, source: bytes | None = None,
         budget: tuple[float, float] = DEFAULT_LIMITS.load_budget,
         skip: frozenset = frozenset(), setup: list | tuple | None = None) -> Submission:
    """Run the submission at `path` (a .py module or a .ipynb notebook) and collect what it defines.

    `source`: the file's bytes, when the caller read them already (the worker reads them before
    it drops privileges: the file may sit in a folder its new user cannot open). `budget`:
    (seconds per statement or cell, seconds in all) for top-level code, see top_level.py.
    `skip`: statements ("file.py:40") or cells ("cell 3") that an earlier load stopped at their
    time limit: not run again, so each costs its limit once per grading, not once per worker.
    `setup`: the course's setup code, (file name, source), run in the namespace first.
    """
    submission = Submission(path, budget=budget, skip=skip, source=source,
                            setup=tuple(setup) if setup else None)
    loader = _LOADERS.get(path.suffix.lower())
    if loader is None:
        return submission.unloadable("not a Python module or notebook (.py or .ipynb)")
    if source is None and not _is_file(path):
        return submission.unloadable("file not found")
    sys.path.insert(0, str(path.parent))  # so the submission can import its own helper modules
    loader(submission)
    return submission


def _is_file(path: Path) -> bool:
    """Path.is_file, False also where the worker's user may not look (a folder of root's)."""
    try:
        return path.is_file()
    except OSError:
        return False


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
        source = path.read_bytes() if submission.source is None else submission.source
        _remember_source(filename, source)
        code = compile(source, filename, "exec", dont_inherit=True)
    except SyntaxError as exc:
        submission.unloadable(f"SyntaxError: {exc.msg}",
                              f"{label}:{exc.lineno}" if exc.lineno else label)
        return
    except (OSError, ValueError) as exc:  # unreadable, or bytes that are not source
        submission.unloadable(f"{type(exc).__name__}: {exc}")
        return
    module = new_module(_module_name(path), filename)
    submission.namespace = module.__dict__
    submission.run_setup()
    submission.own_files[filename] = label
    statements: list[ast.stmt] | None = None
    flags = code.co_flags & FUTURE_FLAGS  # the rest compiles with the module's __future__ imports
    if submission.skip:  # statements stopped by an earlier load are left out
        statements = ast.parse(source, filename).body
        kept = [s for s in statements if f"{label}:{_first_line(s)}" not in submission.skip]
        submission.stopped += [f"{label}:{_first_line(s)}" for s in statements if s not in kept]
        statements = kept
        code = compile(ast.Module(kept, []), filename, "exec", flags=flags, dont_inherit=True)
    with TopLevelClock(*submission.budget) as clock:
        while code is not None:
            problem, position, stopped = _run(code, module.__dict__, clock)
            if problem is None:
                return
            if statements is None:
                statements = ast.parse(source, filename).body
            failed = _statement_at(statements, position)
            # cannot tell where it stopped: better skip the rest than run a line twice
            if failed is None:
                submission.problems.append(LoadProblem(label, problem))
                return
            where = f"{label}:{_first_line(statements[failed])}"
            submission.problems.append(LoadProblem(
                where, problem, bound_names(statements[failed]),
                statement_code(_text(source), statements[failed])))
            if stopped:
                submission.stopped.append(where)
            statements = statements[failed + 1 :]
            code = (compile(ast.Module(statements, []), filename, "exec", flags=flags,
                            dont_inherit=True) if statements else None)


def _remember_source(filename: str, source: bytes) -> None:
    """Put the source in linecache, so tracebacks show its lines even where the worker's user may
    not open the file. An entry without a modification time is never re-read from disk."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
        lines = source.decode(encoding, "replace").splitlines(True)
    except (SyntaxError, LookupError):  # an unknown coding cookie: compile() will say so
        return
    linecache.cache[filename] = (len(source), None, lines, filename)


def _text(source: bytes | str) -> str:
    """The source as text, for quoting a statement of it ("" when it cannot be decoded)."""
    if isinstance(source, str):
        return source
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
        return source.decode(encoding, "replace")
    except (SyntaxError, LookupError):
        return ""


_LOADERS = {".py": _load_module, ".ipynb": load_notebook}


def _run(code, namespace: dict, clock: TopLevelClock):
    """Execute top-level code under `clock` -> (the problem it raised or None, where in `code` it
    stopped, whether its time limit stopped it). The position is (line, column) of the top-level
    instruction that was running."""
    exc, limit = clock.run(lambda: exec(code, namespace))
    if exc is None:
        return None, None, False
    stopped = isinstance(exc, TopLevelTimeout)
    problem = TIMEOUT_PROBLEM.format(limit=limit) if stopped else describe(exc)
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code is not code:
        tb = tb.tb_next
    if tb is None:
        return problem, None, stopped
    _line, _end, column, _end_column = next(
        itertools.islice(code.co_positions(), tb.tb_lasti // 2, None))
    return problem, (tb.tb_lineno, column or 0), stopped


def _statement_at(statements: list[ast.stmt], position: tuple[int, int] | None) -> int | None:
    """Index of the top-level statement at `position` (line, column): the last one starting
    before it, among those holding its line (`a = 1; b = f()` is two statements on one line)."""
    if position is None:
        return None
    holding = [i for i, s in enumerate(statements) if _first_line(s) <= position[0] <= s.end_lineno]
    started = [i for i in holding
               if (_first_line(statements[i]), _start_column(statements[i])) <= position]
    return (started or holding or [None])[-1]


def _start_column(statement: ast.stmt) -> int:
    return 0 if getattr(statement, "decorator_list", None) else statement.col_offset


def _first_line(statement: ast.stmt) -> int:
    """Where a statement starts, decorators included."""
    return min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", ()))])


def _module_name(path: Path) -> str:
    """The file's stem, unless that would shadow a module the worker already uses."""
    stem = path.stem
    if stem.isidentifier() and stem not in sys.modules and stem not in sys.stdlib_module_names:
        return stem
    return "student_submission"
