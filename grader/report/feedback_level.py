"""How much a student is told of each check: its feedback level, applied once, to the results.

    score     the score only (a check is "check 2")
    name      + the check's name
    hint      + the hint, the failing case's number and the kind of failure (an exception's
              type, too long), as a hidden check says
    expected  + expected and got
    full      + the inputs, the line to reproduce, the traceback and what the code printed
              (visible cases only: a hidden case never shows its inputs, at any level)

Each check's level is decided by `check_levels`. The grading session redacts every
ExerciseResult as it records it (`redacted`), so every output (the terminal, results files,
feedback.md, the class report) reads what the level lets through, and nothing else.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from grader.checks.course_file import DUE, LEVELS, when
from grader.checks.results import FAILED, CheckResult, ExerciseResult

FULL = "full"
WHAT_OPENS = {"name": "the check's name", "hint": "the hint", "expected": "expected and got",
              "full": "the inputs and the traceback"}


@dataclass(frozen=True)
class Opening:
    """What decides whether a step of `opens:` is open: this attempt's number (None: not known
    on this platform), the due date (None: none set) and the time now."""
    attempt: int | None = None
    due: datetime | None = None
    now: datetime = field(default_factory=lambda: datetime.now(UTC))


_CASE_CALL = re.compile(r"^(\s*case \d+ of \d+): ")
CASE = re.compile(r"\bcase (\d+) of (\d+)\b")
_RAISED = re.compile(r"\b(?:your code raised|got:)\s+([A-Za-z_][A-Za-z0-9_.]*(?:Error|Exception|"
                     r"Interrupt|Exit|Warning|Stop\w*))\b")
# how a check says a time limit stopped it, a call's own or the whole submission's
# (grader/worker/student_worker.py: DID_NOT_RETURN, OUT_OF_TIME; "timed out": the load's)
TIME_LIMIT_WORDS = ("timed out", "out of time", "did not return within")


def at_least(level: str, wanted: str) -> bool:
    return LEVELS.index(level) >= LEVELS.index(wanted)


def check_levels(exercise, given: str | None = None, course: str | None = None,
                 opening: Opening | None = None) -> dict:
    """{check name: (level, what opens next: "" when nothing)} of `exercise`'s checks: `given`
    (`--feedback`, VITGRADE_FEEDBACK), else the check's `feedback:`, else the exercise's, else
    `course` (course.yaml's default for the platform), else full; unless `given`, raised by
    each step of its `opens:` (the check's, else the exercise's) open at `opening`: from the
    Nth attempt on, or after a date."""
    levels: dict[str, tuple[str, str]] = {}
    for check in exercise.checks:
        if given:
            levels.setdefault(check.name, (given, ""))
            continue
        base = check.feedback or exercise.feedback or course or FULL
        opens = check.opens or exercise.opens or {}
        levels.setdefault(check.name, opened(base, opens, opening or Opening()))
    return levels


def opened(level: str, opens: dict, opening: Opening) -> tuple[str, str]:
    """(the level once the open steps of `opens` are applied, what opens next and when)."""
    closed = []
    for step, rule in opens.items():
        if _is_open(rule, opening):
            level = max(level, step, key=LEVELS.index)
        else:
            closed.append((step, rule))
    later = [f"{WHAT_OPENS[step]} {_when(rule, opening)}"
             for step, rule in sorted(closed, key=lambda item: LEVELS.index(item[0]))
             if LEVELS.index(step) > LEVELS.index(level)]
    return level, ("more feedback opens: " + "; ".join(later)) if later else ""


def opening_state(exercises, opening: Opening) -> str:
    """What the `opens:` steps of `exercises` make of `opening`: the attempt (when a step counts
    attempts) and, for each step, whether it is open; "" when no step opens anything. Reports
    graded at two states say different things (grade-all grades a record of another again)."""
    rules = [rule for exercise in exercises
             for opens in (exercise.opens, *(check.opens for check in exercise.checks)) if opens
             for rule in opens.values()]
    if not rules:
        return ""
    attempt = opening.attempt if any(rule.get("attempts") for rule in rules) else None
    return f"attempt={attempt},open=" + "".join("1" if _is_open(rule, opening) else "0"
                                                 for rule in rules)


def _is_open(rule: dict, opening: Opening) -> bool:
    attempts, after = rule.get("attempts"), rule.get("after")
    moment = opening.due if after == DUE else when(after)
    return bool((attempts and opening.attempt is not None and opening.attempt >= attempts)
                or (after and moment is not None and opening.now >= moment))


def _when(rule: dict, opening: Opening) -> str:
    said = []
    if rule.get("attempts"):
        this = (f"this is attempt {opening.attempt}" if opening.attempt is not None
                else "attempts are not counted here")
        said.append(f"at attempt {rule['attempts']} ({this})")
    after = rule.get("after")
    if after:
        moment = opening.due if after == DUE else when(after)
        date = moment.strftime("%Y-%m-%d %H:%M %Z").strip() if moment else None
        said.append(f"after the due date ({date or 'none is set here'})" if after == DUE
                    else f"after {date}")
    return " or ".join(said)


def redacted(result: ExerciseResult, levels: dict) -> ExerciseResult:
    """`result` with each check told at its level (`levels`: check name -> (level, what opens
    next); full if not named)."""
    told = {name: level if isinstance(level, tuple) else (level, "")
            for name, level in levels.items()}
    if all(told.get(c.name, (FULL, ""))[0] == FULL for c in result.checks):
        return result
    return replace(result, checks=tuple(
        redacted_check(check, *told.get(check.name, (FULL, "")), number=number)
        for number, check in enumerate(result.checks, 1)))


def redacted_check(check: CheckResult, level: str, later: str = "", *, number: int = 1
                   ) -> CheckResult:
    """What `level` lets through of `check` (the `number`th of its exercise), and, when it
    failed, `later`: what opens next (in the message; a hidden check's in its hint, as its
    message is read from a whitelist). A grader's own problem, a missing function and a hidden
    check keep their message: it holds no input or expected value."""
    if level == FULL and not later:
        return check
    message = check.message
    if check.status == FAILED and not at_least(level, "hint"):
        message = ""  # the score (and the name): nothing of how it failed
    elif check.status == FAILED and not check.hidden:
        message = expected_only(message) if level == "expected" else failure_summary(message)
    hint = check.hint if at_least(level, "hint") else None
    if later and not check.passed:
        if check.hidden:
            hint = f"{hint} ({later})" if hint else later
        else:
            message = f"{message}\n{later}" if message else later
    return replace(check, message=message, printed="", hint=hint,
                   hint_kind=check.hint_kind if at_least(level, "hint") else None,
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
        if text.startswith("to reproduce:"):  # and the lines under it, where it is long
            under = indent
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
    case = CASE.search(message)
    what = f"failed on case {case.group(1)} of {case.group(2)}" if case else "failed"
    raised = _RAISED.search(message)
    if raised:
        return f"{what}: your code raised {raised.group(1)}"
    if any(words in message for words in TIME_LIMIT_WORDS):
        return f"{what}: your code took too long"
    return what
