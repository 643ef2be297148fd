"""Student versions of the solutions, from nbgrader's markers: solutions are written once.

In a solution module (.py) or notebook (.ipynb), markers are whole comment lines:

    ### BEGIN SOLUTION ... ### END SOLUTION
        The answer. It becomes `# YOUR CODE HERE` and `raise NotImplementedError()`, indented
        as the BEGIN line (nbgrader's stub). At the top level of a module or a cell (no
        indentation) it becomes `# YOUR CODE HERE` alone: a raise there would stop the module,
        or fail the cell, before the code after it.
    ### BEGIN HIDDEN TESTS ... ### END HIDDEN TESTS
        Instructor-only lines (nbgrader's marker for what students must not see): removed.
        A notebook cell left with no code is an instructor-only cell, and is dropped.

Notebooks also lose their outputs and execution counts; markdown cells are kept as written.
Markers that do not pair up (an END without its BEGIN, a region opened inside another, a
region never closed) refuse the file, naming the file, the cell (numbered as the grader
numbers cells: the N-th code cell that holds code, with its first line) and the line.

A module and the notebook of the same name beside it (vit_exercises.py, vit_exercises.ipynb)
are one assignment twice: `drift` says what top-level functions and ANSWERS keys one defines
and the other lacks.
"""
from __future__ import annotations

import ast
import json
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

SUFFIXES = (".py", ".ipynb")
STUB = "# YOUR CODE HERE"
RAISE = "raise NotImplementedError()"
SOLUTION = "SOLUTION"
_MARKER = re.compile(r"^(?P<indent>[ \t]*)#+[ \t]*(?P<edge>BEGIN|END)[ \t]+"
                     r"(?P<kind>SOLUTION|HIDDEN TESTS)[ \t]*$")
_TIMING_METADATA = ("execution", "ExecuteTime")  # JupyterLab's and the ExecuteTime extension's


class AssignError(ValueError):
    """A solution that cannot be turned into a student version; the message names the file."""


class MarkerError(AssignError):
    """Markers that do not pair up; the message names the file, the cell and the line."""


@dataclass(frozen=True)
class StudentVersion:
    source: Path
    target: Path
    text: str
    regions: int  # solution regions replaced
    dropped_cells: int = 0  # instructor-only notebook cells


def assign(source: str | Path, target: str | Path) -> list[StudentVersion]:
    """The student version of every solution in `source` (a folder or one file), for `target`
    (a folder); AssignError (MarkerError: unpaired markers) for the first file that cannot be."""
    source, target = Path(source), Path(target)
    files = [source] if source.is_file() else sorted(
        p for p in source.iterdir() if p.suffix in SUFFIXES and p.is_file())
    return [student_version(path, target / path.name) for path in files]


def student_version(path: Path, target: Path) -> StudentVersion:
    text = path.read_text(encoding="utf-8")
    shown = str(path)
    if path.suffix == ".ipynb":
        text, regions, dropped = student_notebook(text, shown)
        return StudentVersion(path, target, text, regions, dropped)
    lines, regions, _hidden = student_lines(text.splitlines(True), lambda line: f"{shown}:{line}")
    return StudentVersion(path, target, "".join(lines), regions)


def student_lines(lines: list[str], where) -> tuple[list[str], int, bool]:
    """(the lines with solutions stubbed and hidden lines removed, solution regions, any hidden
    region).

    `where(line_number)` says where a line is, for MarkerError.
    """
    out, regions, hidden = [], 0, False
    open_at = None  # (kind, line number) of the open region
    for number, line in enumerate(lines, start=1):
        marker = _MARKER.match(line.rstrip("\r\n"))
        if marker is None:
            if open_at is None:
                out.append(line)
            continue
        kind, edge = marker["kind"], marker["edge"]
        if edge == "BEGIN":
            if open_at is not None:
                raise MarkerError(f"{where(number)}: `### BEGIN {kind}` inside the {open_at[0]} "
                                  f"region opened at line {open_at[1]} (regions cannot nest; "
                                  f"close it with `### END {open_at[0]}` first)")
            open_at = (kind, number)
            if kind == SOLUTION:
                regions += 1
                indent = marker["indent"]
                out += [f"{indent}{STUB}\n"] + ([f"{indent}{RAISE}\n"] if indent else [])
            else:
                hidden = True
        elif open_at is None or open_at[0] != kind:
            opened = (f"; the {open_at[0]} region opened at line {open_at[1]} is still open"
                      if open_at else "")
            raise MarkerError(f"{where(number)}: `### END {kind}` without a `### BEGIN {kind}` "
                              f"before it{opened}")
        else:
            open_at = None
    if open_at is not None:
        raise MarkerError(f"{where(open_at[1])}: `### BEGIN {open_at[0]}` is never closed "
                          f"(`### END {open_at[0]}` is missing)")
    return out, regions, hidden


