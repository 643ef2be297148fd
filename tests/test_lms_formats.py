"""Every results format, produced and checked field by field against the platform's documented one.

Sources (quoted in docs/lms.md): Gradescope's autograder specs (results.json), classroom-resources'
autograding-grading-reporter and autograding-io-grader (the runner result), PrairieLearn's
docs/externalGrading.md ("Grading results"), pytest's junitxml, Canvas's GradebookImporter and
Moodle's gradeimport_csv (grades.csv).
"""
from __future__ import annotations

import base64
import csv
import io
import json
import os
import re
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from grader import load_specs
from grader.driver import Driver
from grader.report.class_report import class_report_html
from grader.report.classroom import classroom_results, encoded_result, write_classroom_output
from grader.report.csv_grades import STUDENT_COLUMNS, TOTAL_COLUMN, grades_csv
from grader.report.escape import markdown_block as fenced
from grader.report.feedback_md import feedback_markdown
from grader.report.gradescope import gradescope_results
from grader.report.labels import labels_from_specs
from grader.report.parts import student_view
from grader.report.prairielearn import prairielearn_results
from grader.settings import GraderSettings

from conftest import EXERCISES, ROOT, SOLUTION

# A hidden input nobody would write by accident: it must never reach a student-visible field.
SECRET = 4104
COUNTING = textwrap.dedent(f"""\
    id: counting
    title: Count patches
    lecture: Practice 1
    uses: [num_patches]
    checks:
      - name: lecture sizes
        points: 2
        call: num_patches
        compare: count
        misconceptions:
          - like: overlapping_windows_count
            hint: "You counted overlapping windows."
        cases:
          - args: [224, 224, 16]
            expect: 196
          - args: [4, 4, 2]
            expect: 4
      - name: big images
        points: 1
        hidden: true
        call: num_patches
        compare: count
        cases:
          - args: [{SECRET}, {SECRET}, 8]
            expect: 263169
      - name: random sizes
        points: 1
        hidden: true
        visibility: after_due_date
        call: num_patches
        compare: count
        generate: {{generator: tiling_sizes, count: 5, seed: 1}}
    """)
CONCEPTS = textwrap.dedent("""\
    id: concepts
    title: Concepts
    lecture: Practice 2
    uses: [ANSWERS]
    checks:
      - name: positions
        points: 1
        answer:
          key: positions
          correct: permutation
          options: {permutation: "Right.", speed: "Positions are not about speed."}
    """)
SUBMISSIONS = {
    "good": "def num_patches(H, W, P):\n    if H % P or W % P:\n        raise ValueError\n"
            "    return (H // P) * (W // P)\n"
            "ANSWERS = {'positions': 'permutation'}\n",
    # passes every visible case, loops for ever on the hidden one, whose input it would print
    "sly": f"def num_patches(H, W, P):\n    if H == {SECRET}:\n        print('leak', H, W, P)\n"
           "        while True:\n            pass\n    return (H // P) * (W // P)\n"
           "ANSWERS = {'positions': 'permutation'}\n",
    # counts overlapping windows (a known misconception) and picks a wrong concept answer
    "windows": "def num_patches(H, W, P):\n    return (H - P + 1) * (W - P + 1)\n"
               "ANSWERS = {'positions': 'speed'}\n",
    "broken": "def num_patches(H, W, P)\n    return 0\n",
}
GRADESCOPE_TOP = {"score", "execution_time", "output", "output_format", "test_output_format",
                  "test_name_format", "visibility", "stdout_visibility", "extra_data", "tests",
                  "leaderboard"}
GRADESCOPE_TEST = {"score", "max_score", "status", "name", "name_format", "number", "output",
                   "output_format", "tags", "visibility", "extra_data"}
VISIBILITIES = {"hidden", "after_due_date", "after_published", "visible"}


