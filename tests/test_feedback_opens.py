"""Feedback that opens in steps (issue 37, item 2): after N attempts (Gradescope's count, a
local count for `vitgrade grade` and `check()`, or `--attempt N`) or after a due date; the
feedback says what opens next and when."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from test_feedback_levels import HIDDEN, SPEC, STUDENT

from conftest import ROOT

OPENING = ("uses: [num_patches]\nfeedback: score\nopens:\n  hint: {attempts: 2}\n"
           "  expected: {after: due}\n")


def course(tmp_path: Path, due: str | None = None, spec: str | None = None) -> Path:
    folder = tmp_path / "exercises"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "counting.yaml").write_text(spec or SPEC.replace("uses: [num_patches]\n",
                                                               OPENING))
    if due is not None:
        (folder / "course.yaml").write_text(f'due: "{due}"\n')
    (tmp_path / "student.py").write_text(STUDENT)
    return folder


def grade(tmp_path: Path, folder: Path, *extra: str) -> str:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", "student.py",
                           "--exercises", str(folder), *extra], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, env=env)
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert done.returncode == 1, done.stdout + done.stderr
    return done.stdout


def test_the_hint_opens_at_the_second_local_attempt_and_the_count_starts_again(tmp_path):
    future = (datetime.now(UTC) + timedelta(days=3)).replace(microsecond=0)
    folder = course(tmp_path, due=future.isoformat())
    first = grade(tmp_path, folder)
    assert "HINTVISIBLE" not in first and "visiblename" not in first
    when = future.strftime("%Y-%m-%d %H:%M UTC")
    assert (f"more feedback opens: the hint at attempt 2 (this is attempt 1); expected and got "
            f"after the due date ({when})") in first
    second = grade(tmp_path, folder)
    assert "HINTVISIBLE" in second and "HINTHIDDEN" in second and "180000" not in second
    assert f"more feedback opens: expected and got after the due date ({when})" in second
    again = grade(tmp_path, folder, "--attempt", "1")  # starts the count again
    assert "HINTVISIBLE" not in again and "this is attempt 1" in again
    assert "HINTVISIBLE" in grade(tmp_path, folder)  # attempt 2 again
    for text in (first, second, again):
        assert not any(secret in text for secret in HIDDEN)


def test_expected_values_open_after_the_due_date(tmp_path):
    past = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    folder = course(tmp_path, due=past)
    shown = grade(tmp_path, folder)
    assert "180000" in shown and "HINTVISIBLE" in shown and "60600" not in shown
    assert "more feedback opens" not in shown
    assert not any(secret in shown for secret in HIDDEN)
    no_due = course(tmp_path / "elsewhere")
    assert "after the due date (none is set here)" in grade(tmp_path / "elsewhere", no_due)


def test_the_gradescope_wrapper_counts_previous_submissions_and_reads_the_due_date(tmp_path):
    folder = course(tmp_path)
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    (root / "submission" / "vit_exercises.py").write_text(STUDENT)
    future = (datetime.now(UTC) + timedelta(days=1)).replace(microsecond=0).isoformat()
    metadata = {"assignment": {"due_date": future}, "previous_submissions": []}
    outputs = []
    for previous in (0, 1):
        metadata["previous_submissions"] = [{"score": 0.0}] * previous
        (root / "submission_metadata.json").write_text(json.dumps(metadata))
        subprocess.run([sys.executable, "-m", "grader.lms.gradescope_autograder", "--root",
                        str(root), "--exercises", str(folder)], cwd=ROOT, capture_output=True,
                       text=True, timeout=300, check=True)
        outputs.append((root / "results" / "results.json").read_text())
    assert "HINTVISIBLE" not in outputs[0] and "this is attempt 1" in outputs[0]
    assert "HINTVISIBLE" in outputs[1] and "180000" not in outputs[1]
    metadata["assignment"]["due_date"] = "2020-01-01T00:00:00+00:00"
    (root / "submission_metadata.json").write_text(json.dumps(metadata))
    subprocess.run([sys.executable, "-m", "grader.lms.gradescope_autograder", "--root",
                    str(root), "--exercises", str(folder)], cwd=ROOT, capture_output=True,
                   text=True, timeout=300, check=True)
    late = (root / "results" / "results.json").read_text()
    assert "180000" in late and not any(secret in late for secret in HIDDEN)


def test_check_keeps_a_local_count_per_notebook(tmp_path):
    folder = course(tmp_path)
    probe = ("import runpy, sys\n"
             "namespace = runpy.run_path(sys.argv[1], run_name='student')\n"
             "namespace['__file__'] = 'work.ipynb'\n"
             "from grader.notebook_check import grade_namespace, render_text\n"
             "for _ in range(2):\n"
             "    print(render_text(grade_namespace(namespace, exercises=sys.argv[2])))\n"
             "    print('=====')\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", probe, "student.py", str(folder)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
    first, second, _ = done.stdout.split("=====")
    assert "this is attempt 1" in first and "HINTVISIBLE" not in first, done.stderr
    assert "HINTVISIBLE" in second


def test_a_bad_date_is_one_message_at_its_line(tmp_path):
    spec = SPEC.replace("uses: [num_patches]\n", "uses: [num_patches]\nopens:\n  hint: "
                                                 "{after: 'next friday'}\n")
    folder = course(tmp_path, spec=spec)
    (folder / "course.yaml").write_text("due: soon\n")
    done = subprocess.run([sys.executable, "-m", "grader.cli", "validate", "--exercises",
                           str(folder)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert any(line.endswith("counting.yaml:6: opens: hint: after must be an ISO date and time "
                             'in quotes, such as "2026-12-10T23:59:00+00:00" (UTC when it names '
                             "no zone), or due, not 'next friday'") for line in lines), lines
    assert any(line.endswith("course.yaml:1: due must be an ISO date and time in quotes, such as "
                             '"2026-12-10T23:59:00+00:00" (UTC when it names no zone), not '
                             "'soon'") for line in lines), lines


def test_steps_open_in_order_and_say_what_is_next():
    from grader.report.feedback_level import Opening, opened

    now = datetime(2026, 12, 1, tzinfo=UTC)
    opens = {"expected": {"after": "2026-12-10T23:59:00+00:00"}, "hint": {"attempts": 3},
             "name": {"attempts": 2}}
    assert opened("score", opens, Opening(1, None, now)) == (
        "score", "more feedback opens: the check's name at attempt 2 (this is attempt 1); the "
                 "hint at attempt 3 (this is attempt 1); expected and got after 2026-12-10 "
                 "23:59 UTC")
    assert opened("score", opens, Opening(3, None, now))[0] == "hint"
    assert opened("score", opens, Opening(None, None, now))[1].startswith(
        "more feedback opens: the check's name at attempt 2 (attempts are not counted here)")
    assert opened("score", opens, Opening(1, None, now + timedelta(days=10))) == ("expected", "")
    assert opened("full", opens, Opening(1, None, now)) == ("full", "")


def test_grade_all_grades_a_record_again_when_a_step_opens(tmp_path):
    """A record says what was open when it was graded: an attempt given (or a date passed) since
    makes grade-all grade it again, and the same state reuses it."""
    folder = course(tmp_path)
    (tmp_path / "class" / "alice").mkdir(parents=True)
    (tmp_path / "class" / "alice" / "vit_exercises.py").write_text(STUDENT)
    command = [sys.executable, "-m", "grader.cli", "grade-all", "class", "--out", "out",
               "--jobs", "1", "--exercises", str(folder), "--no-progress"]
    feedback = tmp_path / "out" / "feedback" / "alice.md"

    def grade_all(*flags: str, **env: str) -> str:
        done = subprocess.run(command + list(flags), cwd=tmp_path, capture_output=True, text=True,
                              timeout=300, env={**os.environ, **env})
        assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
        return done.stdout

    grade_all()
    assert "HINTVISIBLE" not in feedback.read_text()
    assert "attempts are not counted here" in feedback.read_text()
    assert "feedback opened: all 1 graded" in grade_all("--attempt", "2")
    assert "HINTVISIBLE" in feedback.read_text()
    assert "all 1 reused" in grade_all(VITGRADE_ATTEMPT="2")  # the same, from the environment


def test_the_opening_state_changes_when_a_date_passes_or_an_attempt_opens_a_step():
    from types import SimpleNamespace

    from grader.report.feedback_level import Opening, opening_state

    def exercise(opens, check_opens=None):
        return SimpleNamespace(opens=opens, checks=[SimpleNamespace(opens=check_opens)])

    due = datetime(2026, 12, 10, tzinfo=UTC)
    steps = [exercise({"hint": {"attempts": 2}}, {"expected": {"after": "due"}})]
    before, after = (Opening(1, due, due + timedelta(hours=h)) for h in (-1, 1))
    assert opening_state(steps, before) != opening_state(steps, after)
    assert opening_state(steps, before) != opening_state(steps, Opening(2, due, before.now))
    assert opening_state([exercise(None)], before) == ""  # no step: records stay as they were


def test_a_watch_is_one_attempt_however_often_the_file_is_saved(tmp_path):
    """`vitgrade watch` grades at every save; the saves are not attempts (the hint that opens at
    attempt 2 stays closed through the watch), the next `vitgrade grade` is attempt 2."""
    from test_watch import read_until, reader

    folder = course(tmp_path)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    watch = subprocess.Popen([sys.executable, "-m", "grader.cli", "watch", "student.py",
                              "--exercises", str(folder)], cwd=tmp_path, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = reader(watch)
        shown = [read_until(lines, "Ctrl-C to stop", seconds=300)]
        for saves in range(2):
            (tmp_path / "student.py").write_text(STUDENT + f"\n# save {saves}\n")
            shown.append(read_until(lines, "Ctrl-C to stop", seconds=300))
    finally:
        watch.kill()
        watch.wait()
    assert all("this is attempt 1" in text and "HINTVISIBLE" not in text for text in shown), shown
    assert "HINTVISIBLE" in grade(tmp_path, folder)
