"""`vitgrade grade-all --shard K/N` and `vitgrade merge`: three shards of a class, merged, are the
single run's grades.csv, feedback and report; mixed spec versions are refused."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_batch import grade_all

from grader.batch.shards import Shard, ShardError, parse_shard, shard_of

from conftest import ROOT, SOLUTION, TEMPLATE

STUDENTS = ["alice", "bob", "carol", "dave", "gina", "ken"]  # two in each of three shards


def merge(*outputs: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader.cli", "merge",
                           *map(str, outputs), "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture(scope="module")
def class_folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("class")
    solution, template = SOLUTION.read_text(), TEMPLATE.read_text()
    for i, student in enumerate(STUDENTS):
        (folder / f"{student}.py").write_text(solution if i % 2 else template)
    (folder / "ken.py").write_text(solution.replace("return (H // P) * (W // P)",
                                                      "return (H - P + 1) * (W - P + 1)"))
    return folder


@pytest.fixture(scope="module")
def shards(class_folder, specs, tmp_path_factory) -> list[Path]:
    outputs = []
    for k in (1, 2, 3):
        out = tmp_path_factory.mktemp(f"shard{k}")
        done = grade_all(class_folder, out, specs, "--jobs", "1", "--shard", f"{k}/3")
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.startswith(f"shard {k}/3: ")
        outputs.append(out)
    return outputs


def sorted_lines(path: Path) -> list[str]:
    return sorted(path.read_text().splitlines())


def test_three_shards_merged_are_one_run_over_the_class(class_folder, specs, shards, tmp_path):
    whole = tmp_path / "whole"
    done = grade_all(class_folder, whole, specs, "--jobs", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    merged = merge(*shards, out=tmp_path / "merged")
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert "6 students" in merged.stdout
    assert sorted_lines(tmp_path / "merged" / "grades.csv") == sorted_lines(whole / "grades.csv")
    assert len(sorted_lines(whole / "grades.csv")) == 1 + len(STUDENTS)
    for student in STUDENTS:
        name = f"feedback/{student}.md"
        assert (tmp_path / "merged" / name).read_text() == (whole / name).read_text()
    assert (tmp_path / "merged" / "report.html").read_text() == (whole / "report.html").read_text()


def test_each_student_is_graded_in_exactly_one_shard(shards):
    held = [sorted(p.stem for p in (out / "results").glob("*.json")) for out in shards]
    assert sorted(s for students in held for s in students) == STUDENTS
    for k, students in enumerate(held, start=1):
        assert students and all(shard_of(s, 3) == k for s in students)


def test_merge_refuses_shards_graded_from_other_specs(class_folder, specs, shards, tmp_path):
    other = tmp_path / "exercises"
    shutil.copytree(specs, other)
    spec = other / "patch-count.yaml"
    spec.write_text(spec.read_text().replace("points: 2", "points: 5", 1))
    changed = tmp_path / "shard2"
    done = grade_all(class_folder, changed, other, "--jobs", "1", "--shard", "2/3")
    assert done.returncode == 0, done.stdout + done.stderr
    merged = merge(shards[0], changed, shards[2], out=tmp_path / "merged")
    assert merged.returncode == 2
    assert "graded with other specs" in merged.stderr
    assert not (tmp_path / "merged" / "grades.csv").exists()


def test_merge_reports_duplicated_students_and_missing_shards(shards, tmp_path):
    again = tmp_path / "again"
    shutil.copytree(shards[0], again)
    merged = merge(shards[0], again, shards[1], out=tmp_path / "merged")
    assert merged.returncode == 1, merged.stdout + merged.stderr
    assert "missing shards: 3/3" in merged.stdout
    first = sorted(p.stem for p in (shards[0] / "results").glob("*.json"))
    assert first and all(f"duplicated: {s} is in" in merged.stdout for s in first)


def test_merge_refuses_a_folder_that_is_not_a_grade_all_output(tmp_path):
    merged = merge(tmp_path, out=tmp_path / "merged")
    assert merged.returncode == 2 and "not an output of `vitgrade grade-all`" in merged.stderr


# --- choosing the shard ---------------------------------------------------------------------

def test_a_shard_is_chosen_by_a_hash_of_the_id_so_new_students_move_nobody():
    before = {f"s{i}": shard_of(f"s{i}", 4) for i in range(50)}
    assert set(before.values()) == {1, 2, 3, 4}
    assert all(Shard(k, 4).holds(s) for s, k in before.items())


@pytest.mark.parametrize(("environ", "shard"), [
    ({"VITGRADE_SHARD": "2/5"}, Shard(2, 5)),
    ({"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"},
     Shard(3, 4)),
    ({"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"},
     Shard(1, 4)),
    ({"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1",
      "SLURM_ARRAY_TASK_STEP": "2"}, Shard(3, 4)),  # --array=1-7:2
    ({"JOB_COMPLETION_INDEX": "0", "VITGRADE_SHARDS": "3"}, Shard(1, 3)),
])
def test_shard_auto_reads_the_schedulers_variables(environ, shard):
    assert parse_shard("auto", environ) == shard


@pytest.mark.parametrize(("text", "environ", "message"), [
    ("4/3", {}, "does not exist"),
    ("two", {}, "is not K/N"),
    ("auto", {}, "none of VITGRADE_SHARD"),
    ("auto", {"JOB_COMPLETION_INDEX": "1"}, "VITGRADE_SHARDS is not set"),
])
def test_a_shard_that_does_not_exist_is_refused_naming_where_it_came_from(text, environ,
                                                                           message):
    with pytest.raises(ShardError, match=message):
        parse_shard(text, environ)
