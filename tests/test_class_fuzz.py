"""A class run nothing a student hands in can stop (part of the hostile suite, issue 23 items 1
and 5): honest students beside files that are JSON nested 200,000 deep, truncated or binary
notebooks, invalid UTF-8 and UTF-16 sources, a notebook of nbformat 3 and one with cells of an
unknown type, 0 bytes, a single 50 MB line, a `.py` that is a folder, a FIFO or a looping link.
Every honest student gets the row a class without those files gives them, report.html is
written, each broken file gets a readable note, and a FIFO blocks nobody. Then similar code: a
class whose shards would disagree (a function common in the class, rare in one shard) lists,
merged, exactly what one run lists, and no shard lists a pair of its own."""
from __future__ import annotations

import csv
import json
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from test_batch import grade_all, total_points
from test_batch_shards import merge
from test_similarity import COPIED, ORIGINAL, SimilarTable, with_functions

from grader.batch.discover import discover
from grader.batch.fingerprints import submission_sha256
from grader.batch.shards import shard_of

from conftest import ROOT, SOLUTION, TEMPLATE

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="FIFOs and the sandbox are Linux's")

NOTEBOOK = ROOT / "solutions" / "vit_exercises.ipynb"
DEPTH = 200_000
BUG = ("return (H // P) * (W // P)", "return (H - P + 1) * (W - P + 1)")
# what each broken file's note must say (None: graded as what it is, with a row and feedback)
BROKEN = {"deep": "nested too deeply", "truncated": "not valid JSON", "binary": "not text",
          "utf16": "SyntaxError", "badbytes": "SyntaxError", "empty": None, "long": None,
          "folder": "not a regular file", "fifo": "not a regular file",
          "loop": "symbolic link"}
READ_LIKE_THE_SOLUTION = ("v3", "oddcells")  # older or unusual notebooks of the solution
BOUND_SECONDS = 120  # for one file, which takes a few seconds: more is a hang


def honest_class(folder: Path) -> None:
    solution = SOLUTION.read_text()
    (folder / "alice.py").write_text(solution)
    (folder / "bob.ipynb").write_text(NOTEBOOK.read_text())
    (folder / "carol.py").write_text(solution.replace(*BUG))
    (folder / "dora.py").write_text(TEMPLATE.read_text())


