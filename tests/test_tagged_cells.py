"""Grading only the cells a notebook marks (grader/worker/cell_tags.py): a `grade`/`solution` tag,
nbgrader's metadata, otter-grader's conventions. Untagged notebooks are graded whole.

The notebooks are the course's solution (solutions/vit_exercises.py) split into cells, next to a
student's experiment that would sleep 60 s or raise; whether it ran is read from a file it writes
first (a marked cell writes another, so a worker that could not write would not pass unseen).
"""
from __future__ import annotations

import ast
import json
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from grader.worker.cell_tags import selection
from grader.worker.notebook import read_cells

from conftest import EXERCISES, SOLUTION


def solution_cells() -> list[str]:
    """The solution's code, one cell per top-level statement group (imports, each def, ...)."""
    source = SOLUTION.read_text()
    lines = source.splitlines(True)
    body = ast.parse(source).body[1:]  # the module docstring stays out
    cells = ["".join(lines[s.lineno - 1: s.end_lineno]) for s in body]
    is_import = [isinstance(s, ast.Import | ast.ImportFrom) for s in body]
    return (["\n".join(c for c, i in zip(cells, is_import, strict=True) if i)]
            + [c for c, i in zip(cells, is_import, strict=True) if not i])


def experiment(folder: Path, name: str, then: str) -> str:
    """A student's cell: writes `name` in `folder`, then `then` (sleeps, raises)."""
    return f"open({str(folder / name)!r}, 'w').write('ran')\n{then}\n"


def control(folder: Path) -> str:
    return f"open({str(folder / 'control')!r}, 'w').write('ran')\n"


def write(path: Path, cells: list) -> Path:
    path.write_text(nbformat.writes(nbformat.v4.new_notebook(cells=cells)))
    return path


def code(source: str, **metadata) -> nbformat.NotebookNode:
    return nbformat.v4.new_code_cell(source, metadata=metadata)


def grade(path: Path) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(path), "--exercises",
                           str(EXERCISES)], capture_output=True, text=True, timeout=300,
                          cwd=path.parent)
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return done


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    tmp_path.chmod(0o777)  # as root, the worker is a user of its own: it writes the markers here
    return tmp_path


def assert_full_marks(done: subprocess.CompletedProcess) -> None:
    assert done.returncode == 0, done.stdout + done.stderr
    assert "(100%)" in done.stdout and "while loading" not in done.stdout, done.stdout


def test_tagged_cells_are_graded_and_the_others_are_not_run(folder):
    cells = [code(source, tags=["grade"]) for source in solution_cells()]
    cells.insert(3, code(experiment(folder, "slept", "import time\ntime.sleep(60)")))
    cells.insert(6, code(experiment(folder, "raised", "raise RuntimeError('my experiment')")))
    cells.append(code(control(folder), tags=["solution"]))
    path = write(folder / "lab.ipynb", [nbformat.v4.new_markdown_cell("# Lab 4"), *cells])
    start = time.perf_counter()
    done = grade(path)
    assert time.perf_counter() - start < 30
    assert_full_marks(done)
    assert (folder / "control").exists()  # a marked cell ran and could write
    assert not (folder / "slept").exists() and not (folder / "raised").exists()
    graded = len(cells) - 2
    assert (f"lab.ipynb: graded {graded} of {len(cells)} code cells: the notebook marks the "
            "cells to grade; the 2 others were not run") in done.stdout


def test_an_nbgrader_notebook_grades_as_it_is(folder):
    solution = {"solution": True, "grade": False, "locked": False, "grade_id": "answer",
                "schema_version": 3}
    setup, *answers = solution_cells()
    cells = [code(setup, nbgrader={"locked": True, "solution": False, "grade": False,
                                   "grade_id": "setup", "schema_version": 3})]
    cells += [code(source, nbgrader={**solution, "grade_id": f"answer-{i}"})
              for i, source in enumerate(answers)]
    cells.append(code("assert num_patches(4, 4, 2) == 4\n" + control(folder),
                      nbgrader={"grade": True, "solution": False, "locked": True, "points": 1,
                                "grade_id": "test-1", "schema_version": 3}))
    cells.insert(2, code(experiment(folder, "slept", "import time\ntime.sleep(60)")))
    done = grade(write(folder / "nbgrader.ipynb", cells))
    assert_full_marks(done)
    assert (folder / "control").exists() and not (folder / "slept").exists()