def student_notebook(text: str, shown: str) -> tuple[str, int, int]:
    """(the student notebook as JSON text, solution regions, instructor-only cells dropped)."""
    import nbformat

    from grader.worker.notebook import cell_title

    data = _notebook_json(text, shown)
    if not isinstance(data, dict):
        raise AssignError(f"{shown}: not a notebook (a notebook is a JSON object)")
    if data.get("nbformat") == 4 and data.get("nbformat_minor", 0) >= 5:
        for index, cell in enumerate(data.get("cells", [])):
            # nbformat would invent a random one: templates must be reproducible
            cell.setdefault("id", f"cell-{index}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        notebook = nbformat.reads(json.dumps(data), as_version=4)
    cells, regions, dropped, number = [], 0, 0, 0
    for cell in notebook.cells:
        if cell.cell_type != "code":
            cells.append(cell)
            continue
        source = cell.source
        number += 1 if source.strip() else 0
        title = cell_title(number, source)
        lines, found, hidden = student_lines(source.splitlines(True),
                                             lambda line, t=title: f"{shown}, {t}, line {line}")
        regions += found
        student = "".join(lines)
        if not source.endswith("\n"):
            student = student.removesuffix("\n")
        if hidden and not student.strip():
            dropped += 1
            continue
        cell.source = student
        cell.outputs, cell.execution_count = [], None
        for key in _TIMING_METADATA:
            cell.metadata.pop(key, None)
        cells.append(cell)
    notebook.cells = cells
    return nbformat.writes(notebook) + "\n", regions, dropped


def drift(folder: str | Path) -> list[str]:
    """One message per module in `folder` and its same-named notebook that define different names.

    Names are the top-level functions and the ANSWERS keys (`ANSWERS = {...}`, `dict(...)` or
    `ANSWERS[key] = ...`). Raises AssignError for a file whose code does not parse.
    """
    folder = Path(folder)
    if not folder.is_dir():
        return []
    problems = []
    for module in sorted(folder.glob("*.py")):
        notebook = module.with_suffix(".ipynb")
        if not notebook.is_file():
            continue
        names = {path: defined_names(path) for path in (module, notebook)}
        for path, other in ((notebook, module), (module, notebook)):
            missing = sorted(names[other] - names[path])
            if missing:
                problems.append(f"{path}: lacks {', '.join(missing)}, which {other.name} defines "
                                f"(the module and the notebook must define the same names)")
    return problems


def defined_names(path: Path) -> set[str]:
    """`function NAME` for each top-level function and `ANSWERS["KEY"]` for each answer key."""
    text = path.read_text(encoding="utf-8")
    source = notebook_code(text, str(path)) if path.suffix == ".ipynb" else text
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise AssignError(f"{path}: cannot compare with its module or notebook: {exc.msg} "
                          f"(line {exc.lineno} of its code)") from None
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(f"function {node.name}")
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names |= {f'ANSWERS["{key}"]' for key in _answer_keys(target, node.value)}
    return names


def _answer_keys(target: ast.expr, value: ast.expr | None) -> list[str]:
    if isinstance(target, ast.Name) and target.id == "ANSWERS":
        if isinstance(value, ast.Dict):
            return [k.value for k in value.keys
                    if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "dict":
            return [k.arg for k in value.keywords if k.arg]
    if (isinstance(target, ast.Subscript) and getattr(target.value, "id", None) == "ANSWERS"
            and isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str)):
        return [target.slice.value]
    return []


def notebook_code(text: str, shown: str) -> str:
    """The code cells of a notebook joined, without IPython magics and shell lines."""
    data = _notebook_json(text, shown)
    cells = data.get("cells", []) if isinstance(data, dict) else []
    sources = []
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        if source.lstrip().startswith("%%"):  # a cell magic: the whole cell is not Python
            continue
        sources.append("\n".join(line for line in source.splitlines()
                                  if not line.lstrip().startswith(("%", "!"))))
    return "\n\n".join(sources) + "\n"


def _notebook_json(text: str, shown: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise AssignError(f"{shown}: not a notebook (invalid JSON at line {exc.lineno}: "
                          f"{exc.msg})") from None