def broken_files(folder: Path) -> None:
    solution, notebook = SOLUTION.read_text(), json.loads(NOTEBOOK.read_text())
    nested = json.dumps({**notebook, "metadata": {"x": None}})
    nested = nested.replace('"x": null', '"x": ' + "[" * DEPTH + "]" * DEPTH)
    assert 350_000 < len(nested) < 500_000  # valid JSON, ~400 KB
    (folder / "deep.ipynb").write_text(nested)
    whole = json.dumps(notebook)
    (folder / "truncated.ipynb").write_text(whole[: len(whole) // 2])
    (folder / "binary.ipynb").write_bytes(random.Random(0).randbytes(4096))
    (folder / "utf16.py").write_bytes(solution.encode("utf-16"))
    (folder / "badbytes.py").write_bytes(b"name = '\xff\xfe caf\xe9'\n" + solution.encode())
    (folder / "v3.ipynb").write_text(json.dumps({
        "nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": [{"cells": [
            {"cell_type": "code", "input": solution, "language": "python", "outputs": []}]}]}))
    odd = [{"cell_type": "weird", "source": "x", "metadata": {}}, *notebook["cells"]]
    (folder / "oddcells.ipynb").write_text(json.dumps({**notebook, "cells": odd}))
    (folder / "empty.py").write_bytes(b"")
    (folder / "long.py").write_bytes(b"x = '" + b"a" * (50 << 20) + b"'")
    (folder / "folder.py").mkdir()
    os.mkfifo(folder / "fifo.py")
    (folder / "loop.py").symlink_to("loop2.py")
    (folder / "loop2.py").symlink_to("loop.py")


def slow_file(folder: Path) -> None:
    """The solution whose num_patches never returns: its calls hit the call timeout."""
    solution = SOLUTION.read_text()
    slow = solution.replace("def num_patches(H, W, P):", "def num_patches(H, W, P):\n"
                            "    while True:\n        pass\n", 1)
    assert slow != solution
    (folder / "slowpoke.py").write_text(slow)


def surrogate_file(folder: Path) -> None:
    """The solution whose num_patches raises with lone surrogates in its message."""
    solution = SOLUTION.read_text()
    odd = solution.replace("def num_patches(H, W, P):", "def num_patches(H, W, P):\n"
                           "    raise ValueError('\\udcff' * 3)\n", 1)
    assert odd != solution
    (folder / "surrogates.py").write_text(odd)


def rows(out: Path) -> dict[str, dict]:
    with open(out / "grades.csv", newline="") as stream:
        return {row["SIS Login ID"]: {k: v for k, v in row.items() if k not in (
            "SIS Login ID", "Student", "Section")} for row in csv.DictReader(stream)}  # who, what


@pytest.fixture(scope="module")
def graded(specs, tmp_path_factory) -> tuple[Path, Path, subprocess.CompletedProcess]:
    """(the hostile class's output, the honest class's alone, the hostile run)."""
    hostile, honest = tmp_path_factory.mktemp("hostile"), tmp_path_factory.mktemp("honest")
    for folder in (hostile, honest):
        honest_class(folder)
    broken_files(hostile)
    slow_file(hostile)
    surrogate_file(hostile)
    out, alone = tmp_path_factory.mktemp("out"), tmp_path_factory.mktemp("alone")
    done = grade_all(hostile, out, specs, "--jobs", "2", "--call-timeout", "1")  # 120 s at most
    assert grade_all(honest, alone, specs, "--jobs", "2").returncode == 0
    return out, alone, done


def test_the_class_run_ends_and_writes_every_file(graded):
    out, _, done = graded
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    students = set(rows(out))
    assert students >= {"alice", "bob", "carol", "dora", "slowpoke", *BROKEN,
                        *READ_LIKE_THE_SOLUTION}
    assert (out / "report.html").stat().st_size > 0
    for student in students:
        assert (out / "feedback" / f"{student}.md").stat().st_size > 0


def test_honest_students_get_the_row_a_class_without_broken_files_gives(graded, specs):
    out, alone, _ = graded
    mine, theirs = rows(out), rows(alone)
    assert set(theirs) == {"alice", "bob", "carol", "dora"}
    for student, row in theirs.items():
        assert mine[student] == row, student
    full = float(total_points(specs))
    assert float(theirs["alice"]["Final Points"]) == float(theirs["bob"]["Final Points"]) == full
    assert float(theirs["carol"]["Final Points"]) < full
    for student in READ_LIKE_THE_SOLUTION:  # graded as the solution they hold
        assert mine[student] == theirs["alice"], student


def needs_a_look(out: Path) -> dict[str, str]:
    """The "Needs a look" table of report.html: {student: why}."""
    page = (out / "report.html").read_text()
    table = page.split("<h2>Needs a look</h2>", 1)[1].split("</table>", 1)[0]
    cells = [cell.split("</td>", 1)[0] for cell in table.split("<td>")[1:]]
    return dict(zip(cells[::2], cells[1::2], strict=True))


@pytest.mark.parametrize("student", sorted(BROKEN))
def test_each_broken_file_gets_a_readable_note(graded, student):
    out = graded[0]
    feedback = (out / "feedback" / f"{student}.md").read_text()
    for grader_words in ("Traceback", "exit code", "RecursionError", "grader/"):
        assert grader_words not in feedback, feedback[:2000]
    record = json.loads((out / "results" / f"{student}.json").read_text())
    assert record["status"] == "graded", record["reason"]  # the student's file, not the grader
    assert float(rows(out)[student]["Final Points"]) == 0
    expected = BROKEN[student]
    if expected is not None:
        assert expected in record["report"]["fatal"]
        assert expected in needs_a_look(out)[student]
        assert expected in feedback


def test_a_submission_that_hit_a_time_limit_needs_a_look(graded):
    out = graded[0]
    listed = needs_a_look(out)
    assert "time limit" in listed["slowpoke"]
    assert not any(name in listed for name in ("alice", "bob", "carol", "dora"))


def test_a_lone_surrogate_in_a_message_is_written_escaped(graded):
    out = graded[0]
    assert 0 < float(rows(out)["surrogates"]["Final Points"]) < float(rows(out)["alice"][
        "Final Points"])
    assert "ValueError: \\udcff\\udcff\\udcff" in (out / "feedback" / "surrogates.md").read_text()


@pytest.mark.parametrize("name", ["deep.ipynb", "fifo.py", "loop.py"])
def test_graded_alone_a_broken_file_is_contained(specs, tmp_path, name):
    broken_files(tmp_path)
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(tmp_path / name),
                           "--exercises", str(specs), "--json", str(tmp_path / "out.json")],
                          cwd=ROOT, capture_output=True, text=True, timeout=BOUND_SECONDS)
    assert done.returncode in (0, 1, 2), done.stdout + done.stderr  # 2: could not be loaded
    assert "Traceback" not in done.stdout + done.stderr
    results = json.loads((tmp_path / "out.json").read_text())
    assert results["score"] == 0 and BROKEN[name.split(".")[0]] in done.stdout


