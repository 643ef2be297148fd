"""PrairieLearn's external-grader results (PrairieLearn's docs/externalGrading.md, "Grading
results").

`score` is a fraction in [0, 1]; `tests[]` carry `name`, `description`, `points`, `max_points`,
`message` and `output`, which `<pl-external-grader-results>` renders. A submission that cannot be
graded at all (not a module or notebook, a syntax error everywhere) is `gradable: false` with
`format_errors`: PrairieLearn then neither awards nor takes points, nor counts the attempt. No
string holds a control character (escape.py).
"""
from __future__ import annotations

from grader.checks.results import PASSED, GradeReport

from .escape import json_strings
from .feedback_md import part_feedback
from .parts import named_parts
from .terminal import report_header, score_table


def prairielearn_results(report: GradeReport) -> dict:
    output = "\n".join(report_header(report) + [score_table(report)])
    if report.fatal or not report.exercises:
        errors = [report.fatal] if report.fatal else []
        errors += [p for p in report.load_problems if p != report.fatal]
        errors += list(report.spec_errors)
        return json_strings({
            "gradable": False,
            "format_errors": errors or ["no exercise could be graded"],
            "message": f"{report.submission} could not be graded.",
            "output": output,
        })
    tests = []
    for exercise in report.exercises:
        for name, part, _ in named_parts(exercise):
            passed = all(c.status == PASSED for c in part.checks)
            tests.append({
                "name": name,
                "description": part.lecture,
                "points": part.score,
                "max_points": part.max_score,
                "message": "All checks passed." if passed else
                f"{sum(not c.passed for c in part.checks)} of {len(part.checks)} checks failed.",
                "output": "" if passed else part_feedback(part),
            })
    score = report.score / report.max_score if report.max_score else 0.0
    return json_strings({
        "gradable": True,
        "score": min(1.0, max(0.0, round(score, 6))),
        "message": f"{report.score:g} / {report.max_score:g} points",
        "output": output,
        "tests": tests,
    })
