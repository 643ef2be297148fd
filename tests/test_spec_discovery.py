"""Specs come only from where the instructor put them, and grade-all imports nothing from the
folder it is started in.

An autograder (--classroom, --gradescope, --prairielearn, grade-all) grades with --exercises or
the installed specs, never an `exercises/` in the student's repository; discovery at a desk skips
folders anyone could have written; the score table names the folder it used.
"""
from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader import load_specs
from grader.spec.locate import EXPLICIT, FOUND, INSTALLED, installed_exercises, locate_exercises

from conftest import EXERCISES, SOLUTION

VITGRADE = Path(sys.executable).with_name("vitgrade")  # the console script, as users run it


def points_of(folder: Path, visible_only: bool = False) -> float:
    exercises, errors = load_specs(folder)
    assert not errors
    return sum(c.points for e in exercises for c in e.checks if not (visible_only and c.hidden))


def student_repo(root: Path) -> Path:
    """A repository holding the solution and an exercises/ of its own worth other points."""
    root.mkdir()
    shutil.copy(SOLUTION, root / "vit_exercises.py")
    (root / "exercises").mkdir()
    spec = (EXERCISES / "patch-count.yaml").read_text()
    (root / "exercises" / "patch-count.yaml").write_text(spec.replace("points: 2", "points: 50", 1))
    return root


