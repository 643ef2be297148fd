"""One class of submissions through every entry point: `vitgrade grade`, `pytest --student`, the
Gradescope wrapper, PrairieLearn's results, `vitgrade grade-all`'s jobs, `vitgrade watch` and
`check()`. All of them grade through the one driver (grader/driver.py), so they give the same
scores, messages and exit status; and the settings come from one resolver: command line >
VITGRADE_* > spec > default. Each of issue 37's settings (feedback levels, `opens:` steps, setup
code, marked notebook cells) goes through every entry point in tests/test_settings_everywhere.py,
whose runner (tests/entry_points.py) holds the list of entry points."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from buggy_submissions import BUGGY, build_submission

from conftest import EXERCISES, SOLUTION, SUBMISSIONS, TEMPLATE

STUDENTS = ("solution", "template", "buggy", "sys_exit", "syntax_error")
SUBMISSION = "vit_exercises.py"  # the name every entry point finds in a student's folder


def write_class(folder: Path) -> Path:
    """CLASS/<student>/vit_exercises.py for each of STUDENTS (a hostile one beside the solution
    it imports)."""
    texts = {"solution": SOLUTION.read_text(), "template": TEMPLATE.read_text(),
             "buggy": build_submission(BUGGY[0], folder).read_text(),
             "sys_exit": (SUBMISSIONS / "hostile" / "sys_exit.py").read_text(),
             "syntax_error": "def num_patches(H, W, P)\n    return 0\n"}
    for student, text in texts.items():
        (folder / "class" / student).mkdir(parents=True)
        (folder / "class" / student / SUBMISSION).write_text(text)
    shutil.copy(SOLUTION, folder / "class" / "sys_exit" / "correct_solution.py")
    return folder / "class"


def comparable(results: dict) -> dict:
    """Gradescope results without the time taken or the submission's path (each entry point
    shows the path it was given)."""
    results.pop("execution_time", None)
    for key in ("output", "message"):  # Gradescope's, PrairieLearn's
        results[key] = re.sub(rf"(submission: |could not grade |^)\S*{SUBMISSION}", r"\1-",
                              results.get(key, ""), flags=re.MULTILINE)
    return results


def run(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600, env=env)
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return done


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Each student graded by `vitgrade grade`, the Gradescope wrapper and grade-all."""
    folder = tmp_path_factory.mktemp("entry")
    class_folder = write_class(folder)
    found: dict[str, dict] = {student: {} for student in STUDENTS}
    for student in STUDENTS:
        own = class_folder / student
        out, prairielearn = folder / f"{student}.json", folder / f"{student}-pl.json"
        # the student's id, as grade-all takes it from the folder's name (their variants)
        done = run("-m", "grader.cli", "grade", SUBMISSION, "-q", "--exercises", str(EXERCISES),
                   "--json", str(out), "--prairielearn", str(prairielearn), cwd=own,
                   env={**os.environ, "VITGRADE_STUDENT_ID": student})
        found[student]["grade"] = (done.returncode, comparable(json.loads(out.read_text())))
        found[student]["prairielearn"] = comparable(json.loads(prairielearn.read_text()))
        root = folder / "gradescope" / student
        shutil.copytree(own, root / "submission")
        (root / "submission_metadata.json").write_text(json.dumps({"users": [{"id": student}]}))
        done = run("-m", "grader.lms.gradescope_autograder", "--root", str(root),
                   "--exercises", str(EXERCISES), cwd=folder)
        results = json.loads((root / "results" / "results.json").read_text())
        found[student]["gradescope"] = (done.returncode, comparable(results))
    out = folder / "out"
    run("-m", "grader.cli", "grade-all", str(class_folder), "--out", str(out), "--jobs", "2",
        "--exercises", str(EXERCISES), "--no-progress", cwd=folder)
    from grader.batch.records import read_record
    from grader.report.gradescope import gradescope_results

    for student in STUDENTS:
        record = read_record(out / "results" / f"{student}.json")
        found[student]["grade-all"] = comparable(gradescope_results(record.report))
    return class_folder, found


@pytest.mark.parametrize("student", STUDENTS)
def test_every_entry_point_gives_the_same_results_and_exit_status(student, graded, grade_with,
                                                                  tmp_path, monkeypatch):
    class_folder, found = graded
    monkeypatch.setenv("VITGRADE_STUDENT_ID", student)
    code, results = found[student]["grade"]
    assert code == {"solution": 0, "syntax_error": 2}.get(student, 1), results["output"]
    plugin_out, plugin_pl = tmp_path / "plugin.json", tmp_path / "plugin-pl.json"
    plugin = grade_with(class_folder / student / SUBMISSION, "--json", str(plugin_out),
                        "--prairielearn", str(plugin_pl))
    assert (int(plugin.ret), comparable(json.loads(plugin_out.read_text()))) == (code, results)
    assert comparable(json.loads(plugin_pl.read_text())) == found[student]["prairielearn"]
    wrapper_code, wrapper = found[student]["gradescope"]
    # Gradescope reads the file; the code says only whether anything could be graded
    assert wrapper == results and wrapper_code == (2 if code == 2 else 0)
    assert found[student]["grade-all"] == results


