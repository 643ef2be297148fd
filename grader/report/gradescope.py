"""Gradescope's results.json (https://gradescope-autograders.readthedocs.io/en/latest/specs/).

Every exercise is one test for its visible checks, plus one test per visibility setting of its
hidden checks (the spec's `visibility`, `after_published` by default): a visible test never says
"all passed" while hidden cases fail, and a hidden check is summarised by
`feedback_md.hidden_check_line`, never by its raw message, so its inputs cannot leak. Outputs
are markdown (`output_format: md`); plain text, whose indentation and `*` markdown would
mangle, goes inside code fences.
"""
from __future__ import annotations

import json
from pathlib import Path

from grader.checks.results import PASSED, ExerciseResult, GradeReport

from .feedback_md import fenced, part_feedback
from .terminal import report_header, score_table

MARKDOWN = "md"


def gradescope_results(report: GradeReport) -> dict:
    tests = []
    for number, exercise in enumerate(report.exercises, 1):
        parts = exercise_parts(exercise)
        hidden_groups = sum(part.checks[0].hidden for part, _ in parts)
        for sub, (part, visibility) in enumerate(parts, 1):
            tests.append(_test(part, visibility, f"{number}.{sub}", hidden_groups))
    return {
        "score": report.score,
        "max_score": report.max_score,  # not read by Gradescope (it sums the tests); kept for scripts
        "execution_time": round(report.seconds, 3),
        "output": fenced("\n".join(report_header(report) + [f"submission: {report.submission}", score_table(report)])),
        "output_format": MARKDOWN,
        "stdout_visibility": "hidden",  # the grader's stdout is for instructors: no student output leaks
        "tests": tests,
    }


def exercise_parts(exercise: ExerciseResult) -> list[tuple[ExerciseResult, str]]:
    """(part, visibility): the visible checks, then the hidden ones grouped by their visibility."""
    parts = []
    visible = exercise.part(hidden=False)
    if visible.checks:
        parts.append((visible, "visible"))
    hidden = exercise.part(hidden=True).checks
    for visibility in dict.fromkeys(c.visibility for c in hidden):
        checks = tuple(c for c in hidden if c.visibility == visibility)
        parts.append((ExerciseResult(exercise.id, exercise.title, exercise.lecture, checks, exercise.seconds), visibility))
    return parts


def part_name(part: ExerciseResult, visibility: str, hidden_groups: int = 1) -> str:
    if not part.checks or not part.checks[0].hidden:
        return f"{part.id}: {part.title}"
    which = "hidden cases" if hidden_groups <= 1 else f"hidden cases, {visibility}"
    return f"{part.id} ({which}): {part.title}"


def _test(part: ExerciseResult, visibility: str, number: str, hidden_groups: int) -> dict:
    passed = all(c.status == PASSED for c in part.checks)
    hidden = part.checks[0].hidden
    return {
        "name": part_name(part, visibility, hidden_groups),
        "number": number,
        "score": part.score,
        "max_score": part.max_score,
        "status": "passed" if passed else "failed",
        "output": ("All hidden cases passed." if hidden else "All checks passed.") if passed
        else fenced(part_feedback(part)),
        "output_format": MARKDOWN,
        "tags": [part.id, part.lecture],
        "visibility": visibility,
    }


def write_json_atomic(path: str | Path, data: dict) -> None:
    """Write to a temporary file beside `path`, then rename: readers never see half a file."""
    from .outputs import write_text_atomic

    write_text_atomic(path, json.dumps(data, indent=2, allow_nan=False) + "\n", suffix=".json")
