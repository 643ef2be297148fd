"""The instructor's own path, as a new user found it (issue 37, item 5): `validate` reports every
problem of a file, `validate`/`compile`/`render` take `--exercises DIR`, a spec that breaks while
grading keeps its points in the total, `new` and `assign` say what they wrote."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.cli import main

from conftest import EXERCISES, SOLUTION

MISSPELT = """\
id: three-typos
title: Three typos
lecture: Practice 1
uses: [num_patches]
checks:
  - name: counts
    call: num_patches
    tolerence: 0
    cases:
      - {args: [224, 224, 16], expect: 196}
  - name: more counts
    call: num_patches
    hnit: P divides H and W
    cases:
      - {args: [32, 32, 4], expect: 64}
  - name: even more
    call: num_patches
    cases:
      - {args: [8, 8, 2], expect: 16, rasies: ValueError}
"""


@pytest.fixture
def course(tmp_path: Path) -> Path:
    """A copy of the shipped exercises folder (without its compiled data: faster to copy)."""
    folder = tmp_path / "exercises"
    shutil.copytree(EXERCISES, folder, ignore=shutil.ignore_patterns("compiled"))
    return folder


def test_validate_reports_every_problem_of_a_file_in_one_run(tmp_path, capsys):
    folder = tmp_path / "specs"
    folder.mkdir()
    (folder / "typos.yaml").write_text(MISSPELT)
    assert main(["validate", "--exercises", str(folder)]) == 1
    out = capsys.readouterr().out
    problems = [line for line in out.splitlines() if "typos.yaml:" in line]
    assert [line.split(": ")[0].rsplit(":", 1)[1] for line in problems] == ["8", "13", "19"], out
    assert "'tolerence'" in problems[0] and "'hnit'" in problems[1] and "'rasies'" in problems[2]
    assert "did you mean 'hint'" in problems[1]


def test_a_spec_with_several_kinds_of_problem_gets_one_line_each(tmp_path, capsys):
    folder = tmp_path / "specs"
    folder.mkdir()
    (folder / "bad.yaml").write_text(
        "id: bad\nlecture: Practice 1\norder: first\nuses: [num_patches]\ntittle: x\nchecks:\n"
        "  - name: a\n    call: num_patches\n"
        "    answer: {key: k, correct: b, options: {b: x, c: y}}\n"
        "  - nmae: b\n    call: num_patches\n    points: two\n    cases: [{args: [4, 4, 2]}]\n")
    assert main(["validate", str(folder)]) == 1
    out = capsys.readouterr().out
    for expected in ("bad.yaml:1: the spec is missing the key 'title'",
                     "bad.yaml:3: order must be an integer", "bad.yaml:5: unknown key 'tittle'",
                     "bad.yaml:7: checks[0] needs exactly one of",
                     "bad.yaml:10: unknown key 'nmae'",
                     "bad.yaml:12: checks[1].points must be a number"):
        assert expected in out, out
    assert "Traceback" not in out


def test_grading_still_shows_one_line_per_broken_spec(tmp_path):
    from grader.checks.catalogue import load_exercises

    (tmp_path / "typos.yaml").write_text(MISSPELT)
    _, errors = load_exercises(tmp_path)
    assert len(errors) == 1 and str(errors[0]).endswith("did you mean 'compare'? (compare: How "
                                                        "the student's value is compared with "
                                                        "the expected one: a mode (count, equal,"
                                                        " allclose), or {mode: allclose, rtol: "
                                                        "..., atol: ...} with its tolerances.)")


@pytest.mark.parametrize("command", [["validate"], ["compile", "--check"], ["render", "--check"]])
def test_instructor_commands_take_exercises_dir(course, command, tmp_path, capsys,
                                                monkeypatch):
    monkeypatch.chdir(tmp_path)  # no exercises/ here: only --exercises names the folder
    status = main([*command, "--exercises", str(course)])
    out, err = capsys.readouterr()
    assert "unrecognized arguments" not in err
    assert status in (0, 1), err
    assert str(course) in out + err


def test_a_broken_spec_keeps_its_points_in_the_total_as_not_graded(tmp_path, capsys):
    from grader.checks.catalogue import load_exercises

    folder = tmp_path / "exercises"
    shutil.copytree(EXERCISES, folder)
    exercises, _ = load_exercises(folder)
    total = sum(e.points for e in exercises)
    broken = next(e for e in exercises if e.id == "patchify")
    spec = folder / Path(broken.path).name
    spec.write_text("tittle: a misspelt key\n" + spec.read_text())
    assert main(["grade", str(SOLUTION), "--exercises", str(folder)]) == 1
    out = capsys.readouterr().out
    total_line = next(line for line in out.splitlines() if line.startswith("total"))
    assert f"{total - broken.points:g} / {total:g}" in total_line, out
    assert "not graded: its spec is broken" in out and "patchify" in out


def test_new_function_lists_every_file_it_wrote(tmp_path, capsys):
    folder = tmp_path / "exercises"
    main(["new", "token-scale", "--function", "token_scale", "--exercises", str(folder)])
    out = capsys.readouterr().out
    assert f"wrote {folder / 'token-scale.yaml'}" in out
    assert f"wrote {folder / 'reference' / 'token_scale.py'}" in out
    main(["new", "token-scale-2", "--function", "token_scale", "--exercises", str(folder)])
    out = capsys.readouterr().out
    assert f"kept {folder / 'reference' / 'token_scale.py'}: it exists" in out
    assert f"wrote {folder / 'reference'}" not in out


def test_assign_says_what_it_wrote(tmp_path, capsys):
    target = tmp_path / "template"
    assert main(["assign", str(SOLUTION.parent), str(target)]) == 0
    out = capsys.readouterr().out
    for name in ("vit_exercises.py", "vit_exercises.ipynb"):
        assert f"wrote {target / name} (from " in out, out
    assert f"wrote 2 student version(s) in {target}" in out


def test_the_walk_throughs_buggy_fixtures_are_new_files():
    """Each buggy fixture docs/authoring.md tells to write is `<exercise id>--<misconception>.py`:
    the id is the new exercise's, so following the page never overwrites a shipped fixture."""
    import re

    from conftest import ROOT

    text = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    named = set(re.findall(r"tests/submissions/buggy/([\w.-]+\.py)", text))
    assert named >= {"patches-small-image--floor_division_count.py",
                     "sincos-positions--sincos_swapped.py"}, named
    assert all("--" in name for name in named), named
    # a name with `--` is the page's form: the exercise's own id, then the misconception it must
    # name (a file there was written by following the page, for that exercise); no other has it
    for path in (ROOT / "tests" / "submissions" / "buggy").glob("*--*.py"):
        exercise, misconception = path.stem.split("--", 1)
        assert f'"{exercise}": "{misconception}"' in path.read_text(encoding="utf-8"), path