@pytest.mark.parametrize("student", ["solution", "buggy"])
def test_watch_prints_what_grade_prints(student, graded):
    from test_watch import read_until, reader

    own = graded[0] / student
    grade = run("-m", "grader.cli", "grade", SUBMISSION, "--exercises", str(EXERCISES), cwd=own)
    watch = subprocess.Popen([sys.executable, "-m", "grader.cli", "watch", SUBMISSION,
                              "--exercises", str(EXERCISES)], cwd=own, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    try:
        shown = read_until(reader(watch), "watching", seconds=300)
    finally:
        watch.kill()
        watch.wait()
    table = grade.stdout.rsplit("\n", 2)[0]  # all but the closing line ("... graded in 0.4 s")
    assert table.strip() and table in shown


@pytest.mark.parametrize("student", ["solution", "buggy"])
def test_check_gives_the_visible_scores_grade_gives(student, graded, tmp_path):
    """check() grades the names a session defined; here those of the student's file, on the
    visible cases, as `vitgrade grade --visible-only` does."""
    own = graded[0] / student
    out = tmp_path / "visible.json"
    run("-m", "grader.cli", "grade", SUBMISSION, "-q", "--visible-only", "--exercises",
        str(EXERCISES), "--json", str(out), cwd=own)
    expected = {t["name"]: t["score"] for t in json.loads(out.read_text())["tests"]}
    probe = ("import json, runpy, sys\n"
             "namespace = runpy.run_path(sys.argv[1], run_name='student')\n"
             "from grader.notebook_check import grade_namespace\n"
             "report = grade_namespace(namespace, exercises=sys.argv[2])\n"
             "from grader.report.gradescope import gradescope_results\n"
             "print(json.dumps(gradescope_results(report)))\n")
    done = run("-c", probe, SUBMISSION, str(EXERCISES), cwd=own)
    scores = {t["name"]: t["score"] for t in json.loads(done.stdout.splitlines()[-1])["tests"]}
    assert scores == expected


def test_two_specs_with_one_id_are_refused_alike_by_grade_and_the_plugin(grade_with, tmp_path):
    """The second spec of an id is a spec error wherever it is graded: exit 1, and said."""
    specs = tmp_path / "specs"
    specs.mkdir()
    shutil.copy(EXERCISES / "patch-count.yaml", specs / "patch-count.yaml")
    shutil.copy(EXERCISES / "patch-count.yaml", specs / "same-id.yaml")
    out, elsewhere = tmp_path / "grade.json", tmp_path / "elsewhere"
    elsewhere.mkdir()  # as pytester's: both show the specs' paths absolute
    done = run("-m", "grader.cli", "grade", str(SOLUTION), "-q", "--exercises", str(specs),
               "--json", str(out), cwd=elsewhere)
    plugin_out = tmp_path / "plugin.json"
    plugin = grade_with(SOLUTION, "--json", str(plugin_out), exercises=specs)
    direct, through_pytest = (comparable(json.loads(p.read_text())) for p in (out, plugin_out))
    assert "already used" in direct["output"] and direct == through_pytest
    assert done.returncode == int(plugin.ret) == 1


# -- one resolver: command line > environment > spec > default -----------------------------------


def limited_folder(tmp_path: Path, limits: str) -> Path:
    folder = tmp_path / "exercises"
    folder.mkdir()
    text = (EXERCISES / "flatten-length.yaml").read_text()
    (folder / "flatten-length.yaml").write_text(
        text.replace("uses: [patch_dim]", f"uses: [patch_dim]\nlimits: {limits}"))
    return folder


def resolved(tmp_path: Path, command_line: dict, environ: dict):
    from grader.driver import load_catalogue
    from grader.settings import resolve_settings

    given = {"student": "x.py", **command_line}
    settings = resolve_settings(given.get, tmp_path, environ)
    exercises = load_catalogue(settings.exercises).exercises
    return settings.for_catalogue(exercises), exercises[0]


def test_the_command_line_wins_over_the_environment_which_wins_over_the_spec(tmp_path):
    folder = limited_folder(tmp_path, "{call_timeout: 3, memory_mb: 300, file_mb: 7}")
    environ = {"VITGRADE_CALL_TIMEOUT": "4", "VITGRADE_MEMORY_MB": "500",
               "VITGRADE_EXERCISES": str(folder)}
    settings, exercise = resolved(tmp_path, {"call_timeout": "5"}, environ)
    limits = settings.limits(exercise)
    assert (limits.call_timeout, limits.memory_mb, limits.file_mb) == (5.0, 500, 7)
    assert limits.max_processes == 64  # the default: given nowhere
    settings, exercise = resolved(tmp_path, {"exercises": str(folder)}, {})
    assert (settings.limits(exercise).call_timeout, settings.limits().call_timeout) == (3.0, 10.0)


@pytest.mark.parametrize("variable, value", [
    ("VITGRADE_VISIBLE_ONLY", "1"), ("VITGRADE_FEEDBACK", "yes"), ("VITGRADE_VERBOSE", "true"),
    ("VITGRADE_JSON", "out.json"), ("VITGRADE_LOAD_TIMEOUT", "12.5"),
    ("VITGRADE_SUBMISSION_TIMEOUT", "40"), ("VITGRADE_MAX_PROCESSES", "9"),
    ("VITGRADE_OUTPUT_KB", "100"), ("VITGRADE_FILE_MB", "5"), ("VITGRADE_CLASSROOM", "1"),
    ("VITGRADE_PRAIRIELEARN", "pl.json"), ("VITGRADE_GRADESCOPE", "1"),
    ("VITGRADE_ATTEMPT", "3"), ("VITGRADE_FEEDBACK", "hint")])
def test_every_option_has_its_variable(tmp_path, variable, value):
    from grader.settings import OPTIONS, resolve_settings

    option = next(o for o in OPTIONS if o.env == variable)
    exercises = {"exercises": str(EXERCISES)}
    default = resolve_settings({"student": "x.py", **exercises}.get, tmp_path, {})
    settings = resolve_settings({"student": "x.py", **exercises}.get, tmp_path, {variable: value})
    assert settings != default, option.flag
    flagged = resolve_settings({"student": "x.py", **exercises, option.name: True
                                if option.metavar is None else value}.get, tmp_path, {})
    assert settings == flagged, option.flag


def test_a_bad_variable_is_named_with_its_option(tmp_path):
    from grader.settings import SettingsError, resolve_settings

    with pytest.raises(SettingsError, match="--call-timeout from VITGRADE_CALL_TIMEOUT must be "
                                            "a positive number of seconds, not 'soon'"):
        resolve_settings({"student": "x.py"}.get, tmp_path, {"VITGRADE_CALL_TIMEOUT": "soon"})
    with pytest.raises(SettingsError, match="--visible-only from VITGRADE_VISIBLE_ONLY"):
        resolve_settings({"student": "x.py"}.get, tmp_path, {"VITGRADE_VISIBLE_ONLY": "maybe"})


def test_grade_says_where_a_bad_value_came_from_and_help_names_the_variables(tmp_path):
    import os

    env = {**os.environ, "VITGRADE_MEMORY_MB": "lots"}
    done = run("-m", "grader.cli", "grade", str(SOLUTION), cwd=tmp_path, env=env)
    assert done.returncode == 2 and "--memory-mb from VITGRADE_MEMORY_MB" in done.stderr
    done = run("-m", "grader.cli", "grade", "--help", cwd=tmp_path)
    assert "VITGRADE_CALL_TIMEOUT" in done.stdout and "VITGRADE_MEMORY_MB" in done.stdout


def test_grade_all_hands_its_jobs_the_settings_it_resolved(tmp_path):
    """A limit from the environment reaches a job's worker as data: a 0.5 s call timeout makes
    a submission whose every call sleeps 2 s lose every point, in grade-all as in grade."""
    import os

    slow = tmp_path / "class" / "slow"
    slow.mkdir(parents=True)
    (slow / SUBMISSION).write_text("import time\ntime.sleep(0)\n" + re.sub(
        r"^(def \w+\(.*\):.*\n)", r"\1    time.sleep(2)\n", SOLUTION.read_text(),
        flags=re.M))
    specs = tmp_path / "specs"
    specs.mkdir()
    shutil.copy(EXERCISES / "patch-count.yaml", specs)
    env = {**os.environ, "VITGRADE_CALL_TIMEOUT": "0.5"}
    out = tmp_path / "out"
    run("-m", "grader.cli", "grade-all", str(tmp_path / "class"), "--out", str(out),
        "--exercises", str(specs), "--no-progress", cwd=tmp_path, env=env)
    from grader.batch.records import read_record

    report = read_record(out / "results" / "slow.json").report
    assert report.score == 0 and "did not return within 0.5 s" in json.dumps(
        [c.message for e in report.exercises for c in e.checks])
