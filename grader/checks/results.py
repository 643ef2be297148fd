"""What grading produces: plain frozen dataclasses that every report reads.

CheckResult -> ExerciseResult -> GradeReport. Scores are points as numbers; a check
is all or nothing, an exercise adds up its checks.
"""
from __future__ import annotations

from dataclasses import dataclass

PASSED, FAILED, NOT_IMPLEMENTED, MISSING, ERROR = (
    "passed", "failed", "not_implemented", "missing", "error")
PRINTED_CHARS = 2000  # of a student's printed output kept in a report: its end
HIDDEN_FAILURE = "failed on a hidden case (its inputs are not shown)"
# which kind of statement a hint is (issue 38, item 6): a named mistake (a listed misconception,
# or a rewrite of the reference, that reproduces what the code returned), an observation (what
# is true of its outputs: right for square images only, an input changed in place), the
# check's checklist (the spec's hint, true of every wrong answer) or, of a check whose failing
# call ran out of time, what that means and what to do (checks/timed_out.py: no cause)
MISTAKE, OBSERVATION, CHECKLIST, TIME_LIMIT = "mistake", "observation", "checklist", "time limit"
HINT_LABELS = {MISTAKE: "named mistake", OBSERVATION: "observation", CHECKLIST: "checklist",
               TIME_LIMIT: "time limit"}


def printed_tail(text: str) -> str:
    """The last PRINTED_CHARS characters of what student code printed ("" for nothing)."""
    text = text.rstrip("\n")
    return text if len(text) <= PRINTED_CHARS else "..." + text[-PRINTED_CHARS:]


@dataclass(frozen=True)
class CheckResult:
    """One check's verdict for one submission, as the reports show it."""
    name: str
    points: float
    score: float
    status: str                  # passed | failed | not_implemented | missing | error
    # student-readable; for hidden checks it never shows inputs or expected values
    message: str = ""
    hint: str | None = None
    hidden: bool = False
    visibility: str = "visible"
    cases: int = 0               # cases run
    misconception: str | None = None   # name of the known-wrong implementation the answer matched
    seconds: float = 0.0
    printed: str = ""            # the end of what the failing call printed (visible checks only)
    # graded with correct stand-ins for the student's broken helpers: the roots, the functions
    # whose own code is wrong ("patchify",); see checks/dependencies.py
    stand_ins: tuple[str, ...] = ()
    hint_kind: str | None = None  # MISTAKE, OBSERVATION, CHECKLIST or TIME_LIMIT, with a hint
    # an integration check's (never graded again): the student's broken functions its hint says
    # it runs ("patchify",), so that the report's "fix `patchify` first" heading counts it too
    blames: tuple[str, ...] = ()
    # a property's (function, its values here all the expected ones) (property_calls.Verdict):
    # grading's own, for dependencies._compared; not kept in records
    outputs: tuple[tuple[str, bool], ...] = ()
    # the exception a generalisation says the function raises where it is not right ("right
    # for (H, W, C) images, and raises ValueError for a 2-D (H, W) one": kinds/mistakes.py), for
    # raised_seen.py; grading's own, not kept in records
    raised: str | None = None
    # a failed check's calls as first graded (checks/calls_seen.py: each array argument's shape,
    # right or not, what it raised), for report/fixed_size.py; grading's own, not kept in records
    calls_seen: tuple = ()
    # its failing call ran out of time (the worker's outcome "timeout": the call's own limit or
    # the submission's), which says nothing of what the code computes (checks/timed_out.py);
    # grading's own, not kept in records
    timed_out: bool = False

    @property
    def passed(self) -> bool:
        return self.status == PASSED

    @property
    def hint_label(self) -> str:
        """"[named mistake] " (with its space), or "" for a hint of no known kind."""
        label = HINT_LABELS.get(self.hint_kind or "")
        return f"[{label}] " if label and self.hint else ""


