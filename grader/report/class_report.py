"""report.html: where a class is stuck, in one self-contained page a lecturer reads before class.

Score histogram, pass rate per exercise, and the misconceptions the class hit with the share of
students behind each ("31% counted overlapping windows"). Plots are PNGs made with matplotlib
(the optional `report` extra) and embedded as base64; without matplotlib the page has the same
tables and says how to get the plots. Nothing here loads anything from outside the file. Every
string is HTML-escaped (escape.py), attributes included; the page has no links.
"""
from __future__ import annotations

import base64
import io
import statistics
from dataclasses import dataclass, field

from grader.checks.results import PASSED, GradeReport

from .escape import html_text
from .terminal import points

NO_PLOTS = ("Plots need matplotlib: <code>pip install 'vit-grader[report]'</code> "
            "(or <code>pip install matplotlib</code>), then run the command again.")


@dataclass
class Misconception:
    name: str  # "overlapping_windows_count", or for multiple choice "positions:speed"
    exercise: str
    hint: str
    students: set = field(default_factory=set)


@dataclass(frozen=True)
class ClassSummary:
    students: int
    graded: list                   # (student, GradeReport) of every submission with a report
    not_graded: list               # (student, why)
    exercises: list                # (id, title, max points)
    pass_rate: dict                # exercise id -> share of graded students with full marks
    mean_score: dict               # exercise id -> mean points
    misconceptions: list           # Misconception, most students first


def summarise(rows: list[tuple[str, GradeReport | None, str | None]]) -> ClassSummary:
    """rows: (student id, report or None, why it could not be graded)."""
    graded = [(s, r) for s, r, _ in rows if r is not None]
    not_graded = [(s, why or "not graded") for s, r, why in rows if r is None]
    exercises: dict[str, tuple[str, str, float]] = {}
    for _, report in graded:
        for e in report.exercises:
            exercises.setdefault(e.id, (e.id, e.title, e.max_score))
    pass_rate, mean_score = {}, {}
    for ident in exercises:
        results = [next((e for e in r.exercises if e.id == ident), None) for _, r in graded]
        results = [e for e in results if e is not None]
        passed = sum(e.status == PASSED for e in results)
        pass_rate[ident] = passed / len(results) if results else 0.0
        mean_score[ident] = statistics.fmean(e.score for e in results) if results else 0.0
    found: dict[str, Misconception] = {}
    for student, report in graded:
        for e in report.exercises:
            for check in e.checks:
                if check.misconception:
                    new = Misconception(check.misconception, e.id, check.hint or "")
                    item = found.setdefault(check.misconception, new)
                    item.students.add(student)
    ranked = sorted(found.values(), key=lambda m: (-len(m.students), m.name))
    return ClassSummary(len(rows), graded, not_graded, list(exercises.values()), pass_rate,
                        mean_score, ranked)


def class_report_html(rows: list[tuple[str, GradeReport | None, str | None]],
                      title: str = "vit-grader class report") -> str:
    summary = summarise(rows)
    plots = _plots(summary)
    parts = [f"<h1>{_e(title)}</h1>", _overview(summary)]
    if plots is None:
        parts.append(f'<p class="note">{NO_PLOTS}</p>')
    plot = (plots or {}).get
    parts += [_section("Scores", plot("histogram"), _score_table(summary)),
              _section("Pass rate per exercise", plot("pass_rate"), _exercise_table(summary)),
              _section("Misconceptions", plot("misconceptions"), _misconception_table(summary)),
              _attention(summary), _students_table(summary)]
    return _PAGE.format(title=_e(title), body="\n".join(p for p in parts if p))


# --- text and tables -------------------------------------------------------------

def _overview(s: ClassSummary) -> str:
    totals = [100 * r.score / r.max_score if r.max_score else 0.0 for _, r in s.graded]
    not_graded = f", {len(s.not_graded)} could not be graded (see below)" if s.not_graded else ""
    lines = [f"{s.students} submissions; {len(s.graded)} graded{not_graded}."]
    if totals:
        lines.append(f"Mean {statistics.fmean(totals):.0f}%, "
                     f"median {statistics.median(totals):.0f}%; "
                     f"{sum(t >= 99.999 for t in totals)} with full marks.")
    if s.misconceptions:
        top = s.misconceptions[0]
        lines.append(f"Most common misconception: {_share(len(top.students), len(s.graded))} "
                     f"of students ({_e(top.name)} in {_e(top.exercise)}).")
    return "<p>" + "<br>".join(lines) + "</p>"