def test_an_otter_master_notebook_grades_its_solution_blocks(folder):
    setup, *answers = solution_cells()
    raw = nbformat.v4.new_raw_cell
    cells = [code("# Initialize Otter\nimport otter\ngrader = otter.Notebook()"), code(setup)]
    for i, source in enumerate(answers):
        cells += [raw(f"# BEGIN QUESTION\nname: q{i}\npoints: 1"), raw("# BEGIN SOLUTION"),
                  code(source), raw("# END SOLUTION"), raw("# BEGIN TESTS"),
                  code(f"assert False  # q{i}'s test: otter's, not run"), raw("# END TESTS")]
        if i == 2:  # a student's experiment inside a question, and otter's check cell
            cells += [code(experiment(folder, "raised", "raise RuntimeError('plot')")),
                      code('grader.check("q2")')]
        cells.append(raw("# END QUESTION"))
    cells += [raw("# BEGIN QUESTION\nname: last"), raw("# BEGIN SOLUTION"),
              code(control(folder)), raw("# END SOLUTION"), raw("# END QUESTION"),
              code(experiment(folder, "ignored", "import time\ntime.sleep(60)"),
                   tags=["otter_ignore"])]
    done = grade(write(folder / "otter.ipynb", cells))
    assert_full_marks(done)
    assert (folder / "control").exists()
    assert not (folder / "raised").exists() and not (folder / "ignored").exists()


def test_an_otter_student_notebook_skips_otters_own_cells(folder):
    setup, *answers = solution_cells()
    cells = [code("# Initialize Otter\nimport otter\ngrader = otter.Notebook(\"lab.ipynb\")"),
             code(setup)]
    for i, source in enumerate(answers):
        cells += [nbformat.v4.new_markdown_cell(f"**Question {i}**"), code(source),
                  code(f'grader.check("q{i}")')]
    cells += [code(experiment(folder, "ignored", "raise RuntimeError"),
                   otter={"ignore": True}), code(control(folder))]
    done = grade(write(folder / "student.ipynb", cells))
    assert_full_marks(done)
    assert (folder / "control").exists() and not (folder / "ignored").exists()
    assert ("cell(s) of otter's own (otter_ignore, tests, `grader.check`) were not run"
            in done.stdout)


def test_an_untagged_notebook_is_graded_whole(folder):
    cells = [code(source) for source in solution_cells()]
    cells.append(code(experiment(folder, "raised", "raise RuntimeError('my experiment')")))
    done = grade(write(folder / "whole.ipynb", cells))
    assert done.returncode == 0, done.stdout
    assert (folder / "raised").exists()
    assert "RuntimeError: my experiment" in done.stdout and "marked" not in done.stdout


def test_cell_numbers_stay_jupyters_and_a_tag_on_markdown_marks_nothing(tmp_path):
    cells = [nbformat.v4.new_markdown_cell("# Answers", metadata={"tags": ["grade"]}),
             code("x = 1"), code("y = 2", tags=["grade"]), code("", tags=["grade"]),
             code("z = 3")]
    path = write(tmp_path / "n.ipynb", cells)
    notes: list[str] = []
    read = read_cells(path, notes=notes)
    assert [(c.number, c.graded) for c in read] == [(1, False), (2, True), (3, False)]
    assert notes == ["graded 1 of 3 code cells: the notebook marks the cells to grade; the 2 "
                     "others were not run"]
    plain = json.loads(nbformat.writes(nbformat.v4.new_notebook(cells=cells[:2])))["cells"]
    assert selection(plain, [False, True]) == ([False, True], None)


@pytest.mark.parametrize("metadata", [{"tags": "grade"}, {"tags": [1, None]}, {"nbgrader": []},
                                      {"otter": "ignore"}, []])
def test_malformed_metadata_is_no_mark_and_no_crash(tmp_path, metadata):
    cell = {"cell_type": "code", "source": "x = 1", "metadata": metadata, "outputs": [],
            "execution_count": None}
    path = tmp_path / "m.ipynb"
    path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {},
                                "cells": [cell]}))
    assert [c.graded for c in read_cells(path)] == [True]


# the marked cells through every entry point (pytest --student, grade-all, the Gradescope wrapper,
# PrairieLearn): tests/test_settings_everywhere.py


def test_otter_boundaries_may_be_fenced_markdown():
    def cell(kind, source):
        return {"cell_type": kind, "source": source, "metadata": {}}
    cells = [cell("code", "import numpy as np"),
             cell("markdown", "```otter\n# BEGIN QUESTION\n```"),
             cell("markdown", "```otter\n# BEGIN SOLUTION\n```"), cell("code", "x = 1"),
             cell("markdown", "```otter\n# END SOLUTION\n```"), cell("code", "plot(x)"),
             cell("markdown", "```otter\n# END QUESTION\n```")]
    run, note = selection(cells, [c["cell_type"] == "code" for c in cells])
    assert run == [True, False, False, True, False, False, False]
    assert note.startswith("graded 2 of 3 code cells")
