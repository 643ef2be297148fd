"""What the checks of one submission learned, for its other checks (mistakes.py, call.py): set
per submission by grade.SubmissionGrading."""
from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field


@dataclass
class Memory:
    """What the checks of the submission being graded learned, for its other checks: the
    mistakes the error model named, by (reference function, helpers left whole), which a later
    failed check of the function tries first (one try, not a search; the same words on every
    check); and the cases each student function ran on its own (`worker`, no stand-ins), right
    or not, which every generalisation weighs ("right with one head": the one-head check
    passed). Set per submission by grade.SubmissionGrading; None elsewhere (no memory)."""
    worker: object
    named: dict = field(default_factory=dict)
    ran: dict = field(default_factory=dict)  # function -> {id(planned): (planned, outcome, judge)}
    changing: dict = field(default_factory=dict)  # function -> its values change between calls

    def remember(self, worker, function: str, ran: list, judge) -> None:
        """Keep `ran` ((planned case, outcome) pairs) of `function`, run by the student's own
        code (not in a regrade, where the grader's helpers stand in for the student's), with
        `judge(planned, outcome) -> right`, asked only if a failure weighs them."""
        if worker is self.worker:
            self.ran.setdefault(function, {}).update(
                (id(planned), (planned, outcome, judge)) for planned, outcome in ran)

    def outcomes(self, function: str) -> list:
        """(planned case, outcome) of every case `function` ran in this submission."""
        return [(p, o) for p, o, _ in self.ran.get(function, {}).values()]

    def known(self, function: str) -> int:
        """How many cases of `function` are kept so far (`judged`'s `upto`)."""
        return len(self.ran.get(function, {}))

    def judged(self, function: str, upto: int | None = None) -> list:
        """(planned case, right) of every case `function` ran in this submission; the first
        `upto` kept only, when given (those of the checks graded before one)."""
        kept = list(self.ran.get(function, {}).values())[:upto]
        return [(p, judge(p, o)) for p, o, judge in kept]


MEMORY: ContextVar[Memory | None] = ContextVar("submission_memory", default=None)
