"""report.html in a real browser: Debian's headless Chromium, driven by Playwright's Python API
(`executable_path`: Playwright's own browser builds are never downloaded; `.ci/run` installs
`chromium`). A small class is graded with `grade-all`, one student's folder named like markup and
their code raising and printing markup; the page's plots load, its tables render and sort, each
student's link opens an existing feedback file, and no student text runs. The screenshot is
taken on every run into the test's own folder; with VITGRADE_SCREENSHOT=1 it replaces
docs/images/class-report.png, which docs/lms.md shows (a test run leaves the checkout as it was)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from grader.batch.records import read_record
from grader.report.class_report import class_report_html
from grader.report.labels import Labels

from conftest import EXERCISES, ROOT, SOLUTION, TEMPLATE

SCREENSHOT = ROOT / "docs" / "images" / "class-report.png"
MARKUP = '<img src=x onerror="window.__pwned=1"><b id=injected>bold</b>'
# a syntax error: the student is listed under "Needs a look"
HOSTILE = "def num_patches(H, W, P)\n    return '<script>window.__pwned=2</script>'\n"
# names as they would be if an id were ever not cleaned (grade-all's ids are: discover.py)
RAW_NAMES = {"bob": MARKUP.replace("/", ""), "carol": "<script>window.__pwned=5",
             "@eve+1": "<svg onload=window.__pwned=6>"}


def chromium() -> str:
    path = shutil.which("chromium")
    if path is None:
        pytest.fail("Debian's chromium is not installed: `bash .ci/run` installs it "
                    "(apt-get install -y chromium)", pytrace=False)
    return path


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    folder, out = tmp_path_factory.mktemp("class"), tmp_path_factory.mktemp("out")
    solution = SOLUTION.read_text()
    (folder / "alice.py").write_text(solution)
    bugs = {"bob": [("return (H // P) * (W // P)", "return (H - P + 1) * (W - P + 1)"),
                    ("np.sqrt(var + eps)", "(np.sqrt(var) + eps)")],
            "@eve+1": [("return P * P * C", "return P * P"),
                       ("np.sqrt(var + eps)", "(np.sqrt(var) + eps)"),
                       ("return x[0] @ params", "return x.mean(axis=0) @ params")]}
    for student, changes in bugs.items():
        text = solution
        for old, new in changes:
            assert old in text
            text = text.replace(old, new, 1)
        (folder / f"{student}.py").write_text(text)
    (folder / "carol.py").write_text(TEMPLATE.read_text())
    hostile = folder / f"<script>window.__pwned=3<{MARKUP.replace('/', '')}"
    hostile.mkdir()
    (hostile / "vit_exercises.py").write_text(HOSTILE)
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade-all", str(folder),
                           "--out", str(out), "--jobs", "2", "--no-progress",
                           "--exercises", str(EXERCISES)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    raw_names_page(out)
    return out / "report.html"


def raw_names_page(out: Path) -> None:
    """OUT/raw-names.html: the same class's records, two students renamed to raw markup, with
    their feedback files, written by the same report code."""
    rows = []
    for path in sorted((out / "results").glob("*.json")):
        record = read_record(path)
        name = RAW_NAMES.get(record.student, record.student)
        rows.append((name, record.report, record.reason or None))
        if name != record.student:
            (out / "feedback" / f"{name}.md").write_text(f"# Feedback for {name}\n")
    (out / "raw-names.html").write_text(class_report_html(rows, labels=Labels()))


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright is not installed: pip install -e '.[test]'", pytrace=False)
    with sync_playwright() as playwright:
        chrome = playwright.chromium.launch(executable_path=chromium(), headless=True,
                                            args=["--no-sandbox"])  # CI runs as root
        try:
            yield chrome
        finally:
            chrome.close()


def opened(browser, path: Path):
    tab = browser.new_page(viewport={"width": 1100, "height": 1400})
    tab.errors = []
    tab.on("pageerror", lambda error: tab.errors.append(str(error)))
    tab.goto(path.as_uri())
    tab.wait_for_load_state("load")
    return tab


@pytest.fixture(scope="module")
def page(browser, report):
    return opened(browser, report)


@pytest.fixture(scope="module", params=["report.html", "raw-names.html"])
def any_page(request, browser, report):
    return opened(browser, report.parent / request.param)


def test_the_plots_load_with_a_size(page):
    images = page.query_selector_all("img")
    assert len(images) == 3  # histogram, pass rate, misconceptions
    for image in images:
        assert image.evaluate("i => i.complete && i.naturalWidth > 0 && i.naturalHeight > 0")
        box = image.bounding_box()
        assert box["width"] > 100 and box["height"] > 100


def test_the_tables_render(page):
    headings = page.eval_on_selector_all("h2", "hs => hs.map(h => h.textContent)")
    assert headings[:3] == ["Scores", "Pass rate per exercise", "Misconceptions"]
    assert {"Similar code", "Needs a look", "Students"} <= set(headings)
    for table in page.query_selector_all("table"):
        assert table.is_visible() and table.bounding_box()["height"] > 20
    misconceptions = page.locator("h2:text('Misconceptions') ~ table").first
    assert "overlapping stride-1 windows" in misconceptions.inner_text()
    assert "num_patches" in misconceptions.inner_text()


def test_the_exercise_table_sorts_by_difficulty_when_a_header_is_clicked(page):
    table = page.locator("table.sortable").first
    column = 4  # "full marks": the pass rate

    def rates():
        return table.locator(f"tbody tr td:nth-child({column + 1})").evaluate_all(
            "cells => cells.map(c => Number(c.dataset.value))")

    header = table.locator("th", has_text=re.compile(r"^full marks$"))  # not "... by variant"
    before = rates()
    assert len(set(before)) > 1  # something to sort
    header.click()
    assert rates() == sorted(before)
    assert header.get_attribute("aria-sort") == "ascending"
    header.click()
    assert rates() == sorted(before, reverse=True)


def test_each_student_links_to_an_existing_feedback_file(any_page, report):
    links = any_page.locator("h2:text('Students') ~ table a")
    assert links.count() == 5
    for i in range(links.count()):
        link = links.nth(i)
        target = Path(unquote(urlparse(link.evaluate("a => a.href")).path))
        assert target.is_file() and target.parent == report.parent / "feedback"
        assert target.name == link.inner_text() + ".md"
        assert target.read_text().startswith("# Feedback for")


def test_no_student_text_runs_as_markup(any_page):
    assert any_page.evaluate("typeof window.__pwned") == "undefined"
    assert any_page.query_selector("#injected") is None
    assert any_page.query_selector("[onerror]") is None
    assert len(any_page.query_selector_all("script")) == 1  # ours
    assert any_page.errors == []


def test_raw_names_are_shown_as_text(browser, report):
    tab = opened(browser, report.parent / "raw-names.html")
    text = tab.inner_text("body")
    assert all(name in text for name in RAW_NAMES.values())


def test_a_screenshot_for_the_docs(page, tmp_path):
    shot = (SCREENSHOT if os.environ.get("VITGRADE_SCREENSHOT") == "1"
            else tmp_path / SCREENSHOT.name)
    shot.parent.mkdir(parents=True, exist_ok=True)
    # from the exercise table to the similar-code section: what a lecturer reads first
    def page_y(selector: str, end: bool = False) -> float:  # in the page, however scrolled
        return page.locator(selector).first.evaluate(
            f"e => e.getBoundingClientRect().{'bottom' if end else 'top'} + window.scrollY")

    top = page_y("h2:text('Pass rate per exercise') ~ table") - 20
    bottom = page_y("h2:text('Similar code') ~ p", end=True) + 20
    page.screenshot(path=str(shot), full_page=True,
                    clip={"x": 0, "y": top, "width": 1100, "height": bottom - top})
    assert shot.stat().st_size > 10_000
