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
    # (function, the stand-ins bound) -> the same, for the runs graded again around broken
    # helpers: the checks of one function graded with the same stand-ins run the same code
    # (those of the exercise being graded: SubmissionGrading.exercise clears them)
    around: dict = field(default_factory=dict)
    changing: dict = field(default_factory=dict)  # function -> its values change between calls
    # id(planned) -> its exercise's path, for the cases of checks graded ahead of their exercise
    # (dependencies.Dependencies._all_ran): what a claim ("right with one head") weighs too,
    # never what names a mistake (a listed mask "although causal is False" stays named on
    # no-causal-mask, where multi-head-attention's calls leave causal out); ordinary from
    # when their exercise begins (`begin`)
    ahead: dict = field(default_factory=dict)
    begun: set = field(default_factory=set)  # the paths of the exercises begun

    def begin(self, path) -> None:
        """The exercise at `path` is graded now: its cases graded ahead are ordinary ones."""
        self.begun.add(path)
        self.ahead = {key: there for key, there in self.ahead.items() if there != path}

    def graded_ahead(self, function: str, path, grade) -> None:
        """`grade()`, a check of `function` in the exercise at `path`; the cases it keeps are
        ahead of their exercise when that has not begun."""
        known = set(self.ran.get(function, {}))
        grade()
        if path not in self.begun:
            self.ahead.update((key, path) for key in self.ran.get(function, {})
                              if key not in known)

    def remember(self, worker, function: str, ran: list, judge) -> None:
        """Keep `ran` ((planned case, outcome) pairs) of `function`, run by the student's own
        code (not in a regrade, where the grader's helpers stand in for the student's), with
        `judge(planned, outcome) -> right`, asked only if a failure weighs them."""
        if worker is self.worker:
            self.ran.setdefault(function, {}).update(
                (id(planned), (planned, outcome, judge)) for planned, outcome in ran)
        setting = self.setting(worker)
        if setting:
            self.around.setdefault((function, setting), {}).update(
                (id(planned), (planned, outcome, judge)) for planned, outcome in ran)

    def setting(self, worker) -> tuple | None:
        """What `worker` runs: () the student's code as it is, the names of the stand-ins bound
        in a regrade of it (a StandInWorker), None another worker's."""
        if worker is self.worker:
            return ()
        stand_ins = getattr(worker, "stand_ins", None)
        if getattr(worker, "worker", None) is not self.worker or stand_ins is None:
            return None
        return tuple(sorted(stand_ins.names))

    def outcomes(self, function: str, setting: tuple | None = (), ahead: bool = False) -> list:
        """(planned case, outcome) of every case `function` ran in this submission, as it is
        (`setting` ()), or with the stand-ins `setting` names bound (none for None); those
        graded ahead of their exercise only when `ahead`, and then only them."""
        kept = self.ran if setting == () else {} if setting is None else self.around
        return [(p, o) for key, (p, o, _) in kept.get(function if setting == () else (
            function, setting), {}).items() if (key in self.ahead) == ahead]

    def size(self, function: str) -> int:
        """How many cases of `function` are kept, as it is and in every regrade: a verdict
        explained when fewer were is weighed on them all again (dependencies.py). Those graded
        ahead of their exercise count from when it begins: a name does not weigh them before."""
        ahead = sum(1 for key in self.ran.get(function, {}) if key in self.ahead)
        return self.known(function) - ahead + sum(
            len(kept) for (name, _), kept in self.around.items() if name == function)

    def known(self, function: str) -> int:
        """How many cases of `function` are kept so far (`judged`'s `upto`)."""
        return len(self.ran.get(function, {}))

    def judged(self, function: str, upto: int | None = None) -> list:
        """(planned case, right) of every case `function` ran in this submission; the first
        `upto` kept only, when given (those of the checks graded before one)."""
        kept = list(self.ran.get(function, {}).values())[:upto]
        return [(p, judge(p, o)) for p, o, judge in kept]


MEMORY: ContextVar[Memory | None] = ContextVar("submission_memory", default=None)
