"""A NameError for a name that a top-level statement which failed at load would have bound is
told as that line's failure (checks/unbound.py, worker/bound_names.py): blind round 70's b70_03
and b70_13 import `erf` from scipy, which the grading venv lacked; every call of their
`encoder_block` raised "name 'erf' is not defined", and the hint was the block's checklist."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from grader.checks.results import CHECKLIST, OBSERVATION
from grader.checks.unbound import said
from grader.driver import Driver
from grader.settings import GraderSettings
from grader.worker import StudentWorker
from grader.worker.bound_names import bound_names

from conftest import EXERCISES

SOLUTION = Path(__file__).resolve().parents[1] / "solutions" / "vit_exercises.py"
MISSING_PACKAGE = '''
from no_such_package_for_vitgrade.special import erf as _erf


def gelu(x):
    return 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0)))
'''
TYPO = '''
def gelu(x):
    return 0.5 * x * (1.0 + erff(x / np.sqrt(2.0)))
'''


@pytest.fixture(scope="module")
def driver():
    driver = Driver(GraderSettings(None, EXERCISES))
    yield driver
    driver.close()


def _block(driver, tmp_path, snippet: str):
    path = tmp_path / "port.py"  # the solution, the snippet's definitions after it (theirs win)
    path.write_text(SOLUTION.read_text() + "\n\n" + snippet)
    report = driver.grade(path).report
    line = 1 + (SOLUTION.read_text() + "\n\n" + snippet).splitlines().index(
        snippet.strip().splitlines()[0])
    block = next(e for e in report.exercises if e.id == "encoder-block")
    failed = [c for c in block.checks if not c.passed]
    assert failed, block
    return failed, line


def test_a_name_a_failed_import_would_have_bound_is_told_as_that_line(driver, tmp_path):
    failed, line = _block(driver, tmp_path, MISSING_PACKAGE)
    for check in failed:  # the visible check and the hidden one alike
        assert check.hint_kind == OBSERVATION, check
        assert check.hint.startswith(
            f"`_erf` is not defined because line {line} (`from no_such_package_for_vitgrade"
            ".special import erf as _erf`) failed when your file was loaded: "
            "ModuleNotFoundError: No module named 'no_such_package_for_vitgrade'."), check.hint
        assert "use only numpy and the standard library" in check.hint


def test_a_name_nothing_at_load_would_have_bound_keeps_the_checklist(driver, tmp_path):
    failed, _ = _block(driver, tmp_path, TYPO)
    assert all(c.hint_kind == CHECKLIST and "is not defined because" not in c.hint
               for c in failed), failed


def test_the_worker_says_what_a_failed_statement_would_have_bound(tmp_path):
    path = tmp_path / "demo.py"
    path.write_text("import numpy as np\nimport no_such_package_for_vitgrade.sub as m, os\n"
                    "a, (b, *c) = 1 / 0\nx = 1\n")
    with StudentWorker(path) as worker:
        problems = worker.load().problems
    assert [(p.where, p.binds, p.statement) for p in problems] == [
        ("demo.py:2", ("m", "os"), "import no_such_package_for_vitgrade.sub as m, os"),
        ("demo.py:3", ("a", "b", "c"), "a, (b, *c) = 1 / 0")]


@pytest.mark.parametrize("code, names", [
    ("import a.b.c", ("a",)), ("from a import b as c, d", ("c", "d")), ("from a import *", ()),
    ("@deco\ndef f(): pass", ("f",)), ("class K(Base): pass", ("K",)),
    ("x[0] = y.z = w = 1", ("w",)), ("n: int = 3", ("n",)), ("n: int", ()),
    ("if flag:\n    erf = 1", ()), ("for i in range(3): pass", ())])
def test_only_what_a_statement_binds_once_it_ends(code, names):
    assert bound_names(ast.parse(code).body[0]) == names


def test_a_notebook_cell_that_stopped_at_an_import_is_told_by_its_statement(tmp_path):
    cells = [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
              "source": source} for source in (
        "import numpy as np\nfrom no_such_package_for_vitgrade import erf\ny = 2",
        "def f(x):\n    return erf(x)\n")]
    path = tmp_path / "lab.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4,
                                "nbformat_minor": 5}))
    with StudentWorker(path) as worker:
        problem, = worker.load().problems
    assert problem.binds == ("erf",)  # the cell's failed statement's, not `y`'s after it
    assert said("erf", problem).startswith(
        "`erf` is not defined because the statement `from no_such_package_for_vitgrade import "
        f"erf` in {problem.where} failed when your notebook was loaded: ModuleNotFoundError")
