"""The course's setup code (issue 37, item 4): the exercises folder's setup.py runs in the worker
before the submission, in its namespace, and is handed to the worker as data; the names it defines
are the student's to use, and nothing of the specs comes with them."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from test_feedback_levels import HIDDEN, SPEC

SETUP = textwrap.dedent("""\
    import numpy as np

    ZERO = 0                                  # a name the student's code may use
    RNG = np.random.default_rng(5)            # a fixed generator
    IMAGE = np.arange(4 * 6 * 3, dtype=float).reshape(4, 6, 3)
    """)
USES_SETUP = textwrap.dedent("""\
    def num_patches(H, W, P):
        assert IMAGE.shape == (4, 6, 3) and RNG is not None
        return (H // P) * (W // P) + ZERO
    """)
# everything the submission's namespace holds, in the failure message of the visible case
SNOOPS = textwrap.dedent("""\
    import sys

    def num_patches(H, W, P):
        seen = {k: repr(v)[:200] for k, v in globals().items() if not k.startswith("__")}
        raise ValueError(repr(sorted(seen.items())) + repr(sorted(sys.modules)))
    """)


def folder_with(tmp_path: Path, setup: str | None, student: str) -> Path:
    folder = tmp_path / "exercises"
    folder.mkdir()
    (folder / "counting.yaml").write_text(SPEC)
    if setup is not None:
        (folder / "setup.py").write_text(setup)
    (tmp_path / "student.py").write_text(student)
    return folder


def grade(tmp_path: Path, folder: Path, *extra: str) -> tuple[subprocess.CompletedProcess, dict]:
    out = tmp_path / "results.json"
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", "student.py",
                           "--exercises", str(folder), "--json", str(out), *extra],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return done, json.loads(out.read_text())


def test_a_submission_using_the_setups_names_gets_full_marks(tmp_path):
    folder = folder_with(tmp_path, SETUP, USES_SETUP)
    done, results = grade(tmp_path, folder)
    assert done.returncode == 0 and results["score"] == 3, done.stdout
    (folder / "setup.py").unlink()  # without it, the names are not defined
    done, results = grade(tmp_path, folder)
    assert done.returncode == 1 and results["score"] == 0 and "NameError" in done.stdout


def test_the_setup_runs_before_a_notebook_too(tmp_path):
    folder = folder_with(tmp_path, SETUP, "")
    cell = {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
            "source": USES_SETUP}
    notebook = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "work.ipynb").write_text(json.dumps(notebook))
    out = tmp_path / "nb.json"
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", "work.ipynb",
                           "--exercises", str(folder), "--json", str(out)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and json.loads(out.read_text())["score"] == 3, done.stdout


def test_the_setups_names_hold_nothing_of_the_specs(tmp_path):
    """All the submission's namespace and modules hold, shown in full: the setup's names, and
    no hidden case's inputs or expected value."""
    folder = folder_with(tmp_path, SETUP, SNOOPS)
    done, results = grade(tmp_path, folder)
    text = done.stdout + json.dumps(results)
    assert "ZERO" in text and "IMAGE" in text and "RNG" in text
    for secret in HIDDEN:
        assert secret not in text, secret
    assert "grader.checks" not in text and "grader.reference" not in text


def test_the_worker_is_given_the_setup_as_data_and_never_the_exercises_folder(tmp_path):
    from grader.driver import load_catalogue
    from grader.settings import resolve_settings

    folder = folder_with(tmp_path, SETUP, USES_SETUP)
    settings = resolve_settings({"student": "student.py", "exercises": str(folder)}.get,
                                tmp_path, {})
    settings = settings.for_catalogue(load_catalogue(folder).exercises)
    assert settings.limits().setup == ("setup.py", SETUP)
    assert os.path.realpath(folder) in settings.limits().hide  # the worker never reads it


def test_a_setup_that_raises_or_does_not_compile_is_said_where(tmp_path):
    folder = folder_with(tmp_path, "ZERO = 1 / 0\n", USES_SETUP)
    done, results = grade(tmp_path, folder)
    assert ("the course's setup code raised ZeroDivisionError: division by zero (tell your "
            "instructor)") in done.stdout
    (folder / "setup.py").write_text("ZERO = 0\ndef broken(:\n")
    validate = subprocess.run([sys.executable, "-m", "grader.cli", "validate", "--exercises",
                               str(folder)], cwd=tmp_path, capture_output=True, text=True,
                              timeout=300)
    assert validate.returncode == 1
    assert any(line.endswith("setup.py:2: SyntaxError: invalid syntax")
               for line in validate.stdout.splitlines()), validate.stdout


def test_the_setup_example_of_spec_md_is_read_and_defines_its_names(tmp_path):
    from test_docs import blocks

    from grader.checks.course_file import course_settings

    shown = [text for doc, _, text, _ in blocks("python")
             if doc == "spec.md" and text.startswith("# exercises/setup.py")]
    assert len(shown) == 1
    (tmp_path / "setup.py").write_text(shown[0])
    settings = course_settings(tmp_path)
    assert not settings.problems and settings.setup == ("setup.py", shown[0])
    names: dict = {}
    exec(shown[0], names)
    assert names["IMAGE"].shape == (32, 32, 3) and names["RNG"] is not None


# the setup through every entry point (pytest --student, grade-all, check(), the Gradescope
# wrapper, PrairieLearn): tests/test_settings_everywhere.py
