"""Results are never written through a symlink: a link planted for a missing folder of a results
path is refused, a link at the final name is replaced, not followed (grader/report/safe_files.py).
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.report.outputs import write_json_atomic
from grader.report.safe_files import UnsafePathError, open_for_append

from conftest import EXERCISES, ROOT, SOLUTION

SPEC = "patch-count.yaml"  # one small exercise keeps each grading quick


@pytest.fixture(scope="module")
def specs(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("exercises")
    shutil.copy(EXERCISES / SPEC, folder / SPEC)
    return folder


@pytest.fixture
def planted(tmp_path) -> tuple[Path, Path]:
    """(tmp/a, where it points): a symlink a submission could have left for a missing folder."""
    target = tmp_path / "students-choice"
    target.mkdir()
    (tmp_path / "a").symlink_to(target)
    return tmp_path / "a", target


def vitgrade(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)


def test_grade_refuses_a_json_path_through_a_planted_link(planted, specs):
    link, target = planted
    done = vitgrade("grade", str(SOLUTION), "-q", "--exercises", str(specs),
                    "--json", str(link / "b" / "results.json"))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "results written" not in done.stdout
    assert f"{link} is a symbolic link" in done.stderr and "results.json" in done.stderr
    assert list(target.iterdir()) == []


def test_grade_refuses_a_prairielearn_path_through_a_planted_link(planted, specs):
    link, target = planted
    done = vitgrade("grade", str(SOLUTION), "-q", "--exercises", str(specs),
                    "--prairielearn", str(link / "results.json"))
    assert done.returncode == 2 and "symbolic link" in done.stderr
    assert list(target.iterdir()) == []


def test_grade_replaces_a_link_at_the_final_name_instead_of_following_it(tmp_path, specs):
    victim = tmp_path / "victim.txt"
    victim.write_text("not the grader's to change\n")
    out = tmp_path / "new" / "results.json"
    out.parent.mkdir()
    out.symlink_to(victim)
    done = vitgrade("grade", str(SOLUTION), "-q", "--exercises", str(specs), "--json", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert not out.is_symlink() and json.loads(out.read_text())["score"] > 0
    assert victim.read_text() == "not the grader's to change\n"


def test_missing_folders_are_made_and_no_temporary_file_is_left(tmp_path):
    out = tmp_path / "x" / "y" / "results.json"
    write_json_atomic(out, {"score": 1})
    assert json.loads(out.read_text()) == {"score": 1}
    assert oct(out.stat().st_mode & 0o777) == oct(0o644)
    assert [p.name for p in out.parent.iterdir()] == ["results.json"]


def test_a_relative_path_is_checked_from_the_working_folder(tmp_path, monkeypatch, planted):
    link, target = planted
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UnsafePathError, match="a is a symbolic link"):
        write_json_atomic(Path("a") / "results.json", {"score": 1})
    assert list(target.iterdir()) == []


def test_a_file_where_a_folder_should_be_is_refused(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(UnsafePathError, match="is not a folder"):
        write_json_atomic(tmp_path / "file" / "results.json", {})


def test_a_link_where_the_results_go_ends_pytest_with_exit_code_2(planted, grade_with):
    """`pytest --student` checks nothing before grading (`vitgrade grade` does): the plugin
    refuses the link when it writes, after the table."""
    link, target = planted
    result = grade_with(SOLUTION, "--json", str(link / "results.json"))
    assert result.ret == 2 and "symbolic link" in result.stderr.str()
    assert "Traceback" not in result.stderr.str() and "total" in result.stdout.str()
    assert list(target.iterdir()) == []


def test_a_log_file_that_is_a_link_is_refused(tmp_path):
    victim = tmp_path / "victim.log"
    victim.write_text("")
    (tmp_path / "job-1.log").symlink_to(victim)
    with pytest.raises(UnsafePathError, match="symbolic link"):
        open_for_append(tmp_path / "job-1.log")
    assert victim.read_text() == ""


def test_grade_all_refuses_an_out_folder_with_a_planted_feedback_link(tmp_path, specs):
    submissions, out, target = tmp_path / "class", tmp_path / "out", tmp_path / "elsewhere"
    for folder in (submissions, out, target):
        folder.mkdir()
    (submissions / "alice.py").write_text(SOLUTION.read_text())
    (out / "feedback").symlink_to(target)
    done = vitgrade("grade-all", str(submissions), "--out", str(out), "--exercises", str(specs),
                    "--no-progress", "--jobs", "1")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{out / 'feedback'} is a symbolic link" in done.stderr
    assert list(target.iterdir()) == [] and not (out / "results" / "alice.json").exists()