def check_result(check, status: str, message: str = "", hint: str | None = None,
                 cases: int = 0, misconception: str | None = None,
                 printed: str = "", hint_kind: str | None = None) -> CheckResult:
    """The result of `check` (a spec.model.Check): its points when it passed, else none. A hint
    is a named mistake when a misconception is named, else the checklist, unless `hint_kind`
    says otherwise."""
    hint = hint if status != PASSED else None
    if hint and hint_kind is None:
        hint_kind = MISTAKE if misconception else CHECKLIST
    return CheckResult(
        name=check.name, points=check.points, score=check.points if status == PASSED else 0.0,
        status=status, message=message, hint=hint, hint_kind=hint_kind if hint else None,
        hidden=check.hidden, visibility=check.visibility, cases=cases, misconception=misconception,
        printed="" if check.hidden else printed_tail(printed),  # a hidden case's could show inputs
    )


@dataclass(frozen=True)
class ExerciseResult:
    """One exercise's checks' results, and the seconds it took."""
    id: str
    title: str
    lecture: str
    checks: tuple[CheckResult, ...]
    seconds: float = 0.0
    variant: int | None = None  # which variant was graded (grader/checks/variants.py), if any

    @property
    def score(self) -> float:
        return round(sum(c.score for c in self.checks), 6)

    @property
    def max_score(self) -> float:
        return round(sum(c.points for c in self.checks), 6)

    @property
    def stand_ins(self) -> tuple[str, ...]:
        """The roots some check was graded around (dependencies.py), in order, once each."""
        return tuple(dict.fromkeys(root for c in self.checks for root in c.stand_ins))

    @property
    def status(self) -> str:
        statuses = {c.status for c in self.checks}
        if statuses <= {PASSED}:
            return PASSED
        for special in (MISSING, NOT_IMPLEMENTED):
            if statuses == {special}:
                return special
        return FAILED

    def part(self, hidden: bool) -> ExerciseResult:
        """Only the visible (hidden=False) or only the hidden checks."""
        return ExerciseResult(self.id, self.title, self.lecture,
                              tuple(c for c in self.checks if c.hidden == hidden), self.seconds)


@dataclass(frozen=True)
class GradeReport:
    """One submission's results: every exercise, and what kept any from being graded."""
    submission: str
    exercises: tuple[ExerciseResult, ...]
    load_problems: tuple[str, ...] = ()     # "cell 7: NameError: ..." / "vit_exercises.py:12: ..."
    spec_errors: tuple[str, ...] = ()       # "exercises/x.yaml:4: ..." (instructor-facing)
    fatal: str | None = None                # why nothing could be graded, if so
    seconds: float = 0.0
    printed: str = ""                       # the end of what loading printed, when it had problems
    exercises_folder: str = ""  # "/path/exercises (found in this project)": the specs graded with
    notes: tuple[str, ...] = ()  # about loading, not problems: "graded the 5 marked code cells"

    @property
    def score(self) -> float:
        return round(sum(e.score for e in self.exercises), 6)

    @property
    def max_score(self) -> float:
        return round(sum(e.max_score for e in self.exercises), 6)

    def roots(self) -> dict[str, list[str]]:
        """Each broken function other exercises were graded around -> those exercises' ids:
        "fix `patchify` first: 3 exercises depend on it". Every check this report holds counts,
        as the table's `ok*` counts it (a `num_tokens` whose stand-in served its hidden checks
        only depends on it too); a platform that shows the visible checks alone before
        publication gives its header the student's view (report/parts.student_view), which
        says nothing of hidden ones."""
        found: dict[str, list[str]] = {}
        for exercise in self.exercises:
            for root in exercise.stand_ins:
                found.setdefault(root, []).append(exercise.id)
        return found

    def integrations(self) -> dict[str, list[str]]:
        """Each broken function -> the exercises whose integration check runs it and fails,
        blaming it (`CheckResult.blames`): graded with the student's own, never again
        (docs/spec.md, "Integration checks"), so the heading names them apart (blind round 55:
        "5 exercises depend on it" without vit-checkpoint read one short)."""
        found: dict[str, list[str]] = {}
        for exercise in self.exercises:
            for root in dict.fromkeys(r for c in exercise.checks for r in c.blames):
                found.setdefault(root, []).append(exercise.id)
        return found