def vitgrade(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def table_total(stdout: str) -> str:
    """`55 / 55` from the score table's total line."""
    line = next(line for line in stdout.splitlines() if line.startswith("total "))
    return " ".join(line.split()[1:4])


@pytest.fixture(scope="module")
def course_points() -> float:
    return points_of(installed_exercises())


@pytest.fixture(scope="module")
def course_visible_points() -> float:
    """What Classroom's result and PrairieLearn's scored tests count (docs/lms.md)."""
    return points_of(installed_exercises(), visible_only=True)


@pytest.fixture
def repo(tmp_path) -> Path:
    folder = student_repo(tmp_path / "repo")
    assert points_of(folder / "exercises") != points_of(installed_exercises())
    assert (points_of(folder / "exercises", visible_only=True)
            != points_of(installed_exercises(), visible_only=True))
    return folder


# --- autograders never discover ----------------------------------------------------------------

def test_classroom_grades_a_repo_with_the_installed_specs_not_its_own(repo,
                                                                      course_visible_points):
    output = repo.parent / "github_output"
    done = vitgrade("grade", "vit_exercises.py", "--classroom", cwd=repo,
                    env={**os.environ, "GITHUB_OUTPUT": str(output)})
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(base64.b64decode(output.read_text().strip().split("=", 1)[1]))
    assert result["max_score"] == course_visible_points
    assert f"exercises: {installed_exercises()} ({INSTALLED})" in done.stdout


def test_gradescope_grades_a_repo_with_the_installed_specs_not_its_own(repo, course_points):
    results = repo.parent / "results.json"
    done = vitgrade("grade", "vit_exercises.py", "--gradescope", "--json", str(results), cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(results.read_text())["max_score"] == course_points


def test_prairielearn_grades_a_repo_with_the_installed_specs_not_its_own(repo,
                                                                         course_visible_points):
    results = repo.parent / "pl.json"
    done = vitgrade("grade", "vit_exercises.py", "--prairielearn", str(results), cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    tests = json.loads(results.read_text())["tests"]
    assert sum(t.get("max_points", 0) for t in tests) == course_visible_points


def test_an_autograder_still_takes_the_exercises_it_is_given(repo):
    done = vitgrade("grade", "vit_exercises.py", "--classroom", "-q",
                    "--exercises", "exercises", cwd=repo,
                    env={**os.environ, "GITHUB_OUTPUT": str(repo.parent / "out")})
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"exercises: {repo / 'exercises'} ({EXPLICIT})" in done.stdout
    own = points_of(repo / "exercises")
    assert table_total(done.stdout) == f"{own:g} / {own:g}"


# --- discovery at a desk ---------------------------------------------------------------------

def test_plain_grade_in_a_project_finds_its_exercises_and_says_so(repo):
    done = vitgrade("grade", "vit_exercises.py", "-q", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"exercises: {repo / 'exercises'} ({FOUND})" in done.stdout
    own = points_of(repo / "exercises")
    assert table_total(done.stdout) == f"{own:g} / {own:g}"


def test_discovery_finds_the_projects_exercises_from_a_subfolder(repo):
    (repo / "notebooks").mkdir()
    located = locate_exercises(start=repo / "notebooks")
    assert (located.path, located.origin) == (repo / "exercises", FOUND)


def test_discovery_skips_exercises_below_a_world_writable_folder(tmp_path):
    shared = tmp_path / "shared"  # as /tmp: anyone may create shared/exercises
    student_repo(shared)
    (shared / "work").mkdir()
    shared.chmod(0o777)
    for start in (shared, shared / "work"):
        assert locate_exercises(start=start).origin == INSTALLED


def test_discovery_skips_a_world_writable_exercises_folder(repo):
    (repo / "exercises").chmod(0o777)
    assert locate_exercises(start=repo).origin == INSTALLED


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder to another user needs root "
                                              "(CI runs as root)")
def test_discovery_skips_an_exercises_folder_another_user_owns(repo):
    os.chown(repo / "exercises", 65534, 65534)
    assert locate_exercises(start=repo).origin == INSTALLED


def test_grade_all_never_discovers(tmp_path):
    from grader.spec.locate import find_exercises

    repo = student_repo(tmp_path / "class")
    assert find_exercises(start=repo, discover=False) == installed_exercises()


# --- grade-all imports nothing from where it is started ----------------------------------------

HOSTILE_MODULES = ("random", "numpy", "json")


@pytest.mark.skipif(not VITGRADE.is_file(), reason=f"no console script {VITGRADE}")
def test_grade_all_started_in_a_class_folder_imports_none_of_its_modules(tmp_path):
    marker = tmp_path / "imported"
    folder = tmp_path / "class"
    for student in ("alice", "bob"):
        (folder / f"student_{student}").mkdir(parents=True)
        shutil.copy(SOLUTION, folder / f"student_{student}" / "vit_exercises.py")
    for name in HOSTILE_MODULES:  # not submissions: --id-pattern below leaves them out
        (folder / f"{name}.py").write_text(f"open({str(marker)!r}, 'a').write('{name}\\n')\n")
    specs = folder / "exercises"  # beside them: a job runs in the folder holding its specs
    specs.mkdir()
    for name in ("patch-count.yaml", "token-count.yaml"):
        shutil.copy(EXERCISES / name, specs / name)
    done = subprocess.run([str(VITGRADE), "grade-all", ".", "--out", "../out", "--jobs", "2",
                           "--exercises", "exercises", "--no-progress",
                           "--id-pattern", r"^student_(?P<id>\w+)$"],
                          cwd=folder, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not marker.exists(), marker.read_text()
    total = points_of(specs)
    for student in ("alice", "bob"):
        record = json.loads((tmp_path / "out" / "results" / f"{student}.json").read_text())
        assert record["status"] == "graded"
        assert record["report"]["fatal"] is None
        assert sum(e_check["score"] for e in record["report"]["exercises"]
                   for e_check in e["checks"]) == total


def test_a_checkpoint_is_read_from_the_specs_own_folder_not_from_a_repo(repo, course_points):
    """A repository's exercises/checkpoints/ with logits of its choosing changes no grade: the
    installed spec reads the installed checkpoint."""
    import numpy as np

    theirs = repo / "exercises" / "checkpoints" / "tiny-vit"
    shutil.copytree(installed_exercises() / "checkpoints" / "tiny-vit", theirs)
    with np.load(theirs / "sample.npz") as sample:
        forged = {name: sample[name] for name in sample.files}
    forged["logits"] = np.zeros_like(forged["logits"])  # what a vit_forward returning 0 gets
    np.savez(theirs / "sample.npz", **forged)
    results = repo.parent / "results.json"
    done = vitgrade("grade", "vit_exercises.py", "--gradescope", "--json", str(results),
                    cwd=repo)
    data = json.loads(results.read_text())
    assert data["score"] == course_points, done.stdout[-2000:]  # the solution, full marks
