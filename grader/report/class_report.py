"""report.html: where a class is stuck, in one self-contained page a lecturer reads before class
(docs/lms.md, "The class report", lists its sections). Plots are PNGs made with matplotlib (the
optional `report` extra; without it the same tables, and how to get the plots). Every string is
HTML-escaped (escape.py), attributes included; the page loads nothing from outside
(report_page.py).
"""
from __future__ import annotations

import base64
import io
import statistics
from urllib.parse import quote

from grader.checks.results import GradeReport

from .class_summary import ClassSummary, summarise
from .escape import html_text
from .labels import Labels
from .outputs import FEEDBACK_FOLDER
from .report_page import page
from .terminal import points

NO_PLOTS = ("Plots need matplotlib: <code>pip install 'vit-grader[report]'</code> "
            "(or <code>pip install matplotlib</code>), then run the command again.")
MISCONCEPTIONS_SHOWN = 15  # in the plot
# A shard's report: what is rare ("found in at most k of the N") is a property of the class
AT_MERGE = ("compared over the whole class when the shards are merged (vitgrade merge), never "
            "within one shard")


def class_report_html(rows: list[tuple[str, GradeReport | None, str | None]],
                      title: str = "vit-grader class report", labels: Labels | None = None,
                      similarity=None) -> str:
    """`similarity`: a grader.similarity.pairs.Similarity, AT_MERGE (a shard), or None when it
    was not computed."""
    summary = summarise(rows, labels)
    plots = _plots(summary)
    parts = [f"<h1>{_e(title)}</h1>", _overview(summary)]
    if plots is None:
        parts.append(f'<p class="note">{NO_PLOTS}</p>')
    plot = (plots or {}).get
    parts += [_section("Scores", plot("histogram"), _score_table(summary)),
              _section("Pass rate per exercise", plot("pass_rate"), _exercise_table(summary)),
              _section("Misconceptions", plot("misconceptions"), _misconception_table(summary)),
              similarity_section(similarity) if similarity is not None else "",
              _attention(summary), _students_table(summary)]
    return page(_e(title), "\n".join(p for p in parts if p))


# --- text and tables -------------------------------------------------------------

def _percents(s: ClassSummary) -> list[float]:
    """Each graded student's total score, in percent."""
    return [100 * r.score / r.max_score if r.max_score else 0.0 for _, r in s.graded]


def _overview(s: ClassSummary) -> str:
    totals = _percents(s)
    not_graded = f", {len(s.not_graded)} could not be graded (see below)" if s.not_graded else ""
    lines = [f"{s.students} submissions; {len(s.graded)} graded{not_graded}."]
    if totals:
        lines.append(f"Mean {statistics.fmean(totals):.0f}%, "
                     f"median {statistics.median(totals):.0f}%; "
                     f"{sum(t >= 99.999 for t in totals)} with full marks.")
    if s.misconceptions:
        top = s.misconceptions[0]
        lines.append(f"Most common misconception: {_share(len(top.students), len(s.graded))} "
                     f"of students ({_e(top.title)}, in {_e(top.where)}).")
    return "<p>" + "<br>".join(lines) + "</p>"