@pytest.fixture(scope="module")
def specs(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("specs")
    (folder / "counting.yaml").write_text(COUNTING)
    (folder / "concepts.yaml").write_text(CONCEPTS)
    return folder


@pytest.fixture(scope="module")
def reports(specs, tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("submissions")
    grader = Driver(GraderSettings(None, specs, call_timeout=0.5, load_timeout=5))
    try:
        out = {}
        for name, text in SUBMISSIONS.items():
            (folder / f"{name}.py").write_text(text)
            out[name] = grader.grade(folder / f"{name}.py", shown=f"{name}.py").report
        return out
    finally:
        grader.close()


def student_visible_text(data) -> str:
    return json.dumps(data)


# --- Gradescope ----------------------------------------------------------------

def test_gradescope_results_have_only_documented_fields_of_the_documented_types(reports):
    for report in reports.values():
        data = gradescope_results(report)
        # max_score: ours, for scripts; see docs/lms.md
        assert set(data) - {"max_score"} <= GRADESCOPE_TOP
        assert (isinstance(data["score"], (int, float))
                and isinstance(data["execution_time"], (int, float)))
        assert data["output_format"] == "md" and data["stdout_visibility"] == "hidden"
        for _, test in enumerate(data["tests"]):
            assert set(test) <= GRADESCOPE_TEST
            assert {"name", "number", "score", "max_score", "status", "output", "output_format",
                    "tags", "visibility"} <= set(test)
            assert test["status"] in ("passed", "failed") and test["visibility"] in VISIBILITIES
            assert test["output_format"] == "md" and isinstance(test["number"], str)
            assert all(isinstance(tag, str) for tag in test["tags"])
            assert (test["status"] == "passed") == (test["score"] == test["max_score"])
        assert sum(t["score"] for t in data["tests"]) == pytest.approx(data["score"])
        assert sum(t["max_score"] for t in data["tests"]) == pytest.approx(report.max_score)


def test_gradescope_hidden_checks_are_their_own_tests_with_the_specs_visibility(reports):
    data = gradescope_results(reports["sly"])
    by_name = {t["name"].split(":")[0]: t for t in data["tests"]}
    visible, hidden, due = (by_name["counting"],
                            by_name["counting (hidden cases, after_published)"],
                            by_name["counting (hidden cases, after_due_date)"])
    assert ((visible["visibility"], hidden["visibility"], due["visibility"])
            == ("visible", "after_published", "after_due_date"))
    assert (visible["status"], hidden["status"], due["status"]) == ("passed", "failed", "passed")
    assert (hidden["output"].startswith("```text\n")
            and "big images [hidden] (0 / 1)" in hidden["output"])


def test_no_hidden_input_reaches_any_student_facing_format(reports):
    report = reports["sly"]
    raw = [c.message for e in report.exercises for c in e.checks if c.hidden]
    assert any("hidden case" in m for m in raw)
    for text in (student_visible_text(gradescope_results(report)),
                 student_visible_text(classroom_results(report)),
                 student_visible_text(prairielearn_results(report)),
                 feedback_markdown("sly", report)):
        assert str(SECRET) not in text and "leak" not in text
    # Gradescope's after_published test and the feedback file name the failing hidden case
    for text in (student_visible_text(gradescope_results(report)),
                 feedback_markdown("sly", report)):
        assert "failed on hidden case 1 of 1" in text


def reveals_hidden_results(text: str) -> bool:
    """The sly submission's full scores (counting 3 / 4, total 4 / 5) or a hidden failure."""
    return any(leak in text for leak in ("3 / 4", "4 / 5", "/ 4", "/ 5", "[hidden]",
                                         "hidden case 1", "failed", "big images"))


def test_gradescope_shows_visible_points_only_until_published(reports):
    data = gradescope_results(reports["sly"])  # fails one hidden check, no visible one
    visible = [t for t in data["tests"] if t["visibility"] == "visible"]
    assert visible and all(t["status"] == "passed" and t["score"] == t["max_score"]
                           for t in visible)
    for text in [data["output"]] + [json.dumps(t) for t in visible]:
        assert not reveals_hidden_results(text), text
    assert "counting" in data["output"] and "2 / 2" in data["output"]
    assert "3 / 3" in data["output"] and "hidden checks are graded too" in data["output"]
    later = [t for t in data["tests"] if t["visibility"] != "visible"]
    assert {t["visibility"] for t in later} == {"after_published", "after_due_date"}
    published = next(t for t in later if t["visibility"] == "after_published")
    assert (published["score"], published["max_score"]) == (0, 1)
    assert "big images [hidden] (0 / 1)" in published["output"]
    assert data["score"] == reports["sly"].score == 4  # the grade: Gradescope decides who sees it


def test_a_hidden_check_marked_visible_is_still_shown_only_after_publication(reports):
    from dataclasses import replace
    report = reports["sly"]
    exercises = tuple(replace(e, checks=tuple(
        replace(c, visibility="visible") if c.hidden else c for c in e.checks))
        for e in report.exercises)
    data = gradescope_results(replace(report, exercises=exercises))
    hidden = [t for t in data["tests"] if "hidden cases" in t["name"]]
    assert hidden and {t["visibility"] for t in hidden} == {"after_published"}


def test_classroom_result_holds_the_visible_checks_only(reports):
    data = classroom_results(reports["sly"])
    assert data["status"] == "pass" and data["max_score"] == 3
    assert all("hidden" not in t["name"] for t in data["tests"])
    assert not reveals_hidden_results(json.dumps(data))


def test_prairielearn_scores_hidden_checks_but_shows_none_of_their_results(reports):
    data = prairielearn_results(reports["sly"])
    assert data["score"] == pytest.approx(4 / 5) and data["message"].startswith("4 / 5 points")
    shown = json.dumps([data["output"]] + data["tests"])
    assert not reveals_hidden_results(shown.replace("4 / 5", ""))
    hidden = [t for t in data["tests"] if "hidden cases" in t["name"]]
    assert [t["name"] for t in hidden] == ["counting (hidden cases): Count patches"]
    assert "points" not in hidden[0] and "passed" not in hidden[0]["message"]


def test_plain_text_is_fenced_so_markdown_keeps_it_as_written(reports):
    data = gradescope_results(reports["windows"])
    failed = [t for t in data["tests"] if t["status"] == "failed"]
    assert failed and all(t["output"].startswith("```text\n") and t["output"].endswith("\n```")
                          for t in failed)
    assert data["output"].startswith("```text\n")
    assert fenced("a ``` b").startswith("````text\n") and fenced("a ``` b").endswith("\n````")


# --- GitHub Classroom ------------------------------------------------------------

def test_classroom_result_is_the_runner_format_the_reporter_reads(reports, tmp_path):
    output = tmp_path / "github_output"
    output.write_text("earlier=1\n")
    write_classroom_output(reports["windows"], str(output))
    lines = output.read_text().splitlines()
    assert lines[0] == "earlier=1" and lines[1].startswith("result=")
    data = json.loads(base64.b64decode(lines[1].split("=", 1)[1]))
    assert set(data) == {"version", "status", "max_score", "tests"} and data["version"] == 1
    visible = student_view(reports["windows"])
    assert data["status"] == "fail" and data["max_score"] == visible.max_score
    for test in data["tests"]:
        assert set(test) == {"name", "status", "message", "test_code", "filename", "line_no",
                             "duration", "score"}
        assert (test["status"] in ("pass", "fail") and isinstance(test["duration"], int)
                and test["line_no"] == 0)
    # the reporter's NotifyClassroom: totalPoints = sum of tests[].score, maxPoints = max_score
    assert sum(t["score"] for t in data["tests"]) == pytest.approx(visible.score)


def test_classroom_status_is_pass_error_as_the_reporter_expects(reports):
    assert classroom_results(reports["good"])["status"] == "pass"
    assert classroom_results(reports["broken"])["status"] == "error"


def test_classroom_without_github_output_prints_the_line(reports, capsys):
    assert write_classroom_output(reports["good"], None) is None
    assert capsys.readouterr().out == f"result={encoded_result(reports['good'])}\n"


# --- PrairieLearn -----------------------------------------------------------------

def test_prairielearn_results_score_is_a_fraction_and_tests_carry_points(reports):
    report = reports["windows"]
    data = prairielearn_results(report)
    assert data["gradable"] is True and 0.0 <= data["score"] <= 1.0
    assert data["score"] == pytest.approx(report.score / report.max_score)
    scored = [t for t in data["tests"] if "points" in t]
    for test in scored:
        assert set(test) == {"name", "description", "points", "max_points", "message", "output"}
        assert 0 <= test["points"] <= test["max_points"]
    assert (sum(t["max_points"] for t in scored)
            == pytest.approx(student_view(report).max_score))


def test_prairielearn_ungradable_submission_has_format_errors_and_no_score(
        reports, specs, tmp_path):
    data = prairielearn_results(reports["broken"])
    assert data["gradable"] is False and "score" not in data
    assert data["format_errors"] and all(isinstance(e, str) for e in data["format_errors"])
    assert any("SyntaxError" in e for e in data["format_errors"])
    not_python = tmp_path / "essay.txt"
    not_python.write_text("I did the exercises in my head.")
    grader = Driver(GraderSettings(None, specs))
    try:
        data = prairielearn_results(grader.grade(not_python).report)
    finally:
        grader.close()
    assert (data["gradable"] is False
            and "not a Python module or notebook" in data["format_errors"][0])


# --- grades.csv (Canvas and Moodle imports) -------------------------------------------

def canvas_accepts_header(row: list[str]) -> tuple[int, list[str]]:
    """Canvas's GradebookImporter#header? and update_column_count, transcribed: (student
    columns, assignments)."""
    assert len(row) > 3 and "Student" in row[0] and "ID" in row[1]
    columns = 3
    if re.search(r"SIS\s+Login\s+ID", row[2]):
        columns += 1
    elif re.search(r"SIS\s+User\s+ID", row[2]) and re.search(r"SIS\s+Login\s+ID", row[3]):
        columns += 2
    assert "Section" in row[columns - 1]
    non_assignment = re.compile("Current Score|Current Points|Current Grade|Final Score|"
                                "Final Points|Final Grade|"
                                "Override Score|Override Grade|Override Status")
    return columns, [h for h in row[columns:] if not non_assignment.search(h)]


def test_grades_csv_header_is_what_canvas_and_moodle_import(reports):
    exercises = ["counting", "concepts"]
    rows = list(csv.reader(io.StringIO(
        grades_csv([(k, v) for k, v in reports.items()] + [("gone", None)], exercises))))
    header = rows[0]
    assert header == STUDENT_COLUMNS + exercises + [TOTAL_COLUMN]
    columns, assignments = canvas_accepts_header(header)
    assert columns == 5 and assignments == exercises  # the total is not imported as an assignment
    # one row per student, no Points Possible row
    assert [r[0] for r in rows[1:]] == sorted(list(reports) + ["gone"])
    for row in rows[1:]:
        # SIS Login ID: what Moodle's "map from" and Canvas's login lookup use
        assert row[3] == row[0]
        cells = row[5:]
        # Moodle: '' = no grade, else a number
        assert all(c == "" or re.fullmatch(r"\d+(\.\d{1,2})?", c) for c in cells)
        if row[0] != "gone":
            assert float(cells[-1]) == pytest.approx(sum(float(c) for c in cells[:-1]))
    gone = next(r for r in rows if r[0] == "gone")
    assert gone[5:] == ["", "", ""]  # not graded: no grade, in both importers


def test_grades_csv_never_starts_a_cell_with_a_formula():
    text = grades_csv([("=HYPERLINK(1)", None)], ["x"])
    assert "\r\n'=HYPERLINK(1),,,'=HYPERLINK(1)," in text


# --- feedback and class report ---------------------------------------------------------

def test_feedback_summarises_hidden_cases_without_their_inputs(reports):
    text = feedback_markdown("sly", reports["sly"])
    assert text.startswith("# Feedback for sly")
    assert "Hidden cases: 1 of 2 checks passed (1 / 2 points)." in text and str(SECRET) not in text
    assert "All visible checks passed." in text
    windows = feedback_markdown("windows", reports["windows"])
    assert ("num_patches(H=224, W=224, P=16)" in windows
            and "You counted overlapping windows." in windows)


def test_class_report_names_misconceptions_with_the_share_of_students(reports, specs):
    labels = labels_from_specs(load_specs(specs)[0])
    page = class_report_html([(k, v, None) for k, v in reports.items()]
                             + [("gone", None, "grading took longer than 1 s")], labels=labels)
    assert "<img" in page and "data:image/png;base64," in page
    # by a human name (no title in these specs: the hint's first clause) and where it lives
    assert re.search(r'<td data-value="1">25%</td><td>1</td><td>You counted overlapping '
                     r"windows</td><td>num_patches</td><td>counting</td>", page)
    # a wrong answer is labelled by what was answered (the mistake), the hint says the rule
    assert re.search(r"<td>answered &quot;speed&quot;</td><td>ANSWERS\[&quot;positions"
                     r"&quot;\]</td><td>concepts</td><td>Positions are not about speed", page)
    assert "<td>overlapping_windows_count</td>" not in page and ">positions:speed<" not in page
    assert "gone" in page and "grading took longer than 1 s" in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # self-contained


def test_class_report_without_matplotlib_says_how_to_get_the_plots(reports, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    page = class_report_html([(k, v, None) for k, v in reports.items()])
    assert "<img" not in page and "pip install 'vit-grader[report]'" in page
    assert "You counted overlapping windows" in page


# --- the command line wires every format (real specs) ---------------------------------------

def test_vitgrade_grade_writes_every_format_at_once(tmp_path):
    out = {name: tmp_path / name for name in ("gs.json", "pl.json", "junit.xml", "github_output")}
    env = {**os.environ, "GITHUB_OUTPUT": str(out["github_output"])}
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(SOLUTION), "-q",
                           "--exercises", str(EXERCISES),
                           "--json", str(out["gs.json"]), "--prairielearn", str(out["pl.json"]),
                           "--junitxml", str(out["junit.xml"]), "--classroom"],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    gradescope = json.loads(out["gs.json"].read_text())
    assert gradescope["score"] == gradescope["max_score"] > 0
    assert json.loads(out["pl.json"].read_text())["score"] == 1.0
    classroom = json.loads(base64.b64decode(
        out["github_output"].read_text().strip().split("=", 1)[1]))
    visible = sum(t["max_score"] for t in gradescope["tests"] if t["visibility"] == "visible")
    assert classroom["status"] == "pass" and classroom["max_score"] == visible  # no hidden ones
    cases = ET.parse(out["junit.xml"]).getroot().iter("testcase")
    points = {c.get("name"): {p.get("name"): float(p.get("value")) for p in c.iter("property")}
              for c in cases}
    assert len(points) == len(list(EXERCISES.glob("*.yaml")))
    assert all(p["points"] == p["score"] > 0 for p in points.values())
    assert sum(p["points"] for p in points.values()) == gradescope["max_score"]


def test_the_classroom_workflow_is_what_the_reporter_requires():
    workflow = yaml.safe_load(
        (ROOT / "examples" / "github-classroom" / "classroom.yml").read_text())
    assert (workflow["name"] == "Autograding Tests"
            and list(workflow["jobs"]) == ["run-autograding-tests"])
    steps = workflow["jobs"]["run-autograding-tests"]["steps"]
    grading = next(s for s in steps if s.get("id") == "vitgrade")
    assert ("vitgrade grade" in grading["run"] and "--classroom" in grading["run"]
            and grading["continue-on-error"])
    reporter = next(s for s in steps if s.get("uses", "").startswith(
        "classroom-resources/autograding-grading-reporter@"))
    runners = reporter["with"]["runners"]
    # the reporter's own check of its input
    assert re.fullmatch(r"([a-zA-Z0-9]+,)*[a-zA-Z0-9]+", runners)
    assert reporter["env"] == {f"{runners.upper()}_RESULTS": "${{ steps.vitgrade.outputs.result }}"}
