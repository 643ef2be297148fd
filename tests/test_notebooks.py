"""Grading notebooks: as readily as a module, with IPython syntax, failing cells and broken files.

End-to-end tests go through `pytest --student` (pytester) or a StudentWorker; the tests of time
limits and of a missing IPython run the worker's notebook loader in this process, where the
limits can be made short and IPython can be left out.
"""
from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

import nbformat
import pytest

from grader import load_specs
from grader.checks import Options, grade_exercise
from grader.worker import StudentWorker
from grader.worker.loaded import Submission
from grader.worker.notebook import Cell, NotANotebook, load_notebook, read_cells

from conftest import EXERCISES, ROOT, SUBMISSIONS

SOLUTION_NOTEBOOK = ROOT / "solutions" / "vit_exercises.ipynb"
TEMPLATE_NOTEBOOK = ROOT / "student_template" / "vit_exercises.ipynb"
NOTEBOOKS = SUBMISSIONS / "notebooks"


def notebook(path: Path, *sources: str, markdown_first: bool = True) -> Path:
    """Write a notebook whose code cells are `sources` (a markdown cell first, as in a lab)."""
    cells = [nbformat.v4.new_markdown_cell("# Lab 4", id="intro")] if markdown_first else []
    cells += [nbformat.v4.new_code_cell(source, id=f"code-{i}") for i, source in enumerate(sources)]
    path.write_text(nbformat.writes(nbformat.v4.new_notebook(cells=cells)))
    return path


def total_line(result) -> str:
    return next(line for line in result.outlines if line.startswith("total"))