def _score_table(s: ClassSummary) -> str:
    bins = [0] * 10
    for percent in _percents(s):
        bins[min(int(percent // 10), 9)] += 1
    rows = [(f"{10 * i}-{10 * i + 10}%" if i < 9 else "90-100%", str(n))
            for i, n in enumerate(bins)]
    return _table(["total score", "students"], rows)


def _exercise_table(s: ClassSummary) -> str:
    """Sortable: click "full marks" or "mean" to order the exercises by difficulty."""
    rows = []
    for ident, title, top in s.exercises:
        mean, rate = s.mean_score[ident], s.pass_rate[ident]
        share = mean / top if top else 0.0
        variants = "; ".join(f"variant {v}: {done}/{total}"  # one variant harder than the rest
                             for v, (done, total) in s.by_variant.get(ident, {}).items())
        rows.append([ident, title, (points(top), top), (points(round(mean, 2)), round(share, 6)),
                     (f"{100 * rate:.0f}%", round(rate, 6))] + [variants] * bool(s.by_variant))
    header = [("exercise", ""), ("title", ""), ("points", "num"), ("mean", "num"),
              ("full marks", "num")] + [("full marks by variant", "")] * bool(s.by_variant)
    return (_table(header, rows, sortable=True)
            + "<p>Click a column's header to sort by it (again: the other way).</p>")


def _misconception_table(s: ClassSummary) -> str:
    if not s.misconceptions:
        return "<p>No known misconception was matched.</p>"
    rows = [[(_share(len(m.students), len(s.graded)), len(m.students)), str(len(m.students)),
             m.title, m.where, ", ".join(m.exercises), m.hint] for m in s.misconceptions]
    header = [("students", "num"), ("count", "num"), ("misconception", ""),
              ("in function", ""), ("exercise", ""), ("what it means (the hint students saw)", "")]
    return ("<p>Each student is counted once per misconception, however many checks caught "
            "it.</p>" + _table(header, rows, sortable=True))


def _attention(s: ClassSummary) -> str:
    rows = [*s.not_graded, *((student, r.fatal) for student, r in s.graded if r.fatal),
            *s.time_limits]
    return "<h2>Needs a look</h2>" + _table(["student", "why"], sorted(rows)) if rows else ""


def _students_table(s: ClassSummary) -> str:
    ids = [ident for ident, _, _ in s.exercises]
    rows = []
    for student, r in sorted(s.graded):
        scores = {e.id: e.score for e in r.exercises}
        total = r.score / r.max_score if r.max_score else 0.0
        rows.append([_Link(student)] + [(points(scores.get(i, 0)), scores.get(i, 0)) for i in ids]
                    + [(f"{points(r.score)} / {points(r.max_score)}", round(total, 6))])
    for student, _ in sorted(s.not_graded):
        rows.append([_Link(student)] + [("", -1)] * len(ids) + [("not graded", -1)])
    header = [("student", "")] + [(i, "num") for i in ids] + [("total", "num")]
    return ("<h2>Students</h2><p>Each name links to the student's feedback file.</p>"
            + _table(header, rows, sortable=True))


class _Link(str):
    """A student's name, shown as the link to their feedback file."""


def _section(heading: str, png: str | None, table: str) -> str:
    image = f'<img alt="{_e(heading)}" src="data:image/png;base64,{png}">' if png else ""
    return f"<h2>{_e(heading)}</h2>{image}{table}"


def _table(header: list, rows, sortable: bool = False) -> str:
    """`header`: names, or (name, "num" | "") for a sortable table; a cell is text, or
    (text, sort key), or a _Link."""
    head = "".join(_th(h) for h in header)
    body = "".join("<tr>" + "".join(_td(c) for c in row) + "</tr>" for row in rows)
    table = '<table class="sortable">' if sortable else "<table>"
    return f"{table}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _th(h) -> str:
    name, kind = h if isinstance(h, tuple) else (h, "")
    return f'<th data-sort="{kind}">{_e(name)}</th>' if kind else f"<th>{_e(name)}</th>"


def _td(cell) -> str:
    if isinstance(cell, _Link):  # the relative link of the feedback file, percent-encoded
        href = f"{FEEDBACK_FOLDER}/{quote(cell + '.md', safe='')}"
        return f'<td><a href="{_e(href)}">{_e(cell)}</a></td>'
    if isinstance(cell, tuple):
        text, key = cell
        return f'<td data-value="{_e(key)}">{_e(text)}</td>'
    return f"<td>{_e(str(cell))}</td>"


def _share(count: int, total: int) -> str:
    return f"{100 * count / total:.0f}%" if total else "0%"


# --- similar code: advice for a person to read both files, never a grade --------------------

def similarity_section(similarity) -> str:
    """`similarity`: a grader.similarity.pairs.Similarity, or AT_MERGE (a shard's report)."""
    heading = "<h2>Similar code</h2>"
    if similarity == AT_MERGE:
        return (f"{heading}<p>Similar code is {_e(AT_MERGE)}: whether a fragment is rare, found "
                "in at most a few of the submissions, depends on the whole class.</p>")
    s = similarity
    intro = (f"<p>Pairs of submissions whose code is unusually similar, function by function: "
             f"they share fragments of code (variable names, comments and layout aside) found in "
             f"at most {s.rare_limit} of the {s.compared} submissions compared and not in the "
             f"course's own code"
             f"{' (' + _e(', '.join(s.ignored)) + ')' if s.ignored else ''}. "
             "This is advice for a person, not evidence and never a grade: read both files "
             "before drawing any conclusion.</p>")
    notes = []
    if s.without_code:
        notes.append(f"Not compared (not graded, or no code could be read from the file: "
                     f"not a .py or .ipynb, over 1 MB, or unreadable): "
                     f"{_e(', '.join(s.without_code))}.")
    if s.more:
        notes.append(f"{s.more} more pairs are not listed.")
    notes_html = "".join(f'<p class="note">{n}</p>' for n in notes)
    if not s.pairs:
        return f"{heading}{intro}<p>No pair of submissions is unusually similar.</p>{notes_html}"
    rows = []
    for pair in s.pairs:
        functions = ", ".join(f"{m.function} ({100 * m.similarity:.0f}%)" for m in pair.matches)
        rows.append(f"<tr><td>{_e(pair.a)}</td><td>{_e(pair.b)}</td><td>{_e(functions)}</td></tr>")
    table = ("<table><thead><tr><th>student</th><th>student</th>"
             "<th>similar functions (share of the smaller version in common)</th></tr></thead>"
             f"<tbody>{''.join(rows)}</tbody></table>")
    return f"{heading}{intro}{table}{notes_html}"


# --- plots: no pyplot (no GUI backend, no global state); axes counting students have integer
# ticks ("2.5 students" is no tick a person wants to read) --------------------------------------

def _plots(s: ClassSummary) -> dict | None:
    """name ("histogram", "pass_rate", "misconceptions") -> base64 PNG; None without matplotlib."""
    try:
        from matplotlib.figure import Figure
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        return None
    out = {}
    fig = Figure(figsize=(6, 3), dpi=100)
    ax = fig.subplots()
    ax.hist(_percents(s), bins=[10 * i for i in range(11)], color="#4878a8", edgecolor="white")
    ax.set_xlabel("total score (%)")
    ax.set_ylabel("students")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
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
        shown = s.misconceptions[:MISCONCEPTIONS_SHOWN][::-1]
        fig = Figure(figsize=(7, 0.4 * len(shown) + 1), dpi=100)
        ax = fig.subplots()
        labels = [f"{m.title} ({m.where})".replace("$", r"\$") for m in shown]  # no mathtext
        ax.barh(labels, [len(m.students) for m in shown], color="#e15759")
        ax.set_xlim(0, max(len(s.graded), 1))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(f"students who hit it (of {len(s.graded)})")
        out["misconceptions"] = _png(fig)
    return out


def _png(fig) -> str:
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


_e = html_text  # every string of the page goes through it
