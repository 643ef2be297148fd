"""Running a notebook in the worker: read it, then run its code cells top to bottom in one
namespace.

A notebook runs as Jupyter's "Restart & Run All" would: one `__main__` namespace, cells in order,
and a cell that raises (or runs past its time limit) is reported while the cells after it still
run. Problems name the cell as students see it: "cell N" is the N-th code cell that holds code,
the number Jupyter shows as `[N]` after Restart & Run All, followed by the cell's first line:
"cell 7 (`plt.plot(x)`)". Tracebacks say `File "cell 7", line 3`. A notebook that marks the
cells to grade (a `grade` tag, nbgrader's or otter's marks: cell_tags.py) runs only those.

IPython syntax (`%magic`, `!shell`, `name?`) goes through IPython's own transformer, and
`get_ipython()` is a stand-in (IPythonStandIn); without IPython those lines are skipped, and the
report says so. A version 4 notebook's cells are read from its JSON directly; nbformat is imported
only to upgrade an older one or to explain one that cannot be run. As Jupyter opens a notebook
that fails its schema with a warning, the grader runs any notebook whose cells it can read.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import functools
import json
import linecache
import re
import sys
import traceback
import warnings
from dataclasses import dataclass
from pathlib import Path

from grader.worker.bound_names import bound_names, statement_code
from grader.worker.cell_tags import selection
from grader.worker.loaded import FUTURE_FLAGS, Submission, describe, new_module
from grader.worker.outcomes import LoadProblem
from grader.worker.top_level import TopLevelClock, TopLevelTimeout

FIRST_LINE_CHARS = 40

RUNNING = False  # True while a notebook loads: `check()` in a graded notebook then does nothing

# Patterns are compiled on first use (re caches them): a notebook without IPython syntax,
# the usual case, never pays for them.
# Lines that may be IPython syntax: only those cells go through the transformer.
_MAYBE_IPYTHON = r"(?m)^[ \t]*(?:[%!?]|>>>)|\?[ \t]*$|=[ \t]*[%!]"
# Without IPython, the lines skipped: magics, shell commands, `?` help, `x = !cmd` / `x = %magic`.
_IPYTHON_LINE = (r"^[ \t]*(?:[%!?]|[\w.]+\?\??[ \t]*$"
                 r"|[\w.]+(?:[ \t]*,[ \t]*[\w.]+)*[ \t]*=[ \t]*[%!])")
_TIMEIT_OPTIONS = r"^\s*(?:(?:-[nrp]\s*\S+|-[tcqo]+)\s+)*"


class NotANotebook(ValueError):
    """The file cannot be run as a notebook; the message says why, for the student."""


@dataclass(frozen=True)
class Cell:
    number: int  # among the code cells that hold code: Jupyter's [N] after Restart & Run All
    source: str
    graded: bool = True  # False: not run (the notebook marks other cells to grade: cell_tags.py)

    @property
    def label(self) -> str:
        return f"cell {self.number}"

    @property
    def shown(self) -> str:
        """'cell 7 (`plt.plot(x)`)': the number, and the first line to find the cell by."""
        return cell_title(self.number, self.source)


def cell_title(number: int, source: str) -> str:
    first = next((line.strip() for line in source.splitlines() if line.strip()), "")
    if len(first) > FIRST_LINE_CHARS:
        first = first[: FIRST_LINE_CHARS - 3] + "..."
    return f"cell {number} (`{first}`)"


def load_notebook(submission: Submission, *, ipython: bool = True) -> None:
    """Run the notebook at `submission.path` into a fresh `__main__`, each cell under
    `submission.budget` (top_level.py); problems go to `submission`."""
    global RUNNING
    try:
        cells = read_cells(submission.path, submission.source, submission.notes)
    except NotANotebook as exc:
        submission.unloadable(str(exc))
        return
    # Jupyter runs a notebook as __main__; dataclasses look their module up there.
    module = new_module("__main__", str(submission.path))
    namespace = submission.namespace = module.__dict__
    shell = IPythonStandIn(namespace)
    namespace["__builtins__"] = {**builtins.__dict__, "get_ipython": shell.get_ipython,
                                 "display": _nothing}  # outputs are not graded: nothing shown
    submission.run_setup()
    # loaded on first use
    transformer = functools.cache(ipython_transformer) if ipython else lambda: None
    flags = 0  # `from __future__` imports last for the rest of the notebook, as in IPython
    RUNNING = True
    try:
        with TopLevelClock(*submission.budget) as clock:
            for cell in cells:
                if not cell.graded:
                    continue
                if cell.label in submission.skip:  # stopped by an earlier load: not run again
                    submission.stopped.append(cell.label)
                    continue
                flags = _run_cell(cell, submission, shell, transformer, clock, flags)
    finally:
        RUNNING = False


def read_cells(path: Path, source: bytes | None = None, notes: list[str] | None = None
               ) -> list[Cell]:
    """The code cells that hold code, numbered, each `graded` or not (cell_tags.py; its note
    added to `notes`) (`source`: the file's bytes, if read already); NotANotebook when there are
    none to run."""
    try:
        # an editor's byte order mark is no reason to fail
        text = (path.read_bytes() if source is None else source).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise NotANotebook("not a notebook: the file is not text "
                           "(a notebook is JSON saved as UTF-8)") from None
    except OSError as exc:
        raise NotANotebook(f"the notebook could not be read ({exc.strerror or exc})") from None
    if not text.strip():
        raise NotANotebook("not a notebook: the file is empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        message = (f"not a notebook: the file is not valid JSON ({exc.msg} at line {exc.lineno}, "
                   f"column {exc.colno})")
        try:
            compile(text, "<submission>", "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            raise NotANotebook(message) from None
        raise NotANotebook(message + "; it looks like Python code: save it as a .py file, "
                           "or save the notebook from Jupyter") from None
    except RecursionError:  # valid JSON, but lists or objects nested deeper than the stack
        raise NotANotebook("not a notebook the grader can read: its JSON is nested too "
                           "deeply (save it again from Jupyter)") from None
    if not isinstance(data, dict) or "nbformat" not in data:
        raise NotANotebook("not a notebook: the file is JSON, but a notebook is a JSON object with "
                           "`cells` and an `nbformat` version")
    cells = _v4_cells(data) if data.get("nbformat") == 4 else None
    if cells is None:
        cells = _cells_with_nbformat(data)
    if not cells:
        raise NotANotebook("the notebook is empty: it has no cells")
    # a cell's source is a string or a list of strings (_v4_cells): "".join reads both
    sources = ["".join(cell.get("source", "")) for cell in cells]
    runnable = [cell.get("cell_type") == "code" and bool(source.strip())
                for cell, source in zip(cells, sources, strict=True)]
    if not any(runnable):
        raise NotANotebook(f"the notebook has no code: its {len(cells)} cell(s) are markdown "
                           f"or empty code cells")
    graded, note = selection(cells, runnable)
    if note and notes is not None:
        notes.append(note)
    code = [(source, run) for source, run, code in zip(sources, graded, runnable, strict=True)
            if code]
    return [Cell(number, source, run) for number, (source, run) in enumerate(code, start=1)]


def _v4_cells(data: dict) -> list[dict] | None:
    """The cells of a version 4 notebook, read as nbformat.v4 reads them; None if malformed."""
    cells = data.get("cells")
    if not isinstance(cells, list):
        return None
    for cell in cells:
        if not isinstance(cell, dict) or not isinstance(cell.get("cell_type"), str):
            return None
        source = cell.get("source")
        if not (isinstance(source, str)
                or (isinstance(source, list) and all(isinstance(s, str) for s in source))):
            return None
    return cells


def _cells_with_nbformat(data: dict) -> list[dict]:
    """An older notebook upgraded to version 4 by nbformat, or NotANotebook saying what is wrong."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import nbformat

        version = data.get("nbformat")
        if version not in nbformat.versions:
            raise NotANotebook(f"not a notebook the grader can read: nbformat version "
                               f"{version!r} is not supported")
        if version == 4:  # its cells could not be read: say what nbformat's schema finds wrong
            raise NotANotebook("not a valid notebook: " + (
                "it has no list of `cells`" if not isinstance(data.get("cells"), list)
                else _schema_problem(nbformat, nbformat.from_dict(data))))
        try:
            notebook = nbformat.versions[version].to_notebook_json(
                data, minor=data.get("nbformat_minor", 0))
            notebook = nbformat.convert(notebook, 4)
        except Exception as exc:  # noqa: BLE001 - nbformat's many ways of refusing a file
            raise NotANotebook(f"not a valid notebook: nbformat could not read it "
                               f"({_first_line(exc)})") from None
        cells = _v4_cells(notebook)
        if cells is None:
            raise NotANotebook(f"not a valid notebook: {_schema_problem(nbformat, notebook)}")
        return cells


def _schema_problem(nbformat, notebook) -> str:
    try:
        nbformat.validate(notebook)
    except nbformat.ValidationError as exc:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}"
                        for p in getattr(exc, "absolute_path", ()))
        return f"{_first_line(exc)}" + (f" (at {where.lstrip('.')})" if where else "")
    except Exception as exc:  # noqa: BLE001
        return _first_line(exc)
    return "its cells cannot be read"


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "message", "") or exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__