def _score_table(s: ClassSummary) -> str:
    bins = [0] * 10
    for _, r in s.graded:
        percent = 100 * r.score / r.max_score if r.max_score else 0.0
        bins[min(int(percent // 10), 9)] += 1
    rows = [(f"{10 * i}-{10 * i + 10}%" if i < 9 else "90-100%", str(n))
            for i, n in enumerate(bins)]
    return _table(["total score", "students"], rows)


def _exercise_table(s: ClassSummary) -> str:
    rows = [(ident, title, points(top), f"{points(round(s.mean_score[ident], 2))}",
             f"{100 * s.pass_rate[ident]:.0f}%") for ident, title, top in s.exercises]
    return _table(["exercise", "title", "points", "mean", "full marks"], rows)


def _misconception_table(s: ClassSummary) -> str:
    if not s.misconceptions:
        return "<p>No known misconception was matched.</p>"
    rows = [(_share(len(m.students), len(s.graded)), str(len(m.students)), m.exercise, m.name,
             m.hint) for m in s.misconceptions]
    header = ["students", "count", "exercise", "misconception",
              "what it means (the hint students saw)"]
    return _table(header, rows)


def _attention(s: ClassSummary) -> str:
    rows = [(student, why) for student, why in s.not_graded]
    rows += [(student, r.fatal) for student, r in s.graded if r.fatal]
    if not rows:
        return ""
    return "<h2>Needs a look</h2>" + _table(["student", "why"], sorted(rows))


def _students_table(s: ClassSummary) -> str:
    ids = [ident for ident, _, _ in s.exercises]
    rows = []
    for student, r in sorted(s.graded):
        scores = {e.id: e.score for e in r.exercises}
        rows.append([student] + [points(scores.get(i, 0)) for i in ids]
                    + [f"{points(r.score)} / {points(r.max_score)}"])
    for student, _ in sorted(s.not_graded):
        rows.append([student] + [""] * len(ids) + ["not graded"])
    return "<h2>Students</h2>" + _table(["student"] + ids + ["total"], rows)


def _section(heading: str, png: str | None, table: str) -> str:
    image = f'<img alt="{_e(heading)}" src="data:image/png;base64,{png}">' if png else ""
    return f"<h2>{_e(heading)}</h2>{image}{table}"


def _table(header: list[str], rows) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{_e(str(c))}</td>" for c in row) + "</tr>"
                   for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _share(count: int, total: int) -> str:
    return f"{100 * count / total:.0f}%" if total else "0%"


_e = html_text  # every string of the page goes through it


# --- plots -------------------------------------------------------------------------

def _plots(s: ClassSummary) -> dict | None:
    """name -> base64 PNG, or None without matplotlib."""
    try:
        from matplotlib.figure import Figure  # no pyplot: no GUI backend, no global state
    except ImportError:
        return None
    out = {}
    totals = [100 * r.score / r.max_score if r.max_score else 0.0 for _, r in s.graded]
    fig = Figure(figsize=(6, 3), dpi=100)
    ax = fig.subplots()
    ax.hist(totals, bins=[10 * i for i in range(11)], color="#4878a8", edgecolor="white")
    ax.set_xlabel("total score (%)")
    ax.set_ylabel("students")
    out["histogram"] = _png(fig)
    if s.exercises:
        fig = Figure(figsize=(6, 0.4 * len(s.exercises) + 1), dpi=100)
        ax = fig.subplots()
        ids = [ident for ident, _, _ in s.exercises][::-1]
        ax.barh(ids, [100 * s.pass_rate[i] for i in ids], color="#59a14f")
        ax.set_xlim(0, 100)
        ax.set_xlabel("students with full marks (%)")
        out["pass_rate"] = _png(fig)
    if s.misconceptions:
        shown = s.misconceptions[:15][::-1]
        fig = Figure(figsize=(6, 0.4 * len(shown) + 1), dpi=100)
        ax = fig.subplots()
        total = max(len(s.graded), 1)
        ax.barh([f"{m.exercise}: {m.name}" for m in shown],
                [100 * len(m.students) / total for m in shown], color="#e15759")
        ax.set_xlim(0, 100)
        ax.set_xlabel("students who hit it (%)")
        out["misconceptions"] = _png(fig)
    return out


def _png(fig) -> str:
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; }}
table {{ border-collapse: collapse; margin: 0.5rem 0 1.5rem; }}
th, td {{ border: 1px solid #ccc; padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }}
th {{ background: #f2f2f2; }}
img {{ display: block; max-width: 100%; margin: 0.5rem 0; }}
.note {{ background: #fff6d5; padding: 0.5rem; }}
</style>
</head>
<body>
{body}
</body>
</html>
"""
