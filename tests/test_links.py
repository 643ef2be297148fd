"""A submission is never read through a symbolic link: not by `vitgrade grade`, not by `grade-all`.

git, zip and tar keep links, and the grader reads the submission with its own rights (as root on
an autograder) before its worker drops them: a link to the instructor's solution would be graded
with full marks. A link is refused with a message that says what to do.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from grader.worker.hiding import NO_NAMESPACES

from conftest import EXERCISES, SOLUTION


def test_a_symlinked_submission_is_refused_with_a_clear_message(tmp_path):
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    shutil.copy(SOLUTION, private / "solution.py")
    (tmp_path / "vit_exercises.py").symlink_to(private / "solution.py")
    out = tmp_path / "results.json"
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", "vit_exercises.py",
                           "--json", str(out), "--exercises", str(EXERCISES)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    results = json.loads(out.read_text())
    assert results["score"] == 0
    assert "is a symbolic link" in done.stdout and "replace the link" in done.stdout


def test_grade_all_grades_no_student_through_a_link(tmp_path):
    private, folder, out = tmp_path / "private", tmp_path / "class", tmp_path / "out"
    private.mkdir(mode=0o700)
    shutil.copy(SOLUTION, private / "vit_exercises.py")
    folder.mkdir()
    (folder / "alice.py").symlink_to(private / "vit_exercises.py")  # a linked file
    (folder / "bob").symlink_to(private, target_is_directory=True)  # a linked folder
    (folder / "carol").mkdir()
    (folder / "carol" / "vit_exercises.py").symlink_to(private / "vit_exercises.py")  # inside
    shutil.copy(SOLUTION, folder / "dave.py")  # and one honest submission
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade-all", str(folder), "--out",
                           str(out), "--jobs", "1", "--no-progress", "--exercises", str(EXERCISES)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    records = {path.stem: json.loads(path.read_text()) for path in (out / "results").glob("*.json")}
    assert records["dave"]["report"]["exercises"] and _score(records["dave"]) > 0
    for student in ("alice", "bob", "carol"):
        assert _score(records[student]) == 0, student  # graded, and nothing earned


def _score(record: dict) -> float:
    return sum(check["score"] for exercise in record["report"]["exercises"]
               for check in exercise["checks"])


@pytest.mark.parametrize("namespaces", [True, False], ids=["namespaces", "fallback"])
def test_grade_all_grades_no_student_through_a_hard_link(tmp_path, monkeypatch, namespaces):
    """A hard link needs no right to read its file (as root it is made regardless of
    fs.protected_hardlinks): a class-folder entry that is one is refused like a symbolic link and
    listed under "Needs a look"; a copy of the same file is graded (issue 35, item 6). With
    namespaces and without (VITGRADE_NO_NAMESPACES=1): the submission is read before either."""
    monkeypatch.setenv(NO_NAMESPACES, str(int(not namespaces)))
    private, folder, out = tmp_path / "private", tmp_path / "class", tmp_path / "out"
    private.mkdir(mode=0o700)
    shutil.copy(SOLUTION, private / "vit_exercises.py")
    (private / "vit_exercises.py").chmod(0o600)
    folder.mkdir()
    os.link(private / "vit_exercises.py", folder / "alice.py")  # a file of two names
    (folder / "bob").mkdir()
    os.link(private / "vit_exercises.py", folder / "bob" / "vit_exercises.py")
    shutil.copy(SOLUTION, folder / "dave.py")
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade-all", str(folder), "--out",
                           str(out), "--jobs", "1", "--no-progress", "--exercises", str(EXERCISES)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    records = {path.stem: json.loads(path.read_text()) for path in (out / "results").glob("*.json")}
    assert _score(records["dave"]) > 0
    report = (out / "report.html").read_text()
    needs_a_look = report[report.index("Needs a look"):]
    for student in ("alice", "bob"):
        assert _score(records[student]) == 0, student
        assert "is a hard link (it has 3 names)" in json.dumps(records[student]), student
        assert student in needs_a_look