# -- running one cell ---------------------------------------------------------------------------


def _run_cell(cell: Cell, submission: Submission, shell: IPythonStandIn, transformer,
              clock: TopLevelClock, flags: int) -> int:
    """Run one cell, its problems added to `submission` -> the compiler flags for the next cells."""
    filename = f"<{cell.label}>"
    linecache.cache[filename] = (len(cell.source), None, cell.source.splitlines(True), filename)
    submission.own_files[filename] = cell.label
    source, skipped = python_source(cell.source, transformer)
    problems = submission.problems
    if skipped:
        shown = ", ".join(f"`{line}`" for line in skipped[:2]) + (
            f" and {len(skipped) - 2} more" if len(skipped) > 2 else "")
        problems.append(LoadProblem(cell.shown,
                                f"skipped IPython syntax (IPython is not installed): {shown}"))
    try:
        code = compile(source, filename, "exec", flags=flags, dont_inherit=True)
    except SyntaxError as exc:
        problems.append(LoadProblem(cell.shown, f"SyntaxError: {exc.msg} (line {exc.lineno})"))
        return flags
    except ValueError as exc:  # e.g. a NUL byte in the source
        problems.append(LoadProblem(cell.shown, f"{type(exc).__name__}: {exc}"))
        return flags
    shell.filename, shell.flags = filename, flags | (code.co_flags & FUTURE_FLAGS)
    error, limit = clock.run(lambda: exec(code, submission.namespace))
    # Figures are never shown while grading; closing them keeps a plotting loop from filling
    # memory, and a student's matplotlib state must not stop the notebook.
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        with contextlib.suppress(Exception):
            pyplot.close("all")
    if isinstance(error, TopLevelTimeout):
        submission.stopped.append(cell.label)
    if error is not None:
        message = (f"stopped after {limit:.2g} s, the grader's time limit for one cell"
                   if isinstance(error, TopLevelTimeout) else describe(error))
        lines = [lineno for frame, lineno in traceback.walk_tb(error.__traceback__)
                 if frame.f_code.co_filename == filename]
        if lines and len(cell.source.strip().splitlines()) > 1:
            message += f" (line {lines[-1]})"
        failed = _statement(source, lines[0]) if lines else None  # the cell's own frame
        problems.append(LoadProblem(cell.shown, message) if failed is None else LoadProblem(
            cell.shown, message, bound_names(failed), statement_code(source, failed)))
    return shell.flags


