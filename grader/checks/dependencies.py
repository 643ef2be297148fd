"""One bug costs points once: a check of `f` is not charged for the student's broken helpers.

A check of the student's `linear_patch_embed` also runs their `patchify` when their function
reuses it. When such a check fails while some other student-API function fails its own checks,
the check is graded again with those functions bound to correct stand-ins (stand_ins.py):

- it passes: `linear_patch_embed` is right and gets its points; the result says it passed with
  stand-ins and names the root (the function whose own code is wrong);
- it still fails: the failure is `linear_patch_embed`'s own, and that verdict (with its own
  misconception hint) is the one reported, naming the stand-ins it was graded with;
- the student's function called none of them, or a stand-in could not answer: the first verdict.

Roots: a broken helper that passes its own checks with stand-ins (`embed_image` failing only
through `patchify`) is not a root; its own roots are. Checks marked `integration: true`, and
multiple-choice checks, are never graded again. Every verdict is computed once per submission.

In a run in the specs' order the helpers' verdicts are known first; a check whose helpers are
already known wrong is graded around them at once, and as it is only when that does not pass
(a function that passes as it is keeps its points: two bugs may cancel out). That saves the
first, failing pass of most such checks (benchmarks/batch_grading.py).
"""

from __future__ import annotations

from dataclasses import replace

from grader.spec.model import Check, Exercise

from .api import helpers_of, names_read
from .results import FAILED, NOT_IMPLEMENTED, PASSED, CheckResult

REGRADED = (FAILED, NOT_IMPLEMENTED)  # a helper that raises NotImplementedError fails its caller


class Dependencies:
    """Every check's verdict for one submission, graded on first need.

    `graded`: the (exercise, check) pairs this run grades, over the whole catalogue (a helper's
    own checks may sit in another exercise than the one asked for). `grade(exercise, check,
    stand_ins)` -> (CheckResult, names of the stand-ins the student's code called, whether every
    stand-in call was answered).
    """

    def __init__(self, graded: list[tuple[Exercise, Check]], grade):
        self._grade = grade
        self.functions: dict[str, list[tuple[Exercise, Check]]] = {}
        for exercise, check in graded:
            if check.kind == "call":
                self.functions.setdefault(check.call, []).append((exercise, check))
        self._first: dict[tuple, CheckResult] = {}
        self._final: dict[tuple, CheckResult] = {}
        self._busy: set[tuple] = set()

    def result(self, exercise: Exercise, check: Check) -> CheckResult:
        """The check's verdict, graded again around broken helpers where that applies."""
        key = (exercise.path, check.name)
        if key not in self._final:
            if key in self._busy:  # helpers that call each other: the verdict as graded
                return self.first(exercise, check)
            self._busy.add(key)
            try:
                self._final[key] = self._regraded(exercise, check)
            finally:
                self._busy.discard(key)
        return self._final[key]

    def first(self, exercise: Exercise, check: Check) -> CheckResult:
        """The check's verdict on the student's code as it is, helpers included."""
        key = (exercise.path, check.name)
        if key not in self._first:
            self._first[key] = self._grade(exercise, check, ())[0]
        return self._first[key]

    def broken(self, name: str) -> bool:
        """Whether the student's `name`, as it is, fails one of its own checks: known from a
        check's verdict where there is one (it failed, or passed only with stand-ins), else
        graded as it is."""
        for exercise, check in self.functions.get(name, ()):
            final = self._final.get((exercise.path, check.name))
            if final is not None:
                if not final.passed or final.stand_ins:
                    return True
            elif self.first(exercise, check).status != PASSED:
                return True
        return False

    def _known_broken(self, check: Check) -> tuple[str, ...]:
        """The broken functions the check's own functions are built on (api.BUILT_ON) whose
        every check has its verdict already (a run in the specs' order grades helpers first)."""
        return tuple(name for name in helpers_of(check)
                     if name in self.functions and self.broken(name)
                     and all((e.path, c.name) in self._final for e, c in self.functions[name]))

    def roots(self, names) -> tuple[str, ...]:
        """The functions whose own code is wrong, behind the broken helpers `names`."""
        found: list[str] = []
        for name in sorted(names):
            finals = [self.result(e, c) for e, c in self.functions.get(name, ())]
            own_fault = any(not r.passed for r in finals)
            below = [] if own_fault else [root for r in finals for root in r.stand_ins]
            for root in below or [name]:
                if root not in found:
                    found.append(root)
        return tuple(found)

    def _regraded(self, exercise: Exercise, check: Check) -> CheckResult:
        if check.integration or check.kind == "answer":
            return self.first(exercise, check)
        key = (exercise.path, check.name)
        tested = names_read(check)  # what the check tests is never stood in for
        known = self._known_broken(check)
        tried = None
        if known:  # helpers already known wrong: around them at once, not as it is first
            again, used, answered = tried = self._grade(exercise, check, known)
            if answered and not used:  # never called: this is the verdict as it is
                self._first.setdefault(key, again)
            elif answered and again.passed:
                return self._around(again, used)
        first = self.first(exercise, check)  # a pass as it is stands (bugs that cancel out)
        if first.status not in REGRADED:
            return first
        broken = tuple(n for n in self.functions if n not in tested and self.broken(n))
        if not broken:
            return first
        if tried is None or set(broken) != set(known):
            tried = self._grade(exercise, check, broken)
        again, used, answered = tried
        if not used or not answered:
            return first
        return self._around(again, used)

    def _around(self, result: CheckResult, used) -> CheckResult:
        """`result`, graded with stand-ins for `used`, naming its roots."""
        roots = self.roots(used)
        return replace(result, stand_ins=roots, message=_explained(result, roots, self._home))

    def _home(self, name: str) -> str:
        """The exercise that grades `name` ("patchify")."""
        homes = self.functions.get(name)
        return homes[0][0].id if homes else name


def _explained(result: CheckResult, roots: tuple[str, ...], home) -> str:
    """The result's message, saying which stand-ins it was graded with."""
    names = _names(roots)
    where = ", ".join(dict.fromkeys(home(r) for r in roots))
    verb = "is" if len(roots) == 1 else "are"
    if result.passed:
        return (f"passed with the grader's correct {names} standing in for yours: your code here "
                f"is right, but your {names} {verb} wrong (see {where})")
    note = (f"(graded with the grader's correct {names} standing in for yours, which {verb} "
            f"wrong: see {where}; so this failure is in this function's own code)")
    return f"{result.message}\n{note}" if result.message else note


def _names(names: tuple[str, ...]) -> str:
    quoted = [f"`{n}`" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
