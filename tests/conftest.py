"""Shared fixtures: paths of the repository's solutions, template, exercises and test
submissions."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

# pytester's in-process runs forget the modules a run imported; PyYAML's C extension keeps the
# node classes of the first import, so a second import of yaml would not recognise its nodes
# ("could not determine a constructor for the tag None" in test_plugin.py run alone)
import yaml  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
EXERCISES = ROOT / "exercises"
SOLUTION = ROOT / "solutions" / "vit_exercises.py"
TEMPLATE = ROOT / "student_template" / "vit_exercises.py"


def pytest_addoption(parser):
    parser.addoption(
        "--only-buggy", action="append", default=[], metavar="NAME",
        help="test_bundle's comparison of the bundle and the full grader: only the buggy "
             "fixtures whose file name contains NAME (repeatable), for a quick local run "
             "(the comparison's coverage figures are asserted on a full run only)")


def misconceptions_of(folder=EXERCISES) -> dict:
    """Every known-wrong variant a spec of `folder` may name: the shipped ones and the course's
    (grader/checks/course.py), so no test lists the student API's functions itself."""
    from grader.checks.course import course_reference
    from grader.reference.misconceptions import MISCONCEPTIONS

    return {**MISCONCEPTIONS, **getattr(course_reference(folder), "misconceptions", {})}
SUBMISSIONS = Path(__file__).resolve().parent / "submissions"


@pytest.fixture
def grade_with(pytester, monkeypatch):
    """Run `pytest --student PATH --exercises DIR` in a pytester sandbox; returns the RunResult.

    Only our plugin is loaded (as `vitgrade grade` does), so other plugins installed on a
    developer's machine neither slow the run down nor change its output.
    """
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")

    def run(student, *extra, exercises=EXERCISES):
        return pytester.runpytest("-p", "grader.plugin", "-p", "no:cacheprovider",
                                  "--student", str(student),
                                  "--exercises", str(exercises), *extra)

    return run


@pytest.fixture(autouse=True)
def _error_model_never_failed():
    """After each test: the error model's search failed nowhere (checks/kinds/mistakes.FAILURES).
    Its guard names no mistake then and the student sees nothing of it, so without this a bug
    of the search would show only as a hint gone missing."""
    yield
    mistakes = sys.modules.get("grader.checks.kinds.mistakes")
    if mistakes is not None and mistakes.FAILURES:
        failures = list(mistakes.FAILURES)
        mistakes.FAILURES.clear()
        pytest.fail(f"the error model's search failed (no mistake named): {failures}")


@pytest.fixture(scope="module")
def catalogue():
    """The shipped exercises, loaded and validated (as grading loads them)."""
    from grader.checks.catalogue import load_exercises

    exercises, errors = load_exercises(EXERCISES)
    assert not errors, [str(e) for e in errors]
    return exercises


@pytest.fixture(scope="module")
def zygote():
    """The shared zygote, ready: a module's first worker then does not wait for numpy's import."""
    from grader.worker import prestart_zygote

    zygote = prestart_zygote()
    zygote.wait_ready()
    return zygote


# Small exercises keep a class fast; any of them missing (specs change) is simply not used.
SPEC_FILES = ["patch-count.yaml", "token-count.yaml", "flatten-length.yaml",
              "pretrained-or-scratch.yaml"]


@pytest.fixture(scope="module")
def specs(tmp_path_factory) -> Path:
    """A folder with a copy of the small specs (SPEC_FILES), shared by a module's tests: the
    class-grading tests' exercises."""
    import shutil

    folder = tmp_path_factory.mktemp("exercises")
    found = [name for name in SPEC_FILES if (EXERCISES / name).is_file()]
    assert len(found) >= 2
    for name in found:
        shutil.copy(EXERCISES / name, folder / name)
    return folder
