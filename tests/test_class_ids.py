"""Student ids in `vitgrade grade-all` (issue 35, item 2): two students never become one. Names
that a safe id would make alike (accents, spaces) keep their own ids; two entries share an id
only when --id-pattern gives both the same text (then the newer is graded); ids that still
collide are listed under "Needs a look", never settled silently; grades.csv says which file each
row graded."""
from __future__ import annotations

import os
import re

import pytest
from test_batch import csv_rows, grade_all, total_points

from grader.batch.discover import discover, student_id

from conftest import EXERCISES, SOLUTION, TEMPLATE

# two names whose safe ids share a base (ab_____) and their sha256's first 8 hex digits
SAME_DIGITS = ("abαδεζβ", "abβληηζ")


@pytest.fixture(scope="module")
def graded(specs, tmp_path_factory):
    folder = tmp_path_factory.mktemp("class")
    for name, source in (("Ünal.py", SOLUTION), ("Énal.py", TEMPLATE),
                         ("alice smith.py", SOLUTION), ("alice_smith.py", TEMPLATE),
                         (f"{SAME_DIGITS[0]}.py", SOLUTION), (f"{SAME_DIGITS[1]}.py", TEMPLATE)):
        (folder / name).write_text(source.read_text())
    out = tmp_path_factory.mktemp("out")
    done = grade_all(folder, out, specs)
    assert done.returncode == 0, done.stdout + done.stderr
    return out, done


def test_names_alike_but_for_accents_or_spaces_are_graded_as_two_students(graded, specs):
    out, _ = graded
    rows = csv_rows(out)
    top = total_points(specs)
    scores = {row["Section"]: row["Final Points"] for row in rows.values()}
    assert (float(scores["Ünal.py"]), float(scores["Énal.py"])) == (top, 0)
    assert (float(scores["alice smith.py"]), float(scores["alice_smith.py"])) == (top, 0)
    ids = {row["Section"]: student for student, row in rows.items()}
    assert ids["alice_smith.py"] == "alice_smith"  # a safe name is its own id
    assert re.fullmatch(r"Unal~[0-9a-f]{8}", ids["Ünal.py"])
    assert re.fullmatch(r"alice_smith~[0-9a-f]{8}", ids["alice smith.py"])
    assert {p.stem for p in (out / "results").glob("*.json")} >= set(ids.values())


def test_ids_that_still_collide_are_listed_under_needs_a_look(graded):
    out, done = graded
    needs_a_look = (out / "report.html").read_text().split("Needs a look", 1)[1]
    for name in SAME_DIGITS:
        assert f"{name}.py" in needs_a_look.split("<h2>", 1)[0]
        assert f"{name}.py" in done.stdout
    student = student_id(SAME_DIGITS[0])
    assert student == student_id(SAME_DIGITS[1])
    row = csv_rows(out)[student]
    assert row["Final Points"] == "" and row["Section"] == ""  # neither is graded
    assert "rename one" in (out / "feedback" / f"{student}.md").read_text()
    # the summary counts it as held back, not as graded or reused
    assert "5 submissions: 0 reused, 4 graded (4 new) in" in done.stdout, done.stdout
    assert ", 1 not graded (Needs a look)" in done.stdout, done.stdout


def test_ids_are_safe_and_bounded_and_the_same_each_run():
    for text in ("Ünal", "..x", "a/b", "\udcff", "é" * 300, "x~y", "alice smith"):
        student = student_id(text)
        assert student == student_id(text) and len(student) <= 120
        assert re.fullmatch(r"[A-Za-z0-9_@+-][A-Za-z0-9._@+-]*~[0-9a-f]{8}", student), student
    assert student_id("smith.jane@uni.edu") == "smith.jane@uni.edu"


def test_an_lms_resubmission_is_one_student_graded_from_the_newer_file(specs, tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "smith_12345_vit.py").write_text(TEMPLATE.read_text())
    (folder / "smith_late_12345_vit.py").write_text(SOLUTION.read_text())
    (folder / "jones_67890_vit.py").write_text(TEMPLATE.read_text())
    os.utime(folder / "smith_12345_vit.py", (1, 1))
    pattern = r"^[a-z]+_(?:late_)?(?P<id>\d+)_"
    submissions, notes = discover(folder, pattern)
    assert [s.student for s in submissions] == ["12345", "67890"]
    assert any("smith_12345_vit.py: skipped" in note for note in notes)
    done = grade_all(folder, tmp_path / "out", specs, "--id-pattern", pattern)
    assert done.returncode == 0, done.stdout + done.stderr
    row = csv_rows(tmp_path / "out")["12345"]
    assert row["Section"] == "smith_late_12345_vit.py"
    assert float(row["Final Points"]) == total_points(specs)


def test_two_entries_of_one_student_with_the_same_time_are_listed_not_settled(tmp_path):
    """Neither is newer: which one the class folder lists first must not decide a grade."""
    folder = tmp_path / "class"
    folder.mkdir()
    for name, source in (("smith_12345_vit.py", TEMPLATE), ("smith_late_12345_vit.py", SOLUTION)):
        (folder / name).write_text(source.read_text())
        os.utime(folder / name, (1000, 1000))
    submissions, notes = discover(folder, r"^[a-z]+_(?:late_)?(?P<id>\d+)_")
    [smith] = submissions
    assert smith.conflict and "neither is graded" in smith.conflict
    assert any("smith_12345_vit.py" in note and "smith_late_12345_vit.py" in note
               for note in notes), notes


# --- --roster: whose each entry is, when its name does not say --------------------------------

def test_a_roster_names_each_entry_and_one_students_two_entries_keep_the_newer(specs, tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name, source in (("submission_1001.py", SOLUTION), ("submission_1002.py", TEMPLATE),
                         ("submission_1003.py", TEMPLATE), ("stray.py", SOLUTION)):
        (folder / name).write_text(source.read_text())
    os.utime(folder / "submission_1002.py", (1, 1))  # alice's older one
    roster = tmp_path / "roster.csv"
    roster.write_text("entry,id\nsubmission_1001.py,alice@uni.edu\nsubmission_1002,"
                      "alice@uni.edu\nsubmission_1003.py,bob@uni.edu\n")
    out = tmp_path / "out"
    done = grade_all(folder, out, specs, "--roster", str(roster))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = csv_rows(out)
    assert set(rows) == {"alice@uni.edu", "bob@uni.edu"}
    assert float(rows["alice@uni.edu"]["Final Points"]) == total_points(specs)  # the newer one
    assert "submission_1002.py: skipped, submission_1001.py is a newer submission" in done.stdout
    assert "stray.py: skipped, it is not in --roster" in done.stdout


@pytest.mark.parametrize("text, line", [("name,student\na.py,x\n", 1),
                                        ("entry,id\na.py,x\nb.py,\n", 3),
                                        ("entry,id\na.py,x\na.py,y\n", 3)])
def test_a_roster_that_cannot_be_read_says_where(tmp_path, text, line):
    roster = tmp_path / "roster.csv"
    roster.write_text(text)
    (tmp_path / "class").mkdir()
    done = grade_all(tmp_path / "class", tmp_path / "out", EXERCISES, "--roster", str(roster))
    assert done.returncode != 0 and f"{roster}:{line}:" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
