"""How much a student is told of each check: its feedback level, applied once, to the results.

    score     the score only (a check is "check 2")
    name      + the check's name
    hint      + the hint, the failing case's number and the kind of failure (an exception's
              type, too long), as a hidden check says
    expected  + expected and got
    full      + the inputs, the line to reproduce, the traceback and what the code printed
              (visible cases only: a hidden case never shows its inputs, at any level)

A check's level is, first found: the command line's `--feedback LEVEL`, the environment's
`VITGRADE_FEEDBACK`, the check's `feedback:`, its exercise's `feedback:`, the course's default
for the platform (`feedback:` of the exercises folder's `course.yaml`: checks/course_file.py)
and else `full`. The grading session redacts every ExerciseResult as it records it
(`redacted`), so every output (the terminal, results files, feedback.md, the class report)
reads what the level lets through, and nothing else.
"""
from __future__ import annotations

import re
from dataclasses import replace

from grader.checks.course_file import LEVELS
from grader.checks.results import FAILED, CheckResult, ExerciseResult

FULL = "full"

_CASE_CALL = re.compile(r"^(\s*case \d+ of \d+): ")
_CASE = re.compile(r"\bcase (\d+) of (\d+)\b")
_RAISED = re.compile(r"\b(?:your code raised|got:)\s+([A-Za-z_][A-Za-z0-9_.]*(?:Error|Exception|"
                     r"Interrupt|Exit|Warning|Stop\w*))\b")
_TOO_LONG = ("timed out", "out of time", "did not return within")


def at_least(level: str, wanted: str) -> bool:
    return LEVELS.index(level) >= LEVELS.index(wanted)


def check_levels(exercise, given: str | None = None, course: str | None = None) -> dict:
    """{check name: level} of `exercise`'s checks: `given` (command line, environment), else the
    check's `feedback:`, else the exercise's, else `course` (the platform's default), else full."""
    levels: dict[str, str] = {}
    for check in exercise.checks:
        levels.setdefault(check.name, given or getattr(check, "feedback", None)
                          or getattr(exercise, "feedback", None) or course or FULL)
    return levels


def redacted(result: ExerciseResult, levels: dict) -> ExerciseResult:
    """`result` with each check told at its level (`levels`: check name -> level; full if not
    named)."""
    if all(levels.get(c.name, FULL) == FULL for c in result.checks):
        return result
    return replace(result, checks=tuple(
        redacted_check(check, levels.get(check.name, FULL), number)
        for number, check in enumerate(result.checks, 1)))


def redacted_check(check: CheckResult, level: str, number: int) -> CheckResult:
    """What `level` lets through of `check` (the `number`th of its exercise). A grader's own
    problem (a broken spec, an internal error) and a missing or unwritten function keep their
    message: it says nothing of the check's cases; so does a hidden check (its message is
    already what a student may know of it: grading wrote no input or expected value there)."""
    if level == FULL:
        return check
    message = check.message
    if check.status == FAILED and not at_least(level, "hint"):
        message = ""  # the score (and the name): nothing of how it failed
    elif check.status == FAILED and not check.hidden:
        message = expected_only(message) if level == "expected" else failure_summary(message)
    return replace(check, message=message, printed="",
                   hint=check.hint if at_least(level, "hint") else None,
                   name=check.name if at_least(level, "name") else f"check {number}")


def expected_only(message: str) -> str:
    """A failure's message without the inputs: the case's call becomes its number, and the line
    to reproduce and the traceback ("your code:" and the lines under it) go."""
    lines, under = [], None
    for line in (message or "").splitlines():
        indent = len(line) - len(line.lstrip())
        if under is not None and indent > under:
            continue
        under = None
        text = line.strip()
        if text.startswith("to reproduce:"):
            continue
        if text == "your code:":
            under = indent
            continue
        case = _CASE_CALL.match(line)
        lines.append(case.group(1) if case else line)
    return "\n".join(lines)


def failure_summary(message: str) -> str:
    """What a failure was, without expected or got: the case's number and the kind of failure
    (an exception's type, too long), as a hidden check's failure is told."""
    message = message or ""
    case = _CASE.search(message)
    what = f"failed on case {case.group(1)} of {case.group(2)}" if case else "failed"
    raised = _RAISED.search(message)
    if raised:
        return f"{what}: your code raised {raised.group(1)}"
    if any(words in message for words in _TOO_LONG):
        return f"{what}: your code took too long"
    return what
