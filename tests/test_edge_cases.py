"""Honest edge cases: what `vitgrade grade` says when a submission is not what it expects."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest

from grader.worker.hiding import NO_NAMESPACES

from conftest import EXERCISES, SOLUTION

SPECS = ("patch-count", "patchify", "pretrained-or-scratch")  # a call, arrays, an answer


@pytest.fixture
def specs(tmp_path):
    """A few of the course's specs: quick to grade, and each kind of check."""
    folder = tmp_path / "specs"
    folder.mkdir()
    for name in SPECS:
        shutil.copy(EXERCISES / f"{name}.yaml", folder)
    return folder


def vitgrade(*args, cwd):
    return subprocess.run([sys.executable, "-m", "grader.cli", "grade", *map(str, args)],
                          cwd=cwd, capture_output=True, text=True, timeout=120)


# --- a submission that cannot be loaded ---------------------------------------

UNLOADABLE = {
    "syntax error": ("broken.py", "def num_patches(H, W, P):\n    return (H // P\n",
                     "broken.py:2: SyntaxError: '(' was never closed"),
    "not found": ("nope.py", None, "nope.py: file not found"),
    "not .py or .ipynb": ("answers.txt", "ANSWERS = {}\n", "not a Python module or notebook"),
}


@pytest.mark.parametrize("name, text, reason", UNLOADABLE.values(), ids=UNLOADABLE)
def test_an_unloadable_submission_gets_one_message_and_exit_2(tmp_path, specs, name, text,
                                                              reason):
    if text is not None:
        (tmp_path / name).write_text(text)
    done = vitgrade(name, "--exercises", specs, "--json", "out.json", cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    said = [line for line in lines if reason in line]
    assert len(said) == 1 and said[0].startswith(f"could not grade {name}: ")
    rows = [line for line in lines if line.split(" ")[0] in SPECS]
    assert len(rows) == len(SPECS) and all(row.endswith("  not graded") for row in rows)
    assert "not defined yet" not in done.stdout and "must be a dict" not in done.stdout
    assert "results written to out.json" in done.stdout
    results = json.loads((tmp_path / "out.json").read_text())
    assert results["score"] == 0
    why = said[0].removeprefix(f"could not grade {name}: ")
    assert all(f"not graded: the submission could not be loaded: {why}" in t["output"]
               for t in results["tests"] if t["visibility"] == "visible")


@pytest.mark.parametrize("namespaces", [True, False], ids=["namespaces", "fallback"])
@pytest.mark.parametrize("file_mb, size_mb", [(1, 5), (64, 3000)])
def test_a_file_past_file_mb_is_not_read_and_gets_one_line(tmp_path, specs, file_mb, size_mb,
                                                           monkeypatch, namespaces):
    """A (sparse) file larger than --file-mb: at most that much is read, before any limit applies
    (the worker reads it with the grader's rights), and the student is told the limit; with
    namespaces and without (VITGRADE_NO_NAMESPACES=1)."""
    monkeypatch.setenv(NO_NAMESPACES, str(int(not namespaces)))
    big = tmp_path / "vit_exercises.py"
    with big.open("wb") as handle:
        handle.write(b"ANSWERS = {}\n")
        handle.truncate(size_mb * 2**20)
    done = vitgrade(big.name, "--exercises", specs, "--file-mb", file_mb, cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
    assert (f"could not grade vit_exercises.py: vit_exercises.py: the file is more than "
            f"{file_mb} MB, the largest the grader reads (--file-mb)") in done.stdout
    assert "grader/" not in done.stdout + done.stderr


def test_pytest_student_exits_2_when_the_submission_cannot_be_loaded(pytester, grade_with, specs):
    student = pytester.makepyfile(student="def num_patches(H, W, P)\n    return 0\n")
    result = grade_with(student, exercises=specs)
    assert result.ret == 2
    result.stdout.fnmatch_lines(["could not grade *student.py: student.py:1: SyntaxError*"])


def test_a_submission_that_loads_still_exits_1_or_0(tmp_path, specs):
    (tmp_path / "mine.py").write_text("def num_patches(H, W, P):\n    return 0\n")
    assert vitgrade("mine.py", "--exercises", specs, cwd=tmp_path).returncode == 1
    assert vitgrade(SOLUTION, "--exercises", specs, cwd=tmp_path).returncode == 0


# --- a folder -----------------------------------------------------------------

def test_grade_folder_grades_the_submission_in_it_and_says_which(tmp_path, specs):
    folder = tmp_path / "alice"
    (folder / "scratch").mkdir(parents=True)
    shutil.copy(SOLUTION, folder / "vit_exercises.py")
    (folder / "scratch" / "notes.py").write_text("x = 1\n")
    done = vitgrade("alice", "--exercises", specs, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "grading alice/vit_exercises.py (the submission in alice)" in done.stdout
    assert "submission: alice/vit_exercises.py" in done.stdout


def test_grade_a_folder_without_a_submission_says_what_it_expects(tmp_path, specs):
    (tmp_path / "empty").mkdir()
    done = vitgrade("empty", "--exercises", specs, cwd=tmp_path)
    assert done.returncode == 2
    assert "no vit_exercises.py or .ipynb in empty" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_pytest_student_folder_grades_the_submission_in_it(pytester, grade_with, specs):
    (pytester.path / "bob").mkdir()
    shutil.copy(SOLUTION, pytester.path / "bob" / "homework.py")
    result = grade_with(pytester.path / "bob", exercises=specs)
    assert result.ret == 0
    result.stdout.fnmatch_lines(["submission: bob/homework.py"])


def test_pytest_student_folder_without_a_submission_is_a_usage_error(pytester, grade_with,
                                                                     specs):
    (pytester.path / "empty").mkdir()
    result = grade_with(pytester.path / "empty", exercises=specs)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*no vit_exercises.py or .ipynb in *empty*"])
    assert "IsADirectoryError" not in result.stdout.str() + result.stderr.str()


# --- nested lists and tuples where arrays are expected -------------------------

def wrapped(name: str, returns: str) -> str:
    """The solution, with `name` returning `returns` (of `r`, the solution's array) instead."""
    return (SOLUTION.read_text()
            + f"\n\n_{name} = {name}\n\n\ndef {name}(*args, **kwargs):\n"
              f"    r = _{name}(*args, **kwargs)\n    return {returns}\n")


NESTED = {
    "patchify(...).tolist()": ("patchify", "patchify", "r.tolist()"),
    "a tuple of tuples": ("patchify", "patchify", "tuple(map(tuple, r))"),
    "a list of 1-D arrays": ("patchify", "patchify", "list(r)"),
    "a tuple of lists (conv_patch_embed)": ("kernel-stride", "conv_patch_embed",
                                            "tuple(row.tolist() for row in r)"),
    "a list of 1-D arrays (self_attention)": ("why-positions", "self_attention", "list(r)"),
}


@pytest.mark.parametrize("spec, name, returns", NESTED.values(), ids=NESTED)
def test_nested_lists_and_tuples_are_accepted_as_arrays(tmp_path, spec, name, returns):
    (tmp_path / "specs").mkdir()
    shutil.copy(EXERCISES / f"{spec}.yaml", tmp_path / "specs")
    (tmp_path / "mine.py").write_text(wrapped(name, returns))
    done = vitgrade("mine.py", "--exercises", "specs", "--json", "out.json", cwd=tmp_path)
    results = json.loads((tmp_path / "out.json").read_text())
    assert (done.returncode, results["score"]) == (0, results["max_score"]), done.stdout


@pytest.mark.parametrize("spec, name", [("patchify", "patchify"),
                                        ("why-positions", "self_attention")])
def test_a_ragged_list_gets_a_one_line_message_not_an_internal_error(tmp_path, spec, name):
    (tmp_path / "specs").mkdir()
    shutil.copy(EXERCISES / f"{spec}.yaml", tmp_path / "specs")
    (tmp_path / "mine.py").write_text(wrapped(name, "[list(r[0]), [1.0]]"))
    done = vitgrade("mine.py", "--exercises", "specs", cwd=tmp_path)
    assert done.returncode == 1
    assert "internal grader error" not in done.stdout
    assert "cannot be read as one numeric array" in done.stdout or (
        "expected a finite array of shape" in done.stdout)


# --- the command line -----------------------------------------------------------

def test_vitgrade_version_prints_the_installed_version(tmp_path):
    from importlib.metadata import version

    done = subprocess.run([sys.executable, "-m", "grader.cli", "--version"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, f"vitgrade {version('vit-grader')}")


def test_grade_quiet_prints_only_the_table_and_the_results_line(tmp_path, specs):
    (tmp_path / "mine.py").write_text("def num_patches(H, W, P):\n    return 0\n")
    (specs / ".course-secret").write_text("s\n")  # a student's own variants: no shared-version note
    done = vitgrade("mine.py", "-q", "--exercises", specs, "--json", "out.json",
                    "--student-id", "ada", cwd=tmp_path)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0] == "submission: mine.py" and lines[1].startswith("exercises: ")
    assert lines[2].startswith("exercise ") and lines[-2].startswith("total ")
    assert lines[-1] == "results written to out.json" and len(lines) == 6 + len(SPECS)
    assert not done.stderr


def test_grade_without_quiet_prints_the_feedback_the_table_and_a_closing_line(tmp_path, specs):
    (tmp_path / "mine.py").write_text("def num_patches(H, W, P):\n    return 0\n")
    done = vitgrade("mine.py", "--exercises", specs, cwd=tmp_path)
    lines = done.stdout.splitlines()
    feedback = lines.index("  x the lecture's sizes (0 / 2)")
    table = lines.index("submission: mine.py")
    assert "expected: " in done.stdout and feedback < table
    assert re.fullmatch(rf"{len(SPECS)} exercises graded in [0-9.]+ s: 0 with full marks, "
                        rf"{len(SPECS)} with points lost", lines[-1]), lines[-1]
    assert done.returncode == 1 and not done.stderr


def test_the_closing_line_reads_right_for_one_exercise_and_for_several():
    """Blind round 52's summary, "16 with full marks, 1 lost points": each count is said so that
    1 and many both read right."""
    from grader.checks.results import FAILED, PASSED, CheckResult, ExerciseResult, GradeReport
    from grader.report.terminal import closing_line

    def exercise(name, status):
        check = CheckResult("a check", 1, 1 if status == PASSED else 0, status)
        return ExerciseResult(name, name, "", (check,))

    for full, lost in ((16, 1), (1, 16), (2, 2)):
        report = GradeReport("mine.py", tuple(
            [exercise(f"ok{i}", PASSED) for i in range(full)]
            + [exercise(f"lost{i}", FAILED) for i in range(lost)]), seconds=0.5)
        assert closing_line(report) == (f"{full + lost} exercises graded in 0.5 s: {full} with "
                                        f"full marks, {lost} with points lost")