@pytest.fixture
def load_here(monkeypatch):
    """Run the worker's notebook loader in this process; returns the loaded Submission."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])  # the loader replaces it

    def load(path: Path, cell_seconds: float = 10.0, notebook_seconds: float = 20.0,
             ipython: bool = True) -> Submission:
        submission = Submission(path, budget=(cell_seconds, notebook_seconds))
        load_notebook(submission, ipython=ipython)
        return submission

    return load


def problems(submission: Submission) -> list[str]:
    return [f"{p.where}: {p.message}" for p in submission.problems]


# -- the course's notebooks ---------------------------------------------------------------------


def test_solution_notebook_gets_full_marks(grade_with):
    result = grade_with(SOLUTION_NOTEBOOK)
    assert result.ret == 0, result.stdout.str()
    assert total_line(result).endswith("(100%)")
    assert "while loading" not in result.stdout.str()


def test_template_notebook_scores_zero_and_no_cell_fails(grade_with):
    result = grade_with(TEMPLATE_NOTEBOOK)
    assert result.ret == 1
    assert ("total" in total_line(result) and " 0 / " in total_line(result)
            and total_line(result).endswith("(0%)"))
    # top-level stubs are comments: no cell raises
    assert "while loading" not in result.stdout.str()


def test_a_notebook_with_the_code_of_a_module_gets_the_same_score_on_every_check(tmp_path):
    module = NOTEBOOKS / "partial.py"
    source = module.read_text()
    tree = ast.parse(source)
    # docstring left out
    cells = [ast.get_source_segment(source, statement) for statement in tree.body[1:]]
    as_notebook = notebook(tmp_path / "partial.ipynb", *cells)
    exercises, errors = load_specs(EXERCISES)
    assert not errors

    def scores(path):
        with StudentWorker(path) as worker:
            results = [grade_exercise(e, worker, Options()) for e in exercises]
            return worker.load(), [(e.id, c.name, c.status, c.score)
                                   for e in results for c in e.checks]

    module_load, module_scores = scores(module)
    notebook_load, notebook_scores = scores(as_notebook)
    assert notebook_scores == module_scores
    assert (0 < sum(s for *_, s in module_scores)
            < sum(c.points for e in exercises for c in e.checks))
    assert [p.message for p in notebook_load.problems] == [p.message for p in module_load.problems]
    assert notebook_load.problems[0].where.startswith('cell 2 (`print("counting:"')


def test_magics_shell_lines_prints_and_a_failing_cell_still_get_full_marks(tmp_path, grade_with):
    solution = nbformat.read(SOLUTION_NOTEBOOK, as_version=4)
    code = [cell.source for cell in solution.cells if cell.cell_type == "code"]
    student = notebook(
        tmp_path / "lab.ipynb",
        "%matplotlib inline\n%load_ext autoreload\n%autoreload 2\nimport matplotlib.pyplot as plt",
        "!pip list\nfiles = !ls\nnp?",
        *code[:3],
        # a typo: NameError, line 2
        "image = np.arange(16.0).reshape(4, 4)\nplt.imshow(imgae)\nplt.show()",
        "for step in range(20_000):\n    print(step, 'patch ' * 20)",
        "%%time\n" + code[3],  # the definition inside a %%time cell still counts
        "%timeit num_patches(224, 224, 16)\nplt.plot([1, 2, 3]); plt.show()",
        *code[4:],
    )
    result = grade_with(student)
    assert result.ret == 0, result.stdout.str()
    assert total_line(result).endswith("(100%)")
    result.stdout.fnmatch_lines([
        "while loading *lab.ipynb:",
        "  cell 6 (`image = np.arange(16.0).reshape(4, 4)`): "
        "NameError: name 'imgae' is not defined (line 2)",
    ])
    loading = result.stdout.str().split("while loading", 1)[1].split("submission:", 1)[0]
    assert loading.count("cell ") == 1  # magics, shell lines and prints are not problems


@pytest.mark.parametrize(("name", "message"), [
    ("not_a_notebook.ipynb", "not a notebook: the file is not valid JSON "
                             "(Expecting value at line 1, column 1); "
                             "it looks like Python code: save it as a .py file"),
    ("invalid_json.ipynb", "not a notebook: the file is not valid JSON (Unterminated string"),
    ("empty.ipynb", "the notebook is empty: it has no cells"),
    ("no_code.ipynb", "the notebook has no code: its 2 cell(s) are markdown or empty code cells"),
])
def test_a_file_that_cannot_be_run_scores_zero_with_one_message_and_results_are_written(
        tmp_path, grade_with, name, message):
    out = tmp_path / "results.json"
    result = grade_with(NOTEBOOKS / name, "--json", str(out))
    assert result.ret == 2  # nothing could be graded
    fatal = [line for line in result.outlines if line.startswith("could not grade")]
    assert len(fatal) == 1 and message in fatal[0], result.stdout.str()
    assert "Traceback" not in result.stdout.str()
    assert json.loads(out.read_text())["score"] == 0


@pytest.mark.parametrize(("text", "message"), [
    ('[1, 2]', "not a notebook: the file is JSON, but a notebook is a JSON object with `cells` "
               "and an `nbformat` version"),
    ('{"nbformat": 9, "cells": []}',
     "not a notebook the grader can read: nbformat version 9 is not supported"),
    ('{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, '
     '"cells": [{"cell_type": "code", "source": 5}]}',
     "not a valid notebook: 'metadata' is a required property (at cells[0])"),
])
def test_json_that_is_no_readable_notebook_gets_a_message_saying_why(tmp_path, text, message):
    path = tmp_path / "lab.ipynb"
    path.write_text(text)
    with pytest.raises(NotANotebook, match=re.escape(message)):
        read_cells(path)


def test_a_byte_order_mark_or_an_old_nbformat_4_minor_version_is_read(tmp_path):
    path = notebook(tmp_path / "lab.ipynb", "x = 1")
    path.write_text("\ufeff" + path.read_text().replace('"nbformat_minor": 5',
                                                        '"nbformat_minor": 0'), encoding="utf-8")
    assert read_cells(path) == [Cell(1, "x = 1")]


def test_a_file_that_is_neither_module_nor_notebook_is_refused(tmp_path):
    path = tmp_path / "lab.pdf"
    path.write_bytes(b"%PDF-1.7\n")
    with StudentWorker(path) as worker:
        report = worker.load()
    assert not report.ok and "not a Python module or notebook" in report.problems[0].message


def test_an_nbformat_3_notebook_is_upgraded_and_graded():
    with StudentWorker(NOTEBOOKS / "nbformat3.ipynb") as worker:
        report = worker.load()
        assert report.ok and report.problems == ()
        assert worker.call("num_patches", (224, 224, 16)).value == 196


# -- cells: numbering, errors, limits -------------------------------------------------------------


def test_cells_are_numbered_as_jupyter_numbers_them_after_restart_and_run_all(tmp_path, load_here):
    path = notebook(tmp_path / "work.ipynb", "x = 1", "", "   \n", "def f(:\n    pass",
                    "y = 1\nz = y / 0")
    loaded = load_here(path)
    assert problems(loaded) == [
        "cell 2 (`def f(:`): SyntaxError: invalid syntax (line 1)",
        "cell 3 (`y = 1`): ZeroDivisionError: division by zero (line 2)",
    ]


def test_an_error_inside_a_function_of_another_cell_names_its_cell_in_the_traceback(tmp_path):
    path = notebook(tmp_path / "work.ipynb", "import numpy as np",
                    "def patch_dim(P, C=3):\n    return P * P * C / 0")
    with StudentWorker(path) as worker:
        error = worker.call("patch_dim", (16,)).error
    assert error.where == "cell 2:2" and 'File "cell 2", line 2, in patch_dim' in error.traceback


def test_a_cell_that_runs_too_long_is_stopped_and_the_next_cells_still_run(tmp_path, load_here):
    path = notebook(tmp_path / "work.ipynb",
                    "import time\nwhile True:\n    time.sleep(0.01)",
                    # swallows it
                    "while True:\n    try:\n        time.sleep(0.01)\n"
                    "    except BaseException:\n        pass",
                    "def num_patches(H, W, P):\n    return (H // P) * (W // P)")
    loaded = load_here(path, cell_seconds=0.2)
    first, second = problems(loaded)
    assert first == ("cell 1 (`import time`): stopped after 0.2 s, the grader's time limit for "
                     "one cell (line 3)")
    assert second.startswith("cell 2 (`while True:`): stopped after 0.2 s, the grader's time "
                             "limit for one cell")
    assert loaded.namespace["num_patches"](224, 224, 16) == 196


def test_once_the_notebook_time_is_spent_each_cell_gets_a_short_limit(
        tmp_path, load_here, monkeypatch):
    monkeypatch.setattr("grader.worker.top_level.SPENT_SECONDS", 0.1)
    path = notebook(tmp_path / "work.ipynb", "import time\ntime.sleep(0.3)", "time.sleep(0.3)",
                    "done = True")
    # cell 1 is stopped at the cell limit (0.2 s), with 50 ms of the notebook's time to spare;
    # after it, less than SPENT_SECONDS is left, whatever the load: cell 2 gets SPENT_SECONDS
    loaded = load_here(path, cell_seconds=0.2, notebook_seconds=0.25)
    assert [p.message for p in loaded.problems] == [
        "stopped after 0.2 s, the grader's time limit for one cell (line 2)",
        "stopped after 0.1 s, the grader's time limit for one cell",
    ]
    assert loaded.namespace["done"] is True


def test_without_ipython_its_lines_are_skipped_and_the_report_says_so(tmp_path, load_here):
    path = notebook(tmp_path / "work.ipynb",
                    "%matplotlib inline\nimport numpy as np\n!pip list\nfiles = !ls",
                    "%%time\ndef num_patches(H, W, P):\n    return (H // P) * (W // P)",
                    "%%bash\necho this cell is not Python",
                    "answer = num_patches(4, 4, 2)  # what is this?")
    loaded = load_here(path, ipython=False)
    assert problems(loaded) == [
        "cell 1 (`%matplotlib inline`): skipped IPython syntax (IPython is not installed): "
        "`%matplotlib inline`, `!pip list` and 1 more",
        "cell 2 (`%%time`): skipped IPython syntax (IPython is not installed): `%%time`",
        "cell 3 (`%%bash`): skipped IPython syntax (IPython is not installed): `%%bash`",
    ]
    assert loaded.namespace["answer"] == 4 and "np" in loaded.namespace


def test_magics_run_the_code_jupyter_runs_in_the_namespace(tmp_path, load_here):
    path = notebook(tmp_path / "work.ipynb",
                    "%time a = 1 + 1",
                    "%%capture\nb = a * 10",
                    "%%timeit -n 3 c = 0\nd = c + 1",  # %%timeit's names do not outlive the cell
                    "e = get_ipython().getoutput('ls')\ndisplay(e)")
    loaded = load_here(path)
    assert problems(loaded) == []
    namespace = loaded.namespace
    assert (namespace["a"], namespace["b"], namespace["e"]) == (2, 20, [])
    assert "c" not in namespace and "d" not in namespace
    assert "get_ipython" not in loaded.names() and "display" not in loaded.names()


def test_check_in_a_graded_notebook_does_nothing_and_loads_no_grading_code(tmp_path):
    path = notebook(tmp_path / "work.ipynb",
                    "from grader import check\ncheck()\ncheck('patchify')",
                    "import sys\ndef grading_modules():\n"
                    "    return sorted(m for m in sys.modules if m.startswith("
                    "('grader.checks', 'grader.spec', 'grader.reference')))")
    with StudentWorker(path) as worker:
        report = worker.load()
        # check() graded nothing: grading would print its score table
        assert report.ok and report.problems == () and report.stdout == ""
        assert worker.call("grading_modules").value == []
