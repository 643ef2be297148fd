"""Feedback levels (issue 37, item 1): score, name, hint, expected, full; per check, per exercise,
per platform (course.yaml), on the command line and in the environment, through every entry point;
and no level lets a hidden case's inputs or expected value out, in any output format."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import ROOT

LEVELS = ("score", "name", "hint", "expected", "full")
SPEC = textwrap.dedent("""\
    id: counting
    title: Count patches
    lecture: Practice 1
    uses: [num_patches]
    checks:
      - name: visiblename sizes
        points: 2
        call: num_patches
        compare: count
        hint: HINTVISIBLE count the tiles.
        cases:
          - args: [60600, 30300, 101]
            expect: 180000
      - name: hiddenname sizes
        points: 1
        hidden: true
        call: num_patches
        compare: count
        hint: HINTHIDDEN think again.
        cases:
          - args: [313799, 315817, 1009]
            expect: 97343
    """)
STUDENT = ("def num_patches(H, W, P):\n"
           "    print('PRINTEDMARK')\n"
           "    return (H - P + 1) * (W - P + 1)\n")
VISIBLE_INPUT, VISIBLE_EXPECTED, VISIBLE_GOT = "60600", "180000", str(60500 * 30200)
# a hidden case's inputs, its expected value and what the student's code returned there
HIDDEN = ("313799", "315817", "97343", str(312791 * 314809))


def course(tmp_path: Path, spec: str = SPEC, course_yaml: str | None = None) -> Path:
    folder = tmp_path / "exercises"
    folder.mkdir(exist_ok=True)
    (folder / "counting.yaml").write_text(spec)
    if course_yaml is not None:
        (folder / "course.yaml").write_text(course_yaml)
    (tmp_path / "student.py").write_text(STUDENT)
    return folder


def shown_at(level: str, text: str, visible_only: bool = False) -> None:
    """What `level` lets through of the visible check, and nothing of the hidden case's data."""
    for secret in HIDDEN:
        assert secret not in text, (level, secret)
    full, expected, hint, name = (LEVELS.index(level) >= LEVELS.index(x)
                                  for x in ("full", "expected", "hint", "name"))
    assert (VISIBLE_INPUT in text) == full and ("PRINTEDMARK" in text) == full, level
    assert ("to reproduce" in text) == full, level
    assert (VISIBLE_EXPECTED in text) == expected and (VISIBLE_GOT in text) == expected, level
    assert ("HINTVISIBLE" in text) == hint, level
    assert ("visiblename" in text) == name, level
    if not visible_only:
        assert ("HINTHIDDEN" in text) == hint and ("hiddenname" in text) == name, level


# -- the levels, through each entry point ---------------------------------------------------------


def run(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env=env)
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return done


# `vitgrade grade`, `pytest --student`, grade-all, check(), the Gradescope wrapper and PrairieLearn
# at each level given by VITGRADE_FEEDBACK: tests/test_settings_everywhere.py


@pytest.mark.parametrize("level", LEVELS)
def test_the_gradescope_wrapper_at_the_courses_gradescope_level(tmp_path, level):
    """The wrapper is the `gradescope` platform: the course's level for it applies, not the one
    for `local`."""
    folder = course(tmp_path, course_yaml=f"feedback: {{local: full, gradescope: {level}}}\n")
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    (root / "submission" / "vit_exercises.py").write_text(STUDENT)
    run("-m", "grader.lms.gradescope_autograder", "--root", str(root), "--exercises",
        str(folder), cwd=ROOT)
    shown_at(level, (root / "results" / "results.json").read_text())
    local = run("-m", "grader.cli", "grade", "student.py", "--exercises", str(folder),
                cwd=tmp_path)
    shown_at("full", local.stdout)


def test_grade_all_uses_the_courses_grade_all_level_and_regrades_at_another(tmp_path):
    folder = course(tmp_path, course_yaml="feedback: {grade-all: name}\n")
    (tmp_path / "class" / "alice").mkdir(parents=True)
    (tmp_path / "class" / "alice" / "vit_exercises.py").write_text(STUDENT)
    command = ("-m", "grader.cli", "grade-all", "class", "--out", "out", "--jobs", "1",
               "--exercises", str(folder), "--no-progress")
    run(*command, cwd=tmp_path)
    shown_at("name", (tmp_path / "out" / "feedback" / "alice.md").read_text())
    done = run(*command, "--feedback", "expected", cwd=tmp_path)
    assert "1 graded" in done.stdout, done.stdout  # not the record of the other level
    shown_at("expected", (tmp_path / "out" / "feedback" / "alice.md").read_text())


