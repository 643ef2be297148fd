"""Every entry point a submission is graded through, as one function the settings' tests share
(tests/test_entry_points.py compares them; tests/test_settings_everywhere.py runs each setting
through each): `vitgrade grade`, `pytest --student`, `vitgrade grade-all`, `check()`, the
Gradescope wrapper, PrairieLearn's results and GitHub Classroom's (`vitgrade grade --classroom`).

`graded_through` returns what the student (or the instructor's files) are shown, every format
that entry point writes joined into one text, and the score as a fraction of the points graded
there (check() grades the visible cases only).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

# the names the tests parametrize with, in the order the docs list them
ENTRY_POINTS = ("grade", "pytest", "grade-all", "check", "gradescope", "prairielearn",
                "classroom")
# check() grades the names a live session defined, not a file: a notebook's cells are the
# kernel's, run (or not) by the student, so cell marks do not apply there (notebook_check.py)
FILE_ENTRY_POINTS = tuple(e for e in ENTRY_POINTS if e != "check")
ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Graded:
    fraction: float  # score / max score of what this entry point graded
    text: str  # every output it wrote, joined: what the scans look through
    outputs: dict  # {format: its text}
    folder: Path  # the submission's folder as graded: student code's working folder


def submission_folder(entry: str, work: Path) -> Path:
    """Where `graded_through(entry, ..., work)` puts the submission: student code may write
    there (its working folder is a fresh empty one), by that absolute path."""
    return work / ("autograder/submission" if entry == "gradescope" else "class/alice")


def run(*args: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600, env=env)
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return done


def graded_through(entry: str, submission: Path, exercises: Path, work: Path, *,
                   env: dict | None = None, previous: int = 0, grade_with=None) -> Graded:
    """Grade `submission` on the specs in `exercises` through `entry`, in the folder `work` (made
    here), with the VITGRADE_* variables of `env`; `previous`: Gradescope's earlier submissions
    (submission_metadata.json). `grade_with` is conftest's fixture (for `pytest`)."""
    work.mkdir(parents=True)
    environ = {**os.environ, "XDG_CACHE_HOME": str(work / "cache"), **(env or {})}
    exercises = Path(exercises).resolve()
    own = work / "class" / "alice"  # grade-all's class folder: the student's id is "alice"
    own.mkdir(parents=True)
    own.chmod(0o777)  # as root, the worker is a user of its own: student code may write here
    student = own / Path(submission).name
    shutil.copy(submission, student)
    outputs: dict[str, str] = {}
    if entry in ("grade", "prairielearn"):
        out = work / "out.json"
        flag = "--prairielearn" if entry == "prairielearn" else "--json"
        junit = work / "junit.xml"
        done = run("-m", "grader.cli", "grade", student.name, "--exercises", str(exercises),
                   flag, str(out), "--junitxml", str(junit), cwd=own, env=environ)
        outputs = {"terminal": done.stdout, entry: out.read_text(), "junit": junit.read_text()}
        data = json.loads(outputs[entry])
        fraction = data["score"] if entry == "prairielearn" else data["score"] / data["max_score"]
    elif entry == "classroom":
        import base64

        github_output = work / "github_output"
        done = run("-m", "grader.cli", "grade", student.name, "--exercises", str(exercises),
                   "--classroom", cwd=own, env={**environ, "GITHUB_OUTPUT": str(github_output)})
        line = github_output.read_text().strip().removeprefix("result=")
        outputs = {"terminal": done.stdout, "classroom": base64.b64decode(line).decode()}
        data = json.loads(outputs["classroom"])
        fraction = sum(t["score"] for t in data["tests"]) / data["max_score"]
    elif entry == "pytest":
        out = work / "out.json"
        with mock.patch.dict(os.environ, environ, clear=True):
            result = grade_with(student, "--json", str(out), "--junitxml",
                                str(work / "junit.xml"), exercises=exercises)
        outputs = {"terminal": result.stdout.str(), "json": out.read_text(),
                   "pytest junit": (work / "junit.xml").read_text()}
        data = json.loads(outputs["json"])
        fraction = data["score"] / data["max_score"]
    elif entry == "grade-all":
        out = work / "graded"
        run("-m", "grader.cli", "grade-all", str(work / "class"), "--out", str(out), "--jobs", "1",
            "--exercises", str(exercises), "--no-progress", cwd=work, env=environ)
        from grader.batch.records import read_record
        from grader.report.gradescope import gradescope_results

        report = read_record(out / "results" / "alice.json").report
        outputs = {"feedback.md": (out / "feedback" / "alice.md").read_text(),
                   "grades.csv": (out / "grades.csv").read_text(),
                   "report.html": (out / "report.html").read_text(),
                   "record": json.dumps(gradescope_results(report))}
        fraction = report.score / report.max_score
    elif entry == "check":
        probe = ("import json, runpy, sys\n"
                 "namespace = runpy.run_path(sys.argv[1], run_name='student')\n"
                 "from grader.notebook_check import grade_namespace, render_html, render_text\n"
                 "report = grade_namespace(namespace, exercises=sys.argv[2])\n"
                 "print(json.dumps({'text': render_text(report), 'html': render_html(report),\n"
                 "                  'fraction': report.score / report.max_score}))\n")
        done = run("-c", probe, student.name, str(exercises), cwd=own, env=environ)
        data = json.loads(done.stdout.splitlines()[-1])
        outputs, fraction = {"check()": data["text"], "check() html": data["html"]}, \
            data["fraction"]
    elif entry == "gradescope":
        root = work / "autograder"
        shutil.copytree(own, root / "submission")
        metadata = {"users": [{"id": "alice"}], "previous_submissions": [{"score": 0.0}] * previous}
        (root / "submission_metadata.json").write_text(json.dumps(metadata))
        done = run("-m", "grader.lms.gradescope_autograder", "--root", str(root), "--exercises",
                   str(exercises), cwd=ROOT, env=environ)
        outputs = {"results.json": (root / "results" / "results.json").read_text()}
        data = json.loads(outputs["results.json"])
        fraction = data["score"] / data["max_score"]
    else:
        raise ValueError(f"no entry point {entry!r}")
    return Graded(fraction, "\n".join(outputs.values()), outputs, submission_folder(entry, work))