def test_a_folder_nested_2000_deep_is_listed_and_hashed_by_the_coordinator(tmp_path):
    """What the coordinator does with a student's folder (discover, hash) walks it without
    recursion: Path.rglob ran out of stack at this depth."""
    top = tmp_path / "class" / "stu"
    top.mkdir(parents=True)
    fd = os.open(top, os.O_RDONLY)
    for _ in range(2000):  # by descriptor: the path grows past what one system call takes
        os.mkdir("d", dir_fd=fd)
        fd, parent = os.open("d", os.O_RDONLY, dir_fd=fd), fd
        os.close(parent)
    os.close(fd)
    try:
        (submission,), _ = discover(tmp_path / "class")
        assert submission.path == top  # no file to grade in it: graded as the folder, refused
        assert submission_sha256(top) != submission_sha256(tmp_path)
    finally:  # one level at a time: shutil.rmtree recurses too
        while (top / "d").exists():
            (top / "d").rename(top / "x")
            if (top / "x" / "d").exists():
                (top / "x" / "d").rename(top / "d")
            (top / "x").rmdir()


# --- similar code: a property of the class, not of the shard ---------------------------------

SHARDS = 3


def names_in(shard: int, count: int, taken: set[str]) -> list[str]:
    """`count` new student ids that shard `shard` of SHARDS holds."""
    found = [f"s{i:03d}" for i in range(1000) if shard_of(f"s{i:03d}", SHARDS) == shard
             and f"s{i:03d}" not in taken]
    return found[:count]


@pytest.fixture(scope="module")
def similarity_class(tmp_path_factory) -> tuple[Path, list[str], tuple[str, str]]:
    """A class of 8 where four students wrote the same self_attention (common in the class:
    more than 3 of 8; three of them in shard 1, where it looks rare), and one pair, in shards 2
    and 3, copied a layer_norm (rare in the class)."""
    folder = tmp_path_factory.mktemp("similar")
    solution = SOLUTION.read_text()
    common = names_in(1, 3, set()) + names_in(2, 1, set())
    copier, copied = names_in(2, 1, set(common))[0], names_in(3, 1, set())[0]
    others = names_in(3, 2, {copied})
    for student in common:
        (folder / f"{student}.py").write_text(
            with_functions(solution, {"self_attention": ORIGINAL["self_attention"]}))
    (folder / f"{copier}.py").write_text(
        with_functions(solution, {"layer_norm": ORIGINAL["layer_norm"]}))
    (folder / f"{copied}.py").write_text(
        with_functions(solution, {"layer_norm": COPIED["layer_norm"]}))
    for student in others:
        (folder / f"{student}.py").write_text(solution)
    return folder, common, (copier, copied)


def similar_rows(report: Path) -> list[list[str]]:
    table = SimilarTable()
    table.feed(report.read_text())
    return [row for row in table.rows if row]


def similar_section(report: Path) -> str:
    page = report.read_text()
    return page.split("<h2>Similar code</h2>", 1)[1].split("<h2>", 1)[0]


def test_shards_merged_list_exactly_what_one_run_lists(similarity_class, specs, tmp_path):
    folder, common, pair = similarity_class
    whole = tmp_path / "whole"
    assert grade_all(folder, whole, specs, "--jobs", "2").returncode == 0
    listed = similar_rows(whole / "report.html")
    assert [tuple(sorted(row[:2])) for row in listed] == [tuple(sorted(pair))]  # not `common`
    shards = []
    with ThreadPoolExecutor(SHARDS) as pool:
        runs = [pool.submit(grade_all, folder, tmp_path / f"shard{k}", specs, "--jobs", "1",
                            "--shard", f"{k}/{SHARDS}") for k in range(1, SHARDS + 1)]
        for k, run in enumerate(runs, start=1):
            done = run.result()
            assert done.returncode == 0, done.stdout + done.stderr
            assert "compared over the whole class when the shards are merged" in done.stdout
            shards.append(tmp_path / f"shard{k}")
    for out in shards:  # what one shard holds cannot say what is rare in the class
        assert similar_rows(out / "report.html") == []
        assert "when the shards are merged" in similar_section(out / "report.html")
    merged = merge(*shards, out=tmp_path / "merged")
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert similar_section(tmp_path / "merged" / "report.html") == similar_section(
        whole / "report.html")
