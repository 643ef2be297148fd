"""Which code cells of a notebook grading runs: the marked ones, when the notebook marks any.

Marks (README, "Notebooks: the cells graded"): a `grade` or `solution` tag; nbgrader's
`solution`/`grade`/`locked` metadata; otter's `# BEGIN SOLUTION` blocks (with a master notebook's
setup outside its questions) and `otter_assign_solution_cell` tag. Otter's own cells never run
(`otter_ignore`, `"otter": {"ignore": true}`, `# BEGIN TESTS` blocks, `import otter`,
`grader.check(...)`). A notebook without marks runs whole. Read from the JSON: nothing runs here.
"""
from __future__ import annotations

import re

GRADE_TAGS = frozenset({"grade", "solution", "otter_assign_solution_cell"})
IGNORE_TAG = "otter_ignore"
NBGRADER_MARKS = ("solution", "grade", "locked")
_BOUNDARY = re.compile(r"#\s+(begin|end)\s+(question|solution|tests|prompt)\b", re.IGNORECASE)
_OTTER_CLIENT = re.compile(r"(?:import\s+otter|from\s+otter\s+import\s+.*|\w+\s*=\s*otter\."
                           r"Notebook\(.*\)|grader\.\w+\(.*\))\s*(?:#.*)?")


def selection(cells: list[dict], runnable: list[bool]) -> tuple[list[bool], str | None]:
    """(for each cell of `cells`: whether grading runs it, a one-line note for the report or
    None); `runnable`: the cells that are code cells holding code."""
    otter_master = any(_boundary(cell) is not None for cell in cells)
    marked, never, setup = [], [], []
    question = solution = tests = False
    for cell, code in zip(cells, runnable, strict=True):
        boundary = _boundary(cell)
        if boundary is not None:
            begin, block = boundary
            question = begin if block == "question" else question
            solution = begin if block == "solution" else solution
            tests = begin if block == "tests" else tests
        metadata = cell.get("metadata") if isinstance(cell.get("metadata"), dict) else {}
        marked.append(code and (solution or _is_marked(metadata)))
        never.append(code and (tests or _ignored(metadata, cell)))
        setup.append(code and otter_master and not question)
    tagged = any(m and not n for m, n in zip(marked, never, strict=True))
    run = [code and not n and (not tagged or m or s)
           for code, m, n, s in zip(runnable, marked, never, setup, strict=True)]
    total, ran = sum(runnable), sum(run)
    if ran == total:
        return run, None
    if tagged:
        return run, (f"graded {ran} of {total} code cells: the notebook marks the cells to "
                     f"grade; {_others(total - ran)} not run")
    return run, (f"ran {ran} of {total} code cells; the {total - ran} cell(s) of otter's own "
                 "(otter_ignore, tests, `grader.check`) were not run")


def _is_marked(metadata: dict) -> bool:
    tags = metadata.get("tags")
    if isinstance(tags, list) and GRADE_TAGS.intersection(t for t in tags if isinstance(t, str)):
        return True
    nbgrader = metadata.get("nbgrader")
    return isinstance(nbgrader, dict) and any(nbgrader.get(k) is True for k in NBGRADER_MARKS)


def _ignored(metadata: dict, cell: dict) -> bool:
    tags = metadata.get("tags")
    otter = metadata.get("otter")
    if (isinstance(tags, list) and IGNORE_TAG in tags) or (
            isinstance(otter, dict) and otter.get("ignore") is True):
        return True
    lines = [line.strip() for line in _source(cell).splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]
    return bool(lines) and all(_OTTER_CLIENT.fullmatch(line) for line in lines)


def _boundary(cell: dict) -> tuple[bool, str] | None:
    """(begin?, block) of an otter boundary cell: a raw cell, or markdown fenced as ```otter."""
    source = _source(cell).strip()
    if cell.get("cell_type") == "markdown" and source.startswith("```otter"):
        source = source.removeprefix("```otter").removesuffix("```").strip()
    elif cell.get("cell_type") != "raw":
        return None
    found = _BOUNDARY.match(source)
    return (found[1].lower() == "begin", found[2].lower()) if found else None


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _others(count: int) -> str:
    return "the other one was" if count == 1 else f"the {count} others were"
