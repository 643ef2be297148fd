"""An exercise's result as the tests an LMS shows: its visible checks, then its hidden ones.

Gradescope, GitHub Classroom and PrairieLearn all show one test per part, named here, so that a
visible test never says "all passed" while hidden cases fail. `student_view` is what a student
may see before grades are published: the visible checks, their points and nothing else.
"""
from __future__ import annotations

from dataclasses import replace

from grader.checks.results import ExerciseResult, GradeReport

# A hidden check's results go to a test a student sees only later: a spec's `visibility:
# visible` on a hidden check would show them at once, so it falls back to this.
HIDDEN_DEFAULT = "after_published"
HIDDEN_NOTE = ("Visible checks only: the hidden checks are graded too, and their results and "
               "points are shown when grades are published.")


def student_view(report: GradeReport) -> GradeReport:
    """The report restricted to visible checks; exercises with none are left out."""
    parts = (e.part(hidden=False) for e in report.exercises)
    return replace(report, exercises=tuple(p for p in parts if p.checks))


def has_hidden(report: GradeReport) -> bool:
    return any(c.hidden for e in report.exercises for c in e.checks)


def named_parts(exercise: ExerciseResult) -> list[tuple[str, ExerciseResult, str]]:
    """(test name, part, visibility): the visible checks, then the hidden ones grouped by their
    visibility (the spec's, never `visible`)."""
    visible, hidden = exercise.part(hidden=False), exercise.part(hidden=True).checks
    parts = [(visible, "visible")] if visible.checks else []
    shown = [HIDDEN_DEFAULT if c.visibility == "visible" else c.visibility for c in hidden]
    for group in dict.fromkeys(shown):
        checks = tuple(c for c, s in zip(hidden, shown, strict=True) if s == group)
        parts.append((replace(exercise, checks=checks), group))
    hidden_groups = len(parts) - bool(visible.checks)
    return [(part_name(part, v, hidden_groups), part, v) for part, v in parts]


def part_name(part: ExerciseResult, visibility: str, hidden_groups: int = 1) -> str:
    if not part.checks or not part.checks[0].hidden:
        return f"{part.id}: {part.title}"
    which = "hidden cases" if hidden_groups <= 1 else f"hidden cases, {visibility}"
    return f"{part.id} ({which}): {part.title}"
