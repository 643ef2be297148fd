"""An exercise's result as the tests an LMS shows: its visible checks, then its hidden ones.

Gradescope, GitHub Classroom and PrairieLearn all show one test per part, named here, so that a
visible test never says "all passed" while hidden cases fail.
"""
from __future__ import annotations

from grader.checks.results import ExerciseResult


def exercise_parts(exercise: ExerciseResult) -> list[tuple[ExerciseResult, str]]:
    """(part, visibility): the visible checks, then the hidden ones grouped by their visibility."""
    parts = []
    visible = exercise.part(hidden=False)
    if visible.checks:
        parts.append((visible, "visible"))
    hidden = exercise.part(hidden=True).checks
    for visibility in dict.fromkeys(c.visibility for c in hidden):
        checks = tuple(c for c in hidden if c.visibility == visibility)
        parts.append((ExerciseResult(exercise.id, exercise.title, exercise.lecture, checks,
                                     exercise.seconds), visibility))
    return parts


def named_parts(exercise: ExerciseResult) -> list[tuple[str, ExerciseResult, str]]:
    """(test name, part, visibility) for each part of `exercise_parts`."""
    parts = exercise_parts(exercise)
    hidden_groups = sum(part.checks[0].hidden for part, _ in parts)
    return [(part_name(part, visibility, hidden_groups), part, visibility)
            for part, visibility in parts]


def part_name(part: ExerciseResult, visibility: str, hidden_groups: int = 1) -> str:
    if not part.checks or not part.checks[0].hidden:
        return f"{part.id}: {part.title}"
    which = "hidden cases" if hidden_groups <= 1 else f"hidden cases, {visibility}"
    return f"{part.id} ({which}): {part.title}"