# -- every output format at every level ---------------------------------------------------------


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """The student's report at each level, graded once per level by the driver."""
    from grader.driver import Driver
    from grader.settings import resolve_settings

    tmp_path = tmp_path_factory.mktemp("levels")
    folder = course(tmp_path)
    found = {}
    for level in LEVELS:
        given = {"student": "student.py", "exercises": str(folder), "feedback": level}
        driver = Driver(resolve_settings(given.get, tmp_path, {}))
        try:
            found[level] = driver.grade().report
        finally:
            driver.close()
    return found


@pytest.mark.parametrize("level", LEVELS)
def test_no_output_format_shows_what_the_level_hides(reports, level):
    from grader.notebook_check import render_html, render_text
    from grader.report.class_report import class_report_html
    from grader.report.classroom import classroom_results
    from grader.report.csv_grades import grades_csv
    from grader.report.feedback_md import feedback_markdown
    from grader.report.gradescope import gradescope_results
    from grader.report.junit import junit_xml
    from grader.report.prairielearn import prairielearn_results
    from grader.report.terminal import report_lines

    report = reports[level]
    formats = {"terminal": "\n".join(report_lines(report)),
               "gradescope": json.dumps(gradescope_results(report)),
               "prairielearn": json.dumps(prairielearn_results(report)),
               "classroom": json.dumps(classroom_results(report)),
               "junit": junit_xml(report),
               "feedback.md": feedback_markdown("alice", report),
               "report.html": class_report_html([("alice", report, None)]),
               "grades.csv": grades_csv([("alice", report)], [e.id for e in report.exercises]),
               "check()": render_text(report) + render_html(report)}
    for name, text in formats.items():
        for secret in HIDDEN:
            assert secret not in text, (name, level, secret)
        for hidden_here, value in (("expected", VISIBLE_EXPECTED), ("full", VISIBLE_INPUT),
                                   ("full", "PRINTEDMARK"), ("hint", "HINTVISIBLE"),
                                   ("hint", "HINTHIDDEN"), ("name", "visiblename")):
            if LEVELS.index(level) < LEVELS.index(hidden_here):
                assert value not in text, (name, level, value)
    for name in ("terminal", "gradescope", "feedback.md"):  # what a student reads, in full
        shown_at(level, formats[name])


# -- where a level comes from -------------------------------------------------------------------


def levels_of(tmp_path: Path, given: dict, environ: dict) -> dict:
    from grader.driver import load_catalogue
    from grader.settings import resolve_settings

    settings = resolve_settings({"student": "student.py", **given}.get, tmp_path, environ)
    exercise = load_catalogue(settings.exercises).exercises[0]
    levels = settings.for_catalogue([exercise]).feedback_levels(exercise)
    return {name: level for name, (level, _later) in levels.items()}


def test_command_line_then_environment_then_check_then_exercise_then_platform_then_full(
        tmp_path):
    spec = (SPEC.replace("uses: [num_patches]", "uses: [num_patches]\nfeedback: expected")
            .replace("    points: 1\n", "    points: 1\n    feedback: score\n"))
    folder = course(tmp_path, spec, "feedback: {local: name, gradescope: hint}\n")
    exercises = {"exercises": str(folder)}
    both = ("visiblename sizes", "hiddenname sizes")
    assert levels_of(tmp_path, exercises, {}) == dict(zip(both, ("expected", "score"), strict=True))
    env = {"VITGRADE_FEEDBACK": "full"}
    assert set(levels_of(tmp_path, exercises, env).values()) == {"full"}
    assert set(levels_of(tmp_path, {**exercises, "feedback": "hint"}, env).values()) == {"hint"}
    (folder / "counting.yaml").write_text(SPEC)
    assert set(levels_of(tmp_path, exercises, {}).values()) == {"name"}  # the course's, local
    gradescope = {**exercises, "gradescope": True, "json": "r.json"}
    assert set(levels_of(tmp_path, gradescope, {}).values()) == {"hint"}
    (folder / "course.yaml").unlink()
    assert set(levels_of(tmp_path, exercises, {}).values()) == {"full"}


