"""Per-student feedback as markdown, and the wording of hidden checks for every student-facing
report.

A hidden check is summarised from a whitelist of what may be said (passed or not, which case
number failed, the kind of failure, the spec's hint), never by passing on its message: whatever
text the grading layer attached, no hidden input or expected value reaches a student.
"""
from __future__ import annotations

import re

from grader.checks import ExerciseResult
from grader.checks.describe import stand_in_note
from grader.checks.results import MISSING, NOT_IMPLEMENTED, PASSED, CheckResult, GradeReport

from .escape import markdown_block, markdown_text
from .feedback_level import CASE, TIME_LIMIT_WORDS
from .terminal import (
    STATUS_WORDS,
    all_passed,
    exercise_feedback,
    exercise_heading,
    points,
    report_header,
    score_table,
)

_RAISED = re.compile(r"\byour code raised ([A-Za-z_][A-Za-z0-9_.]*)")


def hidden_check_line(check: CheckResult) -> str:
    """One line about a hidden check: what a student may know of it."""
    head = f"{check.name} [hidden] ({points(check.score)} / {points(check.points)})"
    if check.status == PASSED:
        return f"ok {head}" + (f": {stand_in_note(check.stand_ins)}" if check.stand_ins else "")
    if check.status in (NOT_IMPLEMENTED, MISSING):
        return f"x {head}: {STATUS_WORDS[check.status]}"
    return f"x {head}: {hidden_failure(check)}"


def hidden_failure(check: CheckResult) -> str:
    message = check.message or ""
    case = CASE.search(message)
    what = (f"failed on hidden case {case.group(1)} of {case.group(2)}" if case
            else "failed on a hidden case")
    raised = _RAISED.search(message)
    if raised:
        what += f": your code raised {raised.group(1)}"
    elif any(words in message for words in TIME_LIMIT_WORDS):
        what += ": your code took too long"
    elif "crashed" in message or "worker process" in message or "died" in message:
        what += ": your code crashed the process running it"
    return what + " (its inputs are not shown)"


def part_feedback(part: ExerciseResult) -> str:
    """exercise_feedback for visible checks; hidden checks summarised by `hidden_check_line`."""
    visible = part.part(hidden=False)
    if not any(c.hidden for c in part.checks):
        return exercise_feedback(visible)
    lines = [exercise_heading(part), *exercise_feedback(visible).splitlines()[1:]]
    for check in part.checks:
        if check.hidden and not check.passed:
            lines.append(f"  {hidden_check_line(check)}")
            if check.hint:
                lines.append(f"    {check.hint_label}hint: {check.hint}")
    return "\n".join(lines)


def feedback_markdown(student: str, report: GradeReport | None, problem: str | None = None) -> str:
    """What `vitgrade grade` would have shown this student, as markdown. Student text (the id,
    the path, messages) is escaped inline or fenced (escape.py): none of it is live markup."""
    lines = [f"# Feedback for {markdown_text(student)}", ""]
    if report is None:
        lines += ["Your submission could not be graded automatically: "
                  f"{markdown_text(problem or 'unknown reason')}.",
                  "Your instructor will look at it."]
        return "\n".join(lines) + "\n"
    percent = 100 * report.score / report.max_score if report.max_score else 0.0
    lines += [f"Submission {markdown_text(report.submission)}: "
              f"**{points(report.score)} / {points(report.max_score)}** ({percent:.0f}%)", ""]
    header = report_header(report)
    if header:
        lines += [markdown_block("\n".join(header)), ""]
    lines += [markdown_block(score_table(report)), ""]
    for exercise in report.exercises:
        lines += _exercise_section(exercise)
    return "\n".join(lines).rstrip() + "\n"


def _exercise_section(exercise: ExerciseResult) -> list[str]:
    score = f"{points(exercise.score)} / {points(exercise.max_score)}"
    lines = [f"## {exercise.id}: {exercise.title} ({score})", ""]
    visible, hidden = exercise.part(hidden=False), exercise.part(hidden=True)
    if visible.checks:
        if all(c.passed for c in visible.checks):
            lines.append(all_passed(visible, what="All visible checks"))
        elif exercise.status in (NOT_IMPLEMENTED, MISSING):
            lines.append(f"{STATUS_WORDS[exercise.status].capitalize()}.")
        else:
            lines.append(markdown_block(exercise_feedback(visible)))
        lines.append("")
    if hidden.checks:
        passed = sum(c.passed for c in hidden.checks)
        lines.append(f"Hidden cases: {passed} of {len(hidden.checks)} checks passed "
                     f"({points(hidden.score)} / {points(hidden.max_score)} points).")
        failed = [c for c in hidden.checks if not c.passed]
        if failed and exercise.status not in (NOT_IMPLEMENTED, MISSING):
            body = [line for check in failed for line in (
                hidden_check_line(check),
                *([f"  {check.hint_label}hint: {check.hint}"] if check.hint else []))]
            lines += ["", markdown_block("\n".join(body))]
        lines.append("")
    return lines