def _statement(source: str, line: int) -> ast.stmt | None:
    """The cell's top-level statement that holds `line`, or None."""
    try:
        body = ast.parse(source).body
    except Exception:  # noqa: BLE001 - it compiled once; nothing to say otherwise
        return None
    return next((s for s in body if s.lineno <= line <= (s.end_lineno or s.lineno)), None)


# -- IPython syntax -------------------------------------------------------------------------------


def python_source(source: str, transformer) -> tuple[str, list[str]]:
    """The cell as Python with its line numbers kept, and the IPython lines skipped (no IPython).

    `transformer()` gives IPython's TransformerManager, or None without IPython.
    """
    if not any(mark in source for mark in "%!?>") or not re.search(_MAYBE_IPYTHON, source):
        return source, []
    transformer = transformer()
    if transformer is None:
        return _skip_ipython(source)
    lines = source.splitlines(True)
    blank = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    try:  # IPython drops leading blank lines: put them back so line numbers match the cell
        return "\n" * blank + transformer.transform_cell("".join(lines[blank:])), []
    except Exception:  # noqa: BLE001 - let compile() report what IPython could not read
        return source, []


def _skip_ipython(source: str) -> tuple[str, list[str]]:
    """Without IPython: IPython lines become `pass`; a %%time / %%capture cell keeps its code."""
    lines = source.splitlines(True)
    skipped = []
    first = next((i for i, line in enumerate(lines) if line.strip()), 0)
    if lines and lines[first].lstrip().startswith("%%"):
        skipped.append(lines[first].strip())
        if lines[first].strip()[2:].split()[0:1] not in (["time"], ["capture"]):
            return "", skipped
        lines[first] = "\n"
    for index, line in enumerate(lines):
        if re.match(_IPYTHON_LINE, line):
            skipped.append(line.strip())
            indent = line[: len(line) - len(line.lstrip())]
            lines[index] = indent + "pass\n"
    return "".join(lines), skipped


