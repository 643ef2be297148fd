"""The class report's plots: PNGs made with matplotlib (the optional `report` extra), as base64.

No pyplot: no GUI backend and no global state. Axes that count students have integer ticks
(MaxNLocator(integer=True)): "2.5 students" is no tick a person wants to read.
"""
from __future__ import annotations

import base64
import io

from .class_summary import ClassSummary

MISCONCEPTIONS_SHOWN = 15


def plots(s: ClassSummary) -> dict | None:
    """name -> base64 PNG ("histogram", "pass_rate", "misconceptions"), or None without
    matplotlib."""
    try:
        from matplotlib.figure import Figure
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        return None
    out = {}
    totals = [100 * r.score / r.max_score if r.max_score else 0.0 for _, r in s.graded]
    fig = Figure(figsize=(6, 3), dpi=100)
    ax = fig.subplots()
    ax.hist(totals, bins=[10 * i for i in range(11)], color="#4878a8", edgecolor="white")
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
        ax.barh([_label(m) for m in shown], [len(m.students) for m in shown], color="#e15759")
        ax.set_xlim(0, max(len(s.graded), 1))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(f"students who hit it (of {len(s.graded)})")
        out["misconceptions"] = _png(fig)
    return out


def _label(m) -> str:
    return f"{m.title} ({m.where})".replace("$", r"\$")  # no mathtext


def _png(fig) -> str:
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return base64.b64encode(buffer.getvalue()).decode("ascii")