def test_a_bare_flag_or_an_old_switch_value_is_full_and_a_bad_level_is_named(tmp_path):
    from grader.settings import SettingsError, resolve_settings

    folder = course(tmp_path)
    exercises = {"exercises": str(folder)}
    assert set(levels_of(tmp_path, exercises, {"VITGRADE_FEEDBACK": "1"}).values()) == {"full"}
    with pytest.raises(SettingsError, match="--feedback from VITGRADE_FEEDBACK must be one of "
                                            "score, name, hint, expected, full, not 'loud'"):
        resolve_settings({"student": "x.py", **exercises}.get, tmp_path,
                         {"VITGRADE_FEEDBACK": "loud"})
    done = run("-m", "grader.cli", "grade", "student.py", "--exercises", str(folder),
               "--feedback", "loud", cwd=tmp_path)
    assert done.returncode == 2
    assert "--feedback must be one of score, name, hint, expected, full, not 'loud'" in done.stderr


def test_a_bad_course_file_or_spec_level_is_one_message_at_its_line(tmp_path):
    folder = course(tmp_path, SPEC.replace("    points: 1\n", "    points: 1\n    feedback: "
                                                               "loud\n"),
                    "feedback:\n  gradscope: hint\n  local: loud\nfeedbak: 1\n")
    done = run("-m", "grader.cli", "validate", "--exercises", str(folder), cwd=tmp_path)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert any(line.endswith("course.yaml:2: feedback: unknown platform 'gradscope'; did you "
                             "mean 'gradescope'?") for line in lines), done.stdout
    assert any(line.endswith("course.yaml:3: feedback: local must be one of score, name, hint, "
                             "expected, full, not 'loud'") for line in lines), done.stdout
    assert any(line.endswith("course.yaml:4: unknown key 'feedbak'; did you mean 'feedback'?")
               for line in lines), done.stdout
    assert any("counting.yaml:16:" in line and "feedback" in line for line in lines), done.stdout
    graded = run("-m", "grader.cli", "grade", "student.py", "--exercises", str(folder),
                 cwd=tmp_path)
    assert "course.yaml:2: feedback: unknown platform" in graded.stdout
    assert graded.returncode == 1


def test_the_course_file_is_no_spec_and_goes_into_the_gradescope_zip(tmp_path):
    import zipfile

    from grader.checks.catalogue import load_exercises
    from grader.lms.gradescope_zip import build_gradescope_zip

    folder = course(tmp_path, course_yaml="feedback: {gradescope: hint}\n")
    exercises, errors = load_exercises(folder)
    assert [e.id for e in exercises] == ["counting"] and not errors
    names = build_gradescope_zip(tmp_path / "autograder.zip", folder)
    assert "vit-grader/exercises/course.yaml" in names
    with zipfile.ZipFile(tmp_path / "autograder.zip") as archive:
        text = archive.read("vit-grader/exercises/course.yaml").decode()
    assert "gradescope: hint" in text


def test_redacting_keeps_a_grader_problem_and_a_missing_function(tmp_path):
    from grader.checks.results import ERROR, MISSING, CheckResult
    from grader.report.feedback_level import redacted_check

    missing = CheckResult("a", 1, 0, MISSING, "`num_patches` is not defined yet", hint="h")
    broken = CheckResult("b", 1, 0, ERROR, "not graded: its spec is broken (x.yaml:3: ...)")
    assert redacted_check(missing, "hint", number=1).message == missing.message
    assert redacted_check(broken, "score", number=2).message == broken.message
    assert redacted_check(broken, "score", number=2).name == "check 2"


@pytest.mark.parametrize("platform, flags", [
    ("prairielearn", ("--prairielearn", "pl.json")), ("classroom", ("--classroom",)),
    ("local", ("--json", "local.json"))])
def test_each_platform_gets_the_courses_level_for_it(tmp_path, platform, flags):
    levels = {"local": "expected", "prairielearn": "hint", "classroom": "name"}
    folder = course(tmp_path, course_yaml="feedback:\n" + "".join(
        f"  {name}: {level}\n" for name, level in levels.items()))
    env = {**os.environ, "GITHUB_OUTPUT": str(tmp_path / "github_output")}
    done = run("-m", "grader.cli", "grade", "student.py", "--exercises", str(folder), *flags,
               cwd=tmp_path, env=env)
    shown_at(levels[platform], done.stdout)
    if platform == "classroom":
        import base64

        line = (tmp_path / "github_output").read_text().strip()
        text = base64.b64decode(line.removeprefix("result=")).decode()
        shown_at("name", text, visible_only=True)
    else:  # PrairieLearn tells nothing of a hidden check but that it counts
        shown_at(levels[platform], (tmp_path / flags[1]).read_text(),
                 visible_only=platform == "prairielearn")
