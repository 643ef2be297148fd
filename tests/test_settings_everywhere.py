"""Issue 37's settings through every entry point (tests/entry_points.py): each feedback level,
each opening rule (attempts, the due date), the course's setup code, and notebooks that mark the
cells to grade (a tag, nbgrader's metadata, otter's blocks). Every output each entry point writes
is scanned: a hidden case's inputs, expected value and the student's answer there appear in none,
at any level."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import nbformat
import pytest
from entry_points import ENTRY_POINTS, FILE_ENTRY_POINTS, graded_through, submission_folder
from test_feedback_levels import HIDDEN, LEVELS, SPEC, STUDENT, shown_at
from test_feedback_opens import OPENING
from test_setup_code import SETUP, USES_SETUP
from test_tagged_cells import code, control, experiment, solution_cells, write

from conftest import EXERCISES

# check(), PrairieLearn and Classroom show no hidden check one by one: not its name nor its hint
VISIBLE_ONLY = ("check", "prairielearn", "classroom")


def course(tmp_path: Path, spec: str = SPEC, course_yaml: str | None = None,
           setup: str | None = None, student: str = STUDENT) -> tuple[Path, Path]:
    """(the exercises folder, the student's file) of a one-spec course."""
    folder = tmp_path / "exercises"
    folder.mkdir()
    (folder / "counting.yaml").write_text(spec)
    for name, text in (("course.yaml", course_yaml), ("setup.py", setup)):
        if text is not None:
            (folder / name).write_text(text)
    (tmp_path / "vit_exercises.py").write_text(student)
    return folder, tmp_path / "vit_exercises.py"


def no_hidden_data(graded) -> None:
    for name, text in graded.outputs.items():
        for secret in HIDDEN:
            assert secret not in text, (name, secret)


# what a student reads whole: each shows all the level lets through (the others are summaries:
# grades.csv, report.html's table, check()'s HTML beside its text)
WHOLE = ("terminal", "json", "grade", "prairielearn", "feedback.md", "record", "check()",
         "results.json", "classroom")
# (the level from which it may show, a value of the visible check)
VISIBLE_DATA = (("name", "visiblename"), ("hint", "HINTVISIBLE"), ("hint", "HINTHIDDEN"),
                ("expected", "180000"), ("full", "60600"), ("full", "PRINTEDMARK"))


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_each_level_through_each_entry_point(tmp_path, grade_with, entry, level):
    folder, student = course(tmp_path)
    graded = graded_through(entry, student, folder, tmp_path / "run",
                            env={"VITGRADE_FEEDBACK": level}, grade_with=grade_with)
    no_hidden_data(graded)
    for name, text in graded.outputs.items():  # no format shows more than the level allows
        for since, value in VISIBLE_DATA:
            assert value not in text or LEVELS.index(level) >= LEVELS.index(since), (name, value)
        if name in WHOLE:
            shown_at(level, text, visible_only=entry in VISIBLE_ONLY)
    assert set(graded.outputs) & set(WHOLE), graded.outputs  # some output was read whole


def opening_run(tmp_path, grade_with, entry, name, *, attempt=None, due=None):
    """Grade the student of a course whose hint opens at attempt 2 and expected values after
    the due date: `attempt` as the platform gives it (Gradescope: its earlier submissions; the
    others: VITGRADE_ATTEMPT, which `--attempt` sets too), None as the platform counts alone."""
    base = tmp_path / name
    base.mkdir()
    folder, student = course(base, SPEC.replace("uses: [num_patches]\n", OPENING),
                             None if due is None else f'due: "{due.isoformat()}"\n')
    env = {} if attempt is None or entry == "gradescope" else {"VITGRADE_ATTEMPT": str(attempt)}
    previous = attempt - 1 if attempt and entry == "gradescope" else 0
    graded = graded_through(entry, student, folder, base / "run", env=env, previous=previous,
                            grade_with=grade_with)
    no_hidden_data(graded)
    return graded


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_feedback_opens_with_attempts_and_after_the_due_date_through_each_entry_point(
        tmp_path, grade_with, entry):
    future = (datetime.now(UTC) + timedelta(days=3)).replace(microsecond=0)
    first = opening_run(tmp_path, grade_with, entry, "first", due=future)
    assert "HINTVISIBLE" not in first.text and "180000" not in first.text
    when = future.strftime("%Y-%m-%d %H:%M UTC")
    # on a student's machine and Gradescope the count is the platform's; elsewhere none is
    counting = entry in ("grade", "pytest", "check", "gradescope")
    assert ("the hint at attempt 2 (this is attempt 1)" if counting
            else "the hint at attempt 2 (attempts are not counted here)") in first.text
    assert f"expected and got after the due date ({when})" in first.text
    second = opening_run(tmp_path, grade_with, entry, "second", attempt=2, due=future)
    assert "HINTVISIBLE" in second.text and "180000" not in second.text, second.text
    assert f"more feedback opens: expected and got after the due date ({when})" in second.text
    past = datetime.now(UTC) - timedelta(hours=1)
    late = opening_run(tmp_path, grade_with, entry, "late", attempt=2, due=past)
    assert "180000" in late.text and "more feedback opens" not in late.text


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_the_setup_code_runs_before_the_submission_through_each_entry_point(
        tmp_path, grade_with, entry):
    folder, student = course(tmp_path, setup=SETUP, student=USES_SETUP)
    graded = graded_through(entry, student, folder, tmp_path / "run", grade_with=grade_with)
    assert graded.fraction == 1.0, graded.text
    (folder / "setup.py").unlink()  # the names are the setup's: without it, none
    without = graded_through(entry, student, folder, tmp_path / "without", grade_with=grade_with)
    assert without.fraction == 0.0 and "NameError" in without.text, without.text


def marked_notebook(style: str, folder: Path, graded_in: Path) -> Path:
    """The course's solution in cells marked the `style` way, beside a student's experiment that
    sleeps 60 s and one that raises, neither marked; a marked cell writes `control` in the
    folder the submission is graded in (`graded_in`), the experiments `slept` and `raised`."""
    setup, *answers = solution_cells()
    slow = experiment(graded_in, "slept", "import time\ntime.sleep(60)")
    raises = experiment(graded_in, "raised", "raise RuntimeError('my experiment')")
    marker = control(graded_in)
    if style == "tag":
        cells = [code(c, tags=["grade"]) for c in (setup, *answers, marker)]
    elif style == "nbgrader":
        def solution(source, i):
            return code(source, nbgrader={"solution": True, "grade": False, "locked": False,
                                          "grade_id": f"answer-{i}", "schema_version": 3})
        cells = [solution(c, i) for i, c in enumerate((setup, *answers, marker))]
    else:  # otter's master notebook: solutions between raw BEGIN/END SOLUTION cells
        raw = nbformat.v4.new_raw_cell
        cells = [code(setup)]
        for i, source in enumerate((*answers, marker)):
            cells += [raw(f"# BEGIN QUESTION\nname: q{i}"), raw("# BEGIN SOLUTION"),
                      code(source), raw("# END SOLUTION"), raw("# END QUESTION")]
        cells.insert(len(cells) - 1, code(raises))  # inside the last question, not a solution
    cells.insert(2, code(slow))
    if style != "otter":
        cells.insert(4, code(raises))
    return write(folder / f"{style}.ipynb", cells)


@pytest.mark.parametrize("style", ["tag", "nbgrader", "otter"])
@pytest.mark.parametrize("entry", FILE_ENTRY_POINTS)
def test_a_notebook_marking_its_cells_grades_them_alone_through_each_entry_point(
        tmp_path, grade_with, entry, style):
    work = tmp_path / "run"
    notebook = marked_notebook(style, tmp_path, submission_folder(entry, work))
    graded = graded_through(entry, notebook, EXERCISES, work, grade_with=grade_with)
    assert graded.fraction == 1.0 and "while loading" not in graded.text, graded.text
    for name, text in graded.outputs.items():  # each output the student reads says so
        if name in WHOLE and name != "classroom":  # its result has a failed test's message only:
            # the student reads the rest in the run's log, the terminal
            assert "code cells: the notebook marks the cells to grade; the 2 others were " \
                   "not run" in text, name
    # a marked cell ran and could write; the others did not run
    assert sorted(p.name for p in graded.folder.iterdir()) == ["control", f"{style}.ipynb"]


def test_check_takes_the_level_and_the_attempt_as_keywords(tmp_path):
    """check(feedback=..., attempt=...) as `--feedback` and `--attempt` (the runner above gives
    them through the environment)."""
    for name in ("levels", "steps"):
        (tmp_path / name).mkdir()
    levels, _ = course(tmp_path / "levels")
    steps, _ = course(tmp_path / "steps", SPEC.replace("uses: [num_patches]\n", OPENING))
    probe = ("import json, runpy, sys\n"
             "namespace = runpy.run_path('levels/vit_exercises.py', run_name='student')\n"
             "from grader.notebook_check import grade_namespace, render_text\n"
             "shown = [render_text(grade_namespace(namespace, exercises=sys.argv[1], "
             "feedback='hint')), render_text(grade_namespace(namespace, exercises=sys.argv[2], "
             "attempt=1)), render_text(grade_namespace(namespace, exercises=sys.argv[2], "
             "attempt=2))]\n"
             "print(json.dumps(shown))\n")
    done = subprocess.run([sys.executable, "-c", probe, str(levels), str(steps)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert done.returncode == 0, done.stderr
    hint, first, second = json.loads(done.stdout.splitlines()[-1])
    shown_at("hint", hint, visible_only=True)
    assert "HINTVISIBLE" not in first and "this is attempt 1" in first
    assert "HINTVISIBLE" in second and "180000" not in second
