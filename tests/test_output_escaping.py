"""Student text in instructor files is inert: a class whose file and folder names, exception
messages and printed output hold markdown, HTML, formulas and terminal escapes is graded, and
no report gives any of it a meaning (grader/report/escape.py)."""
from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from grader.report.escape import csv_cell, markdown_block, markdown_text, terminal_text
from grader.report.report_page import SORT_SCRIPT

from conftest import EXERCISES, ROOT, SOLUTION

SPECS = ["patch-count.yaml", "token-count.yaml"]
HTML_BITS = "<img src=x onerror=alert(1)>"
LINK = "[x](javascript:alert(1))"
RAISES = ('def num_patches(H, W, P):\n'
          '    print("\\x1b[2J<script>alert(1)</script>")\n'
          '    raise ValueError("\\x1b[31m<img src=x onerror=alert(2)>` ``` "\n'
          '                     "[x](javascript:alert(3))")\n')
LOUD = ('print("\\x1b[31m<b>loud</b>\\x1b[0m [p](javascript:alert(1))")\n'
        'raise ValueError("\\x1b]0;pwned\\x07<img src=x onerror=alert(1)> "\n'
        '                 "[e](javascript:alert(1))")\n')


@pytest.fixture(scope="module")
def specs(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("exercises")
    for name in SPECS:
        shutil.copy(EXERCISES / name, folder / name)
    return folder


@pytest.fixture(scope="module")
def hostile_class(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("class")
    (folder / "`tick` ``` x").mkdir()
    (folder / "`tick` ``` x" / "vit_exercises.py").write_text(RAISES)
    (folder / HTML_BITS).mkdir()
    (folder / HTML_BITS / "vit_exercises.py").write_text(LOUD)
    (folder / f"{LINK}.py").write_text(LOUD)
    (folder / f"{HTML_BITS}x.txt").write_text("<b>not</b> python\n")
    (folder / "=HYPERLINK(1+1).py").write_text(SOLUTION.read_text())
    (folder / "@SUM(1).py").write_text(RAISES)
    (folder / "-2+3.py").write_text(RAISES)
    return folder


@pytest.fixture(scope="module")
def graded(hostile_class, specs, tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    out = tmp_path_factory.mktemp("out")
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade-all", str(hostile_class),
                           "--out", str(out), "--exercises", str(specs), "--no-progress",
                           "--jobs", "2", "--call-timeout", "1", "--load-timeout", "5"],
                          cwd=ROOT, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done, out


def outside_fences(markdown: str) -> str:
    """The markdown's text that is not in a fenced code block (a fence closes only on a line of
    at least as many backticks as opened it)."""
    kept, fence = [], None
    for line in markdown.splitlines():
        run = re.match(r"(`{3,})", line)
        if fence is None and run:
            fence = run.group(1)
        elif fence is not None and re.fullmatch(rf"{fence}`*\s*", line):
            fence = None
        elif fence is None:
            kept.append(line)
    assert fence is None, "a fence was left open"
    return "\n".join(kept)


def test_feedback_markdown_has_no_live_link_html_or_code_span(graded):
    _, out = graded
    files = list((out / "feedback").glob("*.md"))
    assert len(files) == 7
    shown = 0
    for path in files:
        text = path.read_text()
        assert "\x1b" not in text
        inline = re.sub(r"\\.", "", outside_fences(text))  # backslash escapes are inert
        for live in ("<", "[", "`", "javascript:"):
            assert live not in inline, (path.name, live)
        shown += "javascript" in text
    assert shown >= 3  # the student text is shown, escaped or fenced, not dropped


def test_fences_are_longer_than_any_backtick_run_of_student_text():
    block = markdown_block("``` ```` `")
    assert block.startswith("`````text\n") and outside_fences(block) == ""


class Elements(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attrs, self.text, self.scripts = set(), [], [], []
        self.in_script = False

    def handle_endtag(self, tag):
        self.in_script = False

    def handle_starttag(self, tag, attrs):
        self.in_script = tag == "script"
        self.tags.add(tag)
        self.attrs += [(tag, name, value) for name, value in attrs]

    def handle_data(self, data):
        if self.in_script:
            self.scripts.append(data)
        else:
            self.text.append(data)


def test_class_report_has_no_element_or_attribute_from_student_text(graded):
    _, out = graded
    page = Elements()
    page.feed((out / "report.html").read_text())
    ours = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "br", "table",
            "thead", "tbody", "tr", "th", "td", "img", "code", "a", "script"}
    assert page.tags <= ours
    for tag, name, value in page.attrs:
        assert (tag, name) in {("html", "lang"), ("meta", "charset"), ("meta", "http-equiv"),
                               ("meta", "content"), ("p", "class"), ("table", "class"),
                               ("th", "data-sort"), ("td", "data-value"), ("a", "href"),
                               ("img", "alt"), ("img", "src")}, (tag, name)
        if name == "src":
            assert value.startswith("data:image/png;base64,")
        if name == "href":  # a relative link to a feedback file, percent-encoded
            assert re.fullmatch(r"feedback/[A-Za-z0-9._%~-]+\.md", value), value
    assert page.scripts == [SORT_SCRIPT]  # ours, the one the page's policy allows
    text = "".join(page.text)
    assert HTML_BITS in text and "\x1b" not in text  # shown as text, escapes made visible


def test_grades_csv_cells_never_start_a_formula(graded):
    _, out = graded
    rows = list(csv.reader(io.StringIO((out / "grades.csv").read_text())))
    cells = [cell for row in rows[1:] for cell in row]
    for cell in cells:
        if cell.startswith(("=", "+", "-", "@", "\t", "\r")):
            float(cell)  # only a number may
    # ids keep @ + - (discover.student_id); @SUM(1)'s is made safe, so it ends in ~ and 8 digits
    assert any(c.startswith("'@SUM_1_~") for c in cells) and "'-2+3" in cells


def test_csv_cell_keeps_numbers_and_neutralises_the_rest():
    assert [csv_cell(t) for t in ("-3", "1.5", "-x", "\tx", "+1+1", "alice")] == [
        "-3", "1.5", "'-x", "'\tx", "'+1+1", "alice"]


def test_grade_all_prints_no_escape_sequence(graded):
    done, _ = graded
    assert "\x1b" not in done.stdout + done.stderr


def test_vitgrade_grade_shows_escapes_and_writes_none(hostile_class, specs, tmp_path):
    submission = hostile_class / "`tick` ``` x" / "vit_exercises.py"
    results = {name: tmp_path / name for name in ("gs.json", "pl.json")}
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(submission),
                           "--exercises", str(specs), "--call-timeout", "1",
                           "--json", str(results["gs.json"]),
                           "--prairielearn", str(results["pl.json"])],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "\x1b" not in done.stdout + done.stderr
    assert "\\x1b[31m<img" in done.stdout  # visible, not acted on
    for path in results.values():
        strings = json.dumps(json.loads(path.read_text()), ensure_ascii=False)
        assert not re.search(r"\\u00(0[0-8bcef]|1[0-9a-f]|7f)", json.dumps(
            json.loads(path.read_text()))), path.name  # no control character in any string
        assert "\\\\x1b" in strings


def test_terminal_text_shows_every_control_but_newline_and_tab():
    shown = terminal_text("a\x1b[1m\r\x9b\u202e\tb\nc\x7f")
    assert shown == "a\\x1b[1m\\x0d\\x9b\\u202e\tb\nc\\x7f"


def test_markdown_text_escapes_every_punctuation_and_stays_on_its_line():
    assert markdown_text(f"{LINK}\n# h") == r"\[x\]\(javascript\:alert\(1\)\)\\x0a\# h"
