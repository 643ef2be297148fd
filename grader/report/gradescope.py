"""Gradescope's results.json: https://gradescope-autograders.readthedocs.io (results format).

Visible and hidden checks of an exercise are separate tests, so the visible entry never
says "all passed" while hidden cases fail; a hidden entry's text never carries inputs.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from grader.checks.results import PASSED, ExerciseResult, GradeReport

from .terminal import exercise_feedback, report_header, score_table


def gradescope_results(report: GradeReport) -> dict:
    tests = []
    for exercise in report.exercises:
        for hidden in (False, True):
            part = exercise.part(hidden)
            if part.checks:
                tests.append(_test(part, hidden, len(tests) + 1))
    return {
        "score": report.score,
        "max_score": report.max_score,
        "execution_time": round(report.seconds, 3),
        "output": "\n\n".join(report_header(report) + [score_table(report)]),
        "output_format": "md",
        "stdout_visibility": "hidden",
        "tests": tests,
    }


def _test(part: ExerciseResult, hidden: bool, number: int) -> dict:
    passed = all(c.status == PASSED for c in part.checks)
    visibility = part.checks[0].visibility if hidden else "visible"
    name = f"{part.id} (hidden cases)" if hidden else part.id
    return {
        "name": f"{name}: {part.title}",
        "number": str(number),
        "score": part.score,
        "max_score": part.max_score,
        "status": "passed" if passed else "failed",
        "output": "All checks passed." if passed else exercise_feedback(part),
        "output_format": "md",
        "tags": [part.lecture],
        "visibility": visibility,
    }


def write_json_atomic(path: str | Path, data: dict) -> None:
    """Write to a temporary file beside `path`, then rename: readers never see half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2, allow_nan=False)
            handle.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