def ipython_transformer():
    """IPython's TransformerManager, or None without IPython.

    Its module uses the standard library only, so it is loaded from IPython's folder without
    running `import IPython` (half a second: the terminal, jedi, prompt_toolkit).
    """
    import importlib.util

    try:
        spec = importlib.util.find_spec("IPython")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "core" / "inputtransformer2.py"
    try:
        module_spec = importlib.util.spec_from_file_location("_vitgrade_inputtransformer2", path)
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
        return module.TransformerManager()
    except Exception:  # noqa: BLE001 - a future IPython may need its package: import it properly
        try:
            from IPython.core.inputtransformer2 import TransformerManager
        except Exception:  # noqa: BLE001
            return None
        return TransformerManager()


class IPythonStandIn:
    """What `get_ipython()` returns while the grader runs a notebook.

    Magics and shell commands do nothing (nothing is installed, shown or run in a shell: `system`
    and any other method not defined here return None), except those whose code Jupyter runs in
    the notebook: `%time` and `%%time`, `%%capture`; `%timeit` and `%%timeit` run once in a copy
    of the namespace, as what they define does not outlive the cell in Jupyter either.
    """

    def __init__(self, namespace: dict):
        self.user_ns = namespace
        self.filename = "<cell>"  # of the cell running now, for line numbers of magic code
        self.flags = 0

    def get_ipython(self) -> IPythonStandIn:
        return self

    def run_line_magic(self, magic_name: str, line: str, _stack_depth: int = 1):
        if magic_name == "time":
            return self._run(line, self.user_ns, self._line() - 1)
        if magic_name == "timeit":
            self._run(re.sub(_TIMEIT_OPTIONS, "", line, count=1), dict(self.user_ns),
                      self._line() - 1)
        return None

    def run_cell_magic(self, magic_name: str, line: str, cell: str):
        if magic_name in ("time", "capture"):
            self._run(cell, self.user_ns, self._line())
        elif magic_name == "timeit":
            scope = dict(self.user_ns)
            self._run(re.sub(_TIMEIT_OPTIONS, "", line, count=1), scope, self._line() - 1)
            self._run(cell, scope, self._line())
        return None

    def getoutput(self, cmd: str, split: bool = True) -> list:
        return []

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return _nothing

    def _run(self, source: str, namespace: dict, offset: int):
        """Run magic code as part of the cell: same file name, lines where they are in the cell."""
        padded = "\n" * max(offset, 0) + source
        try:
            expression = compile(padded, self.filename, "eval", flags=self.flags, dont_inherit=True)
        except SyntaxError:
            exec(compile(padded, self.filename, "exec", flags=self.flags, dont_inherit=True),
                 namespace)
            return None
        return eval(expression, namespace)

    def _line(self) -> int:
        """The line of the running cell that called the magic."""
        frame = sys._getframe(1)
        while frame is not None and frame.f_code.co_filename != self.filename:
            frame = frame.f_back
        return frame.f_lineno if frame is not None else 1


def _nothing(*args, **kwargs) -> None:
    return None
