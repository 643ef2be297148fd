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
"""
from __future__ import annotations

import json
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

SUFFIXES = (".py", ".ipynb")
STUB = "# YOUR CODE HERE"
RAISE = "raise NotImplementedError()"
SOLUTION, HIDDEN = "SOLUTION", "HIDDEN TESTS"
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
    (a folder).

    Nothing is written: see `write`. Raises AssignError (MarkerError for unpaired markers) for
    the first file that cannot be turned into a student version.
    """
    source, target = Path(source), Path(target)
    files = [source] if source.is_file() else sorted(
        p for p in source.iterdir() if p.suffix in SUFFIXES and p.is_file())
    return [student_version(path, target / path.name) for path in files]


def write(versions: list[StudentVersion]) -> None:
    for version in versions:
        version.target.parent.mkdir(parents=True, exist_ok=True)
        version.target.write_text(version.text, encoding="utf-8")


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

    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AssignError(f"{shown}: not a notebook "
                          f"(invalid JSON at line {exc.lineno}: {exc.msg})") from None
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
