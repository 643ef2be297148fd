"""Gradescope's results.json (https://gradescope-autograders.readthedocs.io/en/latest/specs/).

Every exercise is one test for its visible checks, plus one per visibility of its hidden checks
(parts.py), a hidden check summarised by `feedback_md.hidden_check_line`, never by its raw
message. What a student sees before publication (the top-level `output`, the `visible` tests)
holds the visible checks' points only. Outputs are markdown, plain text inside code fences
(escape.py); docs/lms.md ("Gradescope") gives every field.
"""
from __future__ import annotations

from grader.checks.results import PASSED, ExerciseResult, GradeReport

from .escape import json_strings, markdown_block
from .feedback_md import part_feedback
from .parts import HIDDEN_NOTE, has_hidden, named_parts, student_view
from .terminal import all_passed, report_header, score_table

MARKDOWN = "md"


def gradescope_results(report: GradeReport) -> dict:
    tests = []
    for number, exercise in enumerate(report.exercises, 1):
        for sub, (name, part, visibility) in enumerate(named_parts(exercise), 1):
            tests.append(_test(name, part, visibility, f"{number}.{sub}"))
    table = [score_table(student_view(report))] + ([HIDDEN_NOTE] if has_hidden(report) else [])
    return json_strings({
        "score": report.score,  # the grade; Gradescope's settings decide when students see it
        "max_score": report.max_score,  # Gradescope sums the tests instead; kept for scripts
        "execution_time": round(report.seconds, 3),
        "output": markdown_block("\n".join(report_header(student_view(report)) + [
            f"submission: {report.submission}"] + table)),
        "output_format": MARKDOWN,
        "stdout_visibility": "hidden",  # the grader's stdout is for instructors only
        "tests": tests})


def _test(name: str, part: ExerciseResult, visibility: str, number: str) -> dict:
    passed = all(c.status == PASSED for c in part.checks)
    hidden = part.checks[0].hidden
    return {"name": name, "number": number, "score": part.score, "max_score": part.max_score,
            "status": "passed" if passed else "failed",
            "output": all_passed(part, hidden) if passed else markdown_block(part_feedback(part)),
            "output_format": MARKDOWN, "tags": [part.id, part.lecture], "visibility": visibility}
