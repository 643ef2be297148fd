"""GitHub Classroom: the runner result that classroom-resources/autograding-grading-reporter reads
(`result=<base64 of one JSON object>` in `$GITHUB_OUTPUT`), a test per exercise part.

Classroom prints it in the student's own Actions log at once and has no later publication: it
holds the visible checks only, never a hidden check's points or verdict (docs/lms.md).
"""
from __future__ import annotations

import base64
import json
from pathlib import Path

from grader.checks.results import PASSED, GradeReport

from .escape import json_strings
from .feedback_md import part_feedback
from .parts import named_parts, student_view
from .terminal import report_header

VERSION = 1  # the runner format's version, as the classroom-resources graders write it


def classroom_results(report: GradeReport) -> dict:
    view = student_view(report)
    tests = []
    for exercise in view.exercises:
        for name, part, _ in named_parts(exercise):
            passed = all(c.status == PASSED for c in part.checks)
            tests.append({
                "name": name, "status": "pass" if passed else "fail",
                "message": None if passed else part_feedback(part),
                "test_code": f"vitgrade grade {report.submission}  # exercise {part.id}",
                "filename": "", "line_no": 0,
                "duration": round(1000 * sum(c.seconds for c in part.checks)),  # milliseconds
                "score": part.score})
    status = ("error" if report.fatal or not report.exercises
              else "pass" if all(t["status"] == "pass" for t in tests) else "fail")
    result = {"version": VERSION, "status": status, "max_score": view.max_score, "tests": tests}
    if status == "error":
        result["message"] = "\n".join(report_header(report)) or "no exercise could be graded"
    return json_strings(result)


def encoded_result(report: GradeReport) -> str:
    """The base64 text that goes after `result=`."""
    data = json.dumps(classroom_results(report), allow_nan=False).encode("utf-8")
    return base64.b64encode(data).decode("ascii")


def write_classroom_output(report: GradeReport, github_output: str | None) -> Path | None:
    """Append `result=...` to the `$GITHUB_OUTPUT` file; print it when there is none (local)."""
    line = f"result={encoded_result(report)}\n"
    if not github_output:
        print(line, end="")
        return None
    path = Path(github_output)
    with path.open("a", encoding="utf-8") as handle:  # appended: other steps' outputs stay
        handle.write(line)
    return path
