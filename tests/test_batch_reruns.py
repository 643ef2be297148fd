"""`vitgrade grade-all` run again: a record is reused only when the submission, the specs and the
grader are unchanged; a submission that is gone keeps its row, with no grade and a note."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from test_batch import csv_rows, grade_all, total_points

from grader.batch.fingerprints import grader_version, specs_sha256, submission_sha256
from grader.batch.records import read_record

from conftest import EXERCISES, SOLUTION, SPEC_FILES, TEMPLATE


@pytest.fixture
def specs(tmp_path) -> Path:
    """The tiny specs, a copy of one's own: these tests change them."""
    folder = tmp_path / "exercises"
    folder.mkdir()
    for name in SPEC_FILES:
        if (EXERCISES / name).is_file():
            shutil.copy(EXERCISES / name, folder / name)
    return folder


@pytest.fixture
def graded(specs, tmp_path) -> tuple[Path, Path]:
    """A class of two, graded once: alice right, bob the untouched template."""
    folder, out = tmp_path / "class", tmp_path / "out"
    folder.mkdir()
    (folder / "alice.py").write_text(SOLUTION.read_text())
    (folder / "bob.py").write_text(TEMPLATE.read_text())
    done = grade_all(folder, out, specs, "--jobs", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 submissions: new: all 2 graded" in done.stdout
    return folder, out


def totals(out: Path) -> dict[str, str]:
    return {student: row["Final Points"] for student, row in csv_rows(out).items()}


def test_a_record_says_what_it_was_graded_from(graded, specs):
    folder, out = graded
    record = read_record(out / "results" / "alice.json")
    assert record.submission_sha256 == submission_sha256(folder / "alice.py")
    assert record.specs_sha256 == specs_sha256(specs)
    assert record.grader_version == grader_version()
    assert re.fullmatch(r"\S+\+[0-9a-f]{16}", record.grader_version)


def test_an_unchanged_rerun_reuses_every_record(graded, specs):
    folder, out = graded
    before = {p.name: p.stat().st_mtime_ns for p in (out / "results").glob("*.json")}
    done = grade_all(folder, out, specs, "--jobs", "1")
    assert "2 submissions: all 2 reused" in done.stdout, done.stdout + done.stderr
    assert before == {p.name: p.stat().st_mtime_ns for p in (out / "results").glob("*.json")}


def test_a_changed_submission_is_graded_again_without_force(graded, specs):
    folder, out = graded
    assert float(totals(out)["bob"]) == 0
    (folder / "bob.py").write_text(SOLUTION.read_text())  # bob uploads a corrected file
    done = grade_all(folder, out, specs, "--jobs", "1")
    assert "1 reused, 1 graded (1 changed submission)" in done.stdout, done.stdout + done.stderr
    assert float(totals(out)["bob"]) == total_points(specs)


def test_a_spec_change_regrades_everyone(graded, specs):
    folder, out = graded
    before = total_points(specs)
    spec = specs / "patch-count.yaml"
    spec.write_text(spec.read_text().replace("points: 2", "points: 5", 1))
    assert total_points(specs) == before + 3
    done = grade_all(folder, out, specs, "--jobs", "1")
    assert "2 submissions: spec change: all 2 graded" in done.stdout, done.stdout + done.stderr
    assert float(totals(out)["alice"]) == before + 3


def test_a_changed_checkpoint_file_under_the_specs_is_a_spec_change(specs):
    before = specs_sha256(specs)
    (specs / "checkpoints").mkdir()
    (specs / "checkpoints" / "tiny.npz").write_bytes(b"weights")
    assert specs_sha256(specs) != before


def test_a_removed_submission_keeps_its_row_with_no_grade_and_a_note(graded, specs):
    folder, out = graded
    (folder / "bob.py").unlink()
    done = grade_all(folder, out, specs, "--jobs", "1")
    assert "1 submissions: all 1 reused" in done.stdout
    assert "bob has no submission in the class folder any more" in done.stdout
    rows = csv_rows(out)
    assert rows["bob"]["Final Points"] == "" and rows["alice"]["Final Points"] != ""
    assert (out / "results" / "bob.json").is_file()  # the record is kept
    page = (out / "report.html").read_text()
    assert "no submission in the class folder any more" in page.split("Needs a look", 1)[1]
