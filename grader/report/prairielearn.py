"""PrairieLearn's external-grader results (PrairieLearn's docs/externalGrading.md, "Grading
results"): a `score` in [0, 1] and `tests[]`; a submission that cannot be graded at all is
`gradable: false` with `format_errors`, so the attempt neither awards nor takes points.

PrairieLearn shows everything at once: `score` counts every check, the tests show the visible
checks, and an exercise's hidden checks are one test without points or verdict (docs/lms.md).
No string holds a control character (escape.py).
"""
from __future__ import annotations

from grader.checks.results import PASSED, GradeReport

from .escape import json_strings
from .feedback_md import part_feedback
from .parts import has_hidden, named_parts, part_name, student_view
from .terminal import all_passed, points, report_header, score_table

HIDDEN_TEST = "Graded: counted in your score, not shown check by check."
SCORE_NOTE = ("Visible checks only: the score also counts the hidden checks, whose results are "
               "not shown one by one.")


def prairielearn_results(report: GradeReport) -> dict:
    view = student_view(report)
    output = "\n".join(report_header(view) + [score_table(view)]
                       + ([SCORE_NOTE] if has_hidden(report) else []))
    if report.fatal or not report.exercises:
        errors = [report.fatal] if report.fatal else []
        errors += [p for p in report.load_problems if p != report.fatal]
        errors += list(report.spec_errors)
        return json_strings({"gradable": False,
                             "format_errors": errors or ["no exercise could be graded"],
                             "message": f"{report.submission} could not be graded.",
                             "output": output})
    tests = []
    for exercise in report.exercises:
        for name, part, _ in named_parts(exercise.part(hidden=False)):
            passed = all(c.status == PASSED for c in part.checks)
            tests.append({
                "name": name, "description": part.lecture, "points": part.score,
                "max_points": part.max_score, "message": all_passed(part) if passed else
                f"{sum(not c.passed for c in part.checks)} of {len(part.checks)} checks failed.",
                "output": "" if passed else part_feedback(part)})
        hidden = exercise.part(hidden=True)
        if hidden.checks:
            tests.append({"name": part_name(hidden, "hidden"), "description": hidden.lecture,
                          "message": HIDDEN_TEST, "output": ""})
    score = report.score / report.max_score if report.max_score else 0.0
    return json_strings({
        "gradable": True, "score": min(1.0, max(0.0, round(score, 6))),
        "message": f"{points(report.score)} / {points(report.max_score)} points"
                   + (" (hidden checks included)" if has_hidden(report) else ""),
        "output": output, "tests": tests})
