"""One bug costs points once: a check of `f` is not charged for the student's broken helpers.

When a check fails while some other student-API function fails its own checks, the check is
graded again with those functions bound to correct stand-ins (stand_ins.py). docs/spec.md
("Dependencies") says what each outcome reports: passed, still failing (its own bug), the
helper never called, or a stand-in that could not answer (only a regrade whose stand-in calls
were all answered says the failure is in that function's own code, by name). A broken helper that
passes its own checks with stand-ins is not a root; its own roots are. Checks marked
`integration: true`, and multiple-choice checks, are never graded again. Every verdict is
computed once per submission, and a failure explained (the error model's search: kinds/
mistakes.py) only in the verdict that stands: not in a first verdict that a regrade replaces.
"""

from __future__ import annotations

from dataclasses import replace

from grader.spec.model import Check, Exercise

from .calls_seen import with_calls_seen
from .describe import quoted_names
from .failing_calls import call_features, refusals_only
from .helper_shows import helper_shows
from .kinds.in_place import IN_PLACE
from .kinds.memory import MEMORY
from .raised_here import raised_hint, raised_unlike
from .regrade_notes import differs, explained, failing_functions, through_unanswered
from .results import CHECKLIST, FAILED, MISTAKE, OBSERVATION, PASSED, CheckResult
from .timed_out import told
from .written_by import through_helper, writes_in_place

# Graded again around broken helpers: a failure. Not a function that is not written yet (its own
# code raised NotImplementedError: no helper makes it return); a helper's stub fails its caller.
REGRADED = (FAILED,)
# why another exercise's failures of a function are ruled out as a check's cause (_ruled_out)
FEATURES, REFUSALS, RAISED = "features", "refusals", "raised"


class Dependencies:
    """Every check's verdict for one submission, graded on first need.

    `graded`: the (exercise, check) pairs this run grades, over the whole catalogue (a helper's
    own checks may sit in another exercise than the one asked for). `grade(exercise, check,
    stand_ins, recorded_only=False)` -> (CheckResult, or None when it was not graded; None or
    a function that explains a failed result, run on the final verdict only
    (Kind.grade_deferred); names of the stand-ins the student's code called; why a stand-in
    call was not answered, "" when every one was). Whether a check passed never depends on
    the explanation, only its hint does.
    """

    def __init__(self, graded: list[tuple[Exercise, Check]], grade):
        self._grade = grade
        self.functions: dict[str, list[tuple[Exercise, Check]]] = {}
        for exercise, check in graded:
            if check.function:
                self.functions.setdefault(check.function, []).append((exercise, check))
        self._first: dict[tuple, tuple] = {}  # (CheckResult, its explanation or None)
        self._final: dict[tuple, CheckResult] = {}
        self._unexplained: dict[tuple, tuple] = {}  # a failure no mistake names: (verdict,
        # its explanation), to explain again once a later check of the function named one
        self._busy: set[tuple] = set()
        self._named: dict[tuple, tuple] = {}  # a failure a mistake names: (verdict, its
        # explanation, the function's cases kept then), to weigh again on those kept after
        self._calls: dict[tuple, list] = {}  # a check's calls of its function, as first
        # graded: (planned case, outcome, judge), for _elsewhere

    def result(self, exercise: Exercise, check: Check) -> CheckResult:
        """The check's verdict, graded again around broken helpers where that applies."""
        key = (exercise.path, check.name)
        if key not in self._final:
            if key in self._busy:  # helpers that call each other: the verdict as graded
                return self.first(exercise, check)
            self._busy.add(key)
            try:
                if self.first(exercise, check).status != PASSED:
                    self._all_ran(check.function)
                result, explain = self._regraded(exercise, check)
                self._final[key] = self._finished(exercise, check,
                                                  explain(result) if explain else result)
                if explain and self._final[key].hint_kind != MISTAKE:
                    self._unexplained[key] = (result, explain)
                elif explain:
                    self._named[key] = (result, explain, _kept(check))
            finally:
                self._busy.discard(key)
        return self._final[key]

    def _all_ran(self, function: str | None) -> None:
        """Every check of `function` graded once as it is (its first verdict), in whichever
        exercise: a failure is explained weighing all the cases its function runs in this
        submission (kinds/memory.py), a later exercise's too, for the claims it makes ("right
        with one head" said on no-causal-mask would be false of a `self_attention` whose
        one-head check in multi-head-attention, graded after it, fails); not for the mistakes
        it names, which weigh what they did (Memory.ahead). Each verdict is computed once."""
        memory = MEMORY.get()
        for exercise, check in self.functions.get(function, ()) if function else ():
            if memory is None or (exercise.path, check.name) in self._first:
                self.first(exercise, check)
            else:  # its cases weigh the claims only, until its own exercise begins (memory.py)
                memory.graded_ahead(function, exercise.path, lambda e=exercise, c=check:
                                    self.first(e, c))

    def explained_again(self, exercise: Exercise, check: Check) -> CheckResult:
        """The check's final verdict, its failure explained once more when no mistake named it
        the first time: a mistake a later check of the function named (the search's cases
        differ from check to check) is tried on it then, as the first try (mistakes.py)."""
        key = (exercise.path, check.name)
        if key in self._unexplained:
            result, explain = self._unexplained.pop(key)
            again = self._finished(exercise, check, explain(result))
            if again.hint_kind == MISTAKE:
                self._final[key] = again
        elif key in self._named:  # a mistake named before the function's later checks ran
            result, explain, kept = self._named.pop(key)  # (graded again around the same
            if _kept(check) > kept or _unplaced(self._final[key]):  # helpers) must
                # reproduce their values too (a slip its cases could not place, a later
                # check may have placed: b48_05's variance without keepdims); the worked
                # example's pos[0] is zero, where "one row late" and `pos` added before [CLS]
                # is prepended agree; its explanation runs again, weighing them (mistakes.py),
                # and a mistake that reproduces them all replaces it (none: it stays, as the
                # first explanation of a check of enough values keeps its own)
                again = self._finished(exercise, check, explain(result))
                if again.hint_kind == MISTAKE:
                    self._final[key] = again
        return self._final[key]

    def first(self, exercise: Exercise, check: Check) -> CheckResult:
        """The check's verdict on the student's code as it is, helpers included."""
        return self._first_graded(exercise, check)[0]

    def _first_graded(self, exercise: Exercise, check: Check) -> tuple:
        """(the first verdict, unexplained; what explains it, or None)."""
        key = (exercise.path, check.name)
        if key not in self._first:
            memory, function = MEMORY.get(), check.function
            known = len(memory.ran.get(function, {})) if memory and function else None
            self._first[key] = self._grade(exercise, check, ())[:2]
            if known is not None:  # the calls it made, as they are (memory keeps them in order)
                self._calls[key] = list(memory.ran.get(function, {}).values())[known:]
        return self._first[key]

    def broken(self, name: str) -> bool:
        """Whether the student's `name` fails one of its own checks (as it is)."""
        return any(self.first(e, c).status != PASSED for e, c in self.functions.get(name, ()))

    def roots(self, names) -> tuple[str, ...]:
        """The functions whose own code is wrong, behind the broken helpers `names`."""
        found: list[str] = []
        for name in sorted(names):
            finals = [self.result(e, c) for e, c in self.functions.get(name, ())
                      if c.regradable]  # not an integration check: its helpers' as often
            own_fault = any(not r.passed for r in finals)
            below = [] if own_fault else [root for r in finals for root in r.stand_ins]
            for root in below or [name]:
                if root not in found:
                    found.append(root)
        return tuple(found)

    def _regraded(self, exercise: Exercise, check: Check) -> tuple:
        """(the final verdict, what explains it or None)."""
        first = self._first_graded(exercise, check)
        if first[0].status not in REGRADED or not check.regradable:
            return first
        tested = check.names_tested()  # what the check tests is never stood in for
        broken = tuple(n for n in self.functions if n not in tested and self.broken(n))
        if not broken:
            return first
        again, explain, used, unanswered = self._grade(exercise, check, broken)
        if unanswered:  # a stand-in could not answer: nothing was graded around correct helpers
            note = f"(not graded again with correct helpers: {unanswered})"
            message = f"{first[0].message}\n{note}" if first[0].message else note
            roots = list(self.roots(used))  # the helpers it ran: named where nothing else is
            losing = self._losing(roots, f"fix {'it' if len(roots) == 1 else 'them'} there "
                                  "first") if roots else ""
            return replace(first[0], message=message), lambda result: through_unanswered(
                first[1](result) if first[1] else result, check.function, sorted(used), losing)
        if not used:  # its own code as it is: passed when run again (a caller whose first
            return (again, explain) if again.passed else first  # call crashed in a helper),
        if not again.passed:                                     # else as first
            again, explain, used = self._with_one_own(exercise, check, broken, used) or (
                again, explain, used)
        elif len(used) > 1:
            again, explain, used = self._fewest(exercise, check, broken, again, explain, used)
        roots = self.roots(used)
        message = explained(again, roots, self._home, failing_functions(again, check))
        return replace(again, stand_ins=roots, message=message), explain

    def _finished(self, exercise: Exercise, check: Check, result: CheckResult) -> CheckResult:
        """`result` as _pipeline says it, a write in place said through the helper that made
        it (written_by.py); one that ran out of time told only that (timed_out.py)."""
        result = told(result) if result.timed_out else with_calls_seen(
            self._pipeline(exercise, check, result), self._calls.get((exercise.path, check.name)))
        if result.misconception != IN_PLACE:  # no other check graded before its turn: what
            return result  # one check learns, the later ones use (kinds/memory.py)
        helpers = [n for n in check.names_read() if n != check.function and any(
            writes_in_place(self.first(e, c)) for e, c in self.functions.get(n, ()))]

        def regrade(names):
            again, _, used, unanswered = self._grade(exercise, check, names)
            return again if again is not None and used and not unanswered else None
        return through_helper(result, check.function, helpers, regrade, self._home)

    def _with_one_own(self, exercise: Exercise, check: Check, broken: tuple, used) -> tuple | None:
        """(verdict, explanation, stand-ins used) of a regrade that passes with the student's own
        version of one of the stand-ins `used` put back, else None. A correct function of the
        student's may rely on its own broken helper's convention (a features-first
        `self_attention` on its `softmax`'s axis-0 default): the grader's helper standing in
        for that one breaks the caller, not the checked function. Tried only after the regrade
        with every stand-in failed, one helper at a time (len(used) - 1 more regrades at most:
        with one stand-in, its own version is the first verdict)."""
        if len(used) < 2:
            return None
        for own in sorted(used):
            again, explain, fewer, unanswered = self._trial(
                exercise, check, tuple(n for n in broken if n != own))
            if again.passed and fewer and not unanswered:
                return again, explain, fewer
        return None

    def _fewest(self, exercise: Exercise, check: Check, broken: tuple, again: CheckResult,
                explain, used) -> tuple:
        """(verdict, explanation, stand-ins used) of a regrade that passed with several
        stand-ins, with each one its pass does not need put back to the student's own, one at a
        time (a stand-in it then calls instead, a caller's helper, is tried too; one regrade per
        broken helper at most): a helper wrong only on calls the caller never
        makes (a `softmax` that ignores `axis`, called with axis=-1) is not said to be what the
        caller's points depend on ("fix `softmax` first"; round 51's b51_09), and an
        end-to-end check is not told it may be its cause (`_spared`)."""
        dropped: set = set()
        tried: set = set()
        while len(used) > 1:
            own = next((n for n in sorted(used) if n not in tried), None)
            if own is None:
                break
            tried.add(own)
            trial, why, fewer, unanswered = self._trial(
                exercise, check, tuple(n for n in broken if n not in dropped and n != own))
            if trial.passed and fewer and not unanswered:
                dropped.add(own)
                again, explain, used = trial, why, fewer
        return again, explain, used

    def _trial(self, exercise: Exercise, check: Check, stand_ins: tuple) -> tuple:
        """A regrade with one stand-in put back to the student's own, its stand-ins answered
        from the recorded answers only, never computed by the reference (docs/spec.md,
        "Dependencies"): the student bundle has no reference, so a trial that needed one is
        rejected there; rejected here too, both name the same stand-ins (a trial's call no one
        recorded leaves it "unanswered")."""
        return self._grade(exercise, check, stand_ins, recorded_only=True)

    def _spared(self, function: str, name: str) -> bool:
        """Whether every check of `function` passes in the end, some graded again around broken
        helpers, and the broken `name` was not among those it needed (`_fewest`): the caller is
        right with the student's own `name`, so an end-to-end run of it is not told that
        `name`'s mistake may be what fails there."""
        finals = [self.result(e, c) for e, c in self.functions.get(function, ()) if c.regradable]
        return (bool(finals) and all(r.passed for r in finals) and any(r.stand_ins for r in finals)
                and all(name not in r.stand_ins for r in finals))

    def _pipeline(self, exercise: Exercise, check: Check, result: CheckResult) -> CheckResult:
        """A failed check that runs the student's functions as they are (never graded again:
        `integration: true`) while some of them fail their own checks: an observation that
        says which, in place of the spec's checklist or of nothing (a named mistake stays).
        Which of them the student's own pipeline calls is not known (an attention may compute
        its softmax inline): the sentence says so. A helper whose mistake cannot show on this
        run (answered correctly, it changes no value the check got: helper_shows.py) is not
        named at all (b56_05's 2-D-only `layer_norm`). A check that tests several functions at
        once (a property comparing `conv_patch_embed` with `linear_patch_embed`) is told the
        same of those that lose points in another exercise (`_compared`)."""
        if result.status != FAILED or result.hint_kind not in (None, CHECKLIST):
            return result
        if check.regradable:
            return self._elsewhere(exercise, check, self._compared(exercise, check, result))
        if not check.function:
            return result
        broken = [n for n in check.names_read() if n in self.functions and self.broken(n)]
        if not broken:
            return result
        roots = [r for r in self.roots(broken) if r == check.function
                 or not self._spared(check.function, r)]
        if self._value_returned(exercise, check):  # a refusal's mistake cannot be what fails
            roots = [r for r in roots if not self._refusals_only(r)]  # a value returned
        called = [r for r in roots if r == check.function]  # the check calls it: no "may not"
        helpers = [r for r in roots if r != check.function and helper_shows(
            self._grade, exercise, check, r, self._calls.get((exercise.path, check.name), []))]
        roots = called + helpers  # a helper whose mistake cannot show on this run: not blamed
        if not roots:
            return result
        it = "it" if len(helpers) == 1 else "them"
        hint = "This check runs your functions end to end."
        if called:
            hint += " " + self._losing(called, "fix it there first")
        if helpers:
            hint += " " + self._losing(
                helpers, f"where this run uses {it} (the model solution's pipeline does; your code "
                         f"may not), fix {it} there first")
        return replace(result, hint=hint, hint_kind=OBSERVATION, blames=tuple(roots))

    def _losing(self, names: list, fix: str) -> str:
        """"Your `f` loses points in its own exercise (home): <fix>, as its mistake may be what
        fails here." for one or several names."""
        one = len(names) == 1
        homes = ", ".join(dict.fromkeys(self._home(n) for n in names))
        its = "its" if one else "their"
        return (f"Your {quoted_names(names)} {'loses' if one else 'lose'} points in {its} own "
                f"exercise{'' if one else 's'} ({homes}): {fix}, as {its} "
                f"mistake{'' if one else 's'} may be what fails here.")

    def _compared(self, exercise: Exercise, check: Check, result: CheckResult) -> CheckResult:
        """`result` of a check that tests several functions, one of which loses points in a
        check of another exercise: an observation naming that one and where. Its final verdict
        there, not its first: a `num_tokens` whose only fault is the student's `num_patches`
        it calls gets full points (graded again around it), so it does not lose points. Where
        the check judged each function's values (`result.outputs`: cost_ratio), one whose
        values here are all the expected ones is not blamed (a `num_tokens` wrong on
        non-square images only), and the one whose values differ is said instead. A verdict
        graded again around broken helpers had a yardstick that loses points stood in for
        (`names_tested`): only the functions the check tests are said."""
        tested = check.names_tested() if result.stand_ins else check.names_read()
        if result.misconception:  # a property's finding (a bag of tiles) says more
            return result
        broken = [n for n in tested if any(
            e.path != exercise.path and not self.result(e, c).passed
            for e, c in self.functions.get(n, ()))] if len(tested) > 1 else []
        if not broken:
            return result
        outputs = dict(result.outputs)
        right = [n for n in tested if outputs.get(n) is True]
        wrong = [n for n in tested if outputs.get(n) is False]
        together = f"This check tests your {quoted_names(tested)} together. "
        if wrong:
            said = together + differs(right, wrong)
            elsewhere = [n for n in wrong if n in broken]
            if elsewhere:
                said += " " + self._losing(
                    elsewhere, f"fix {'it' if len(elsewhere) == 1 else 'them'} there first")
            return replace(result, hint=said, hint_kind=OBSERVATION)
        broken = [n for n in broken if n not in right]
        if not broken:
            return result
        hint = together + self._losing(
            broken, f"fix {'it' if len(broken) == 1 else 'them'} there first")
        return replace(result, hint=hint, hint_kind=OBSERVATION)

    def _elsewhere(self, exercise: Exercise, check: Check, result: CheckResult) -> CheckResult:
        """`result` of a check of one function with no hint but its checklist, or none at all,
        while the same function fails a check of an exercise that tests it more (more checks
        call it: its own exercise, so that "fix it there first" never points both ways; only a
        visible check for a visible one: a hint shown before publication says nothing of hidden
        checks): an observation naming where, as the mistake found there may be this failure's
        too (issue 38: a check of `self_attention` with causal=True that says nothing but its
        checklist while multi-head-attention names its mistake). It says nothing of the cause,
        only where else the function loses points (or that it does so only on calls unlike this
        one). Where it loses points nowhere else, a check with a checklist shows it; one with
        none, that of its exercise's other check of the function (for a visible check a visible
        one's: the student bundle has no hidden check, and says the same): never expected/got
        alone."""
        own = result.hint if result.hint_kind == CHECKLIST and result.hint == check.hint \
            else None  # the check's own checklist (a case's own hint is more: it stands)
        if (result.hint and not own) or not check.function:
            return result
        graded = self.functions.get(check.function, ())
        counts: dict[str, int] = {}
        for e, _ in graded:
            counts[e.path] = counts.get(e.path, 0) + 1
        mine = counts.get(exercise.path, 0)
        failing = [e for e, c in graded if counts[e.path] > mine and (check.hidden or not c.hidden)
                   and self.first(e, c).status != PASSED and not self.first(e, c).timed_out]
        why = {e.id: self._ruled_out(exercise, check, e) for e in failing}
        homes = [e for e in why if not why[e]]
        raised = [e for e in why if why[e] == RAISED]
        if raised and not homes:  # what raised here, not a mistake there (raised_here.py)
            hint = raised_hint(check.function, self._shown(exercise, check)[0][1], raised)
        elif homes:
            where = ", ".join(homes)
            hint = (f"Your `{check.function}` also loses points in {where}: fix it there first, "
                    f"as the mistake there may be what fails here too.")
        elif failing:  # told all the same (said in place of a checklist too): where, and that its
            where = ", ".join(why)  # failures are not this one
            if all(reason == REFUSALS for reason in why.values()):
                hint = (f"Your `{check.function}` also loses points in {where}, but only on "
                        f"inputs it must refuse (there, every call that fails should have "
                        f"raised an error; this case asks for a value, and your code returned "
                        f"one): the mistake there does not show on a case like this one.")
            else:
                hint = (f"Your `{check.function}` also loses points in {where}, but only on "
                        f"calls unlike this case (there, every call that fails differs from "
                        f"every call that passes in one input, or should have raised an "
                        f"error, where this case is like the passing ones): the mistake there "
                        f"is not all that fails here.")
        elif own:  # nowhere else: its own checklist
            return result
        else:  # nor has it one: the checklist of the exercise's other checks of the function
            hint = next((c.hint for c in exercise.checks if c.function == check.function
                         and c.hint and c.name != check.name and (check.hidden or not c.hidden)),
                        None)
            return replace(result, hint=hint, hint_kind=CHECKLIST) if hint else result
        return replace(result, hint=hint, hint_kind=OBSERVATION)

    def _ruled_out(self, exercise: Exercise, check: Check, other: Exercise) -> str:
        """Why what `other`'s checks of the function show rules its mistake out as the cause
        (FEATURES, REFUSALS; "" when nothing does) of this check's failing case (the one shown; a
        hidden check's first failing one): every call there that fails has a feature of its inputs
        (`call_features`: several heads, a non-square image, a batch) that every call there that
        passes lacks, and the failing case here lacks it too (round 45's b45_08: a multi-head split
        blamed for a case with one head). The calls already made, judged again: no student call.
        Refusals (a ValueError due) weigh on neither side: they test another thing; where every call
        that fails there is one (an AssertionError for the ValueError due, or no exception), it is
        ruled out of a case here that was due a value and returned one (round 51's b51_10: an
        `assert` blamed for a causal mask's values). A case here that raised where a value was
        due, while no failing call there raised that exception, is ruled out (RAISED,
        raised_here.py; round 71's b71_08)."""
        here = self._shown(exercise, check)
        if not here or here[0][0].expectation()[1] is not None:
            return ""
        if raised_unlike(here[0][1], [o for p, o, judge in self._outcomes(
                check.function, other.path, check.hidden) if not judge(p, o)]):
            return RAISED
        calls = self._judged(check.function, other.path, check.hidden)
        if refusals_only(calls) and here[0][1].status == "ok":
            return REFUSALS  # an exception wrong, or missing, there; a value returned here
        there = [(call_features(p), right) for p, right in calls if p.expectation()[1] is None]
        failing = [f for f, right in there if not right]
        passing = [f for f, right in there if right]
        shown = call_features(here[0][0])
        return FEATURES if failing and passing and any(
            all(f.get(name) == value for f in failing)
            and all(f.get(name) != value for f in passing) and shown.get(name) != value
            for name, value in failing[0].items()) else ""

    def _shown(self, exercise: Exercise, check: Check) -> list:
        """[(planned case, outcome)] of the check's first failing call of its function (the
        one shown; a hidden check's first failing one), as first graded; [] when none is kept."""
        return [(p, o) for p, o, judge in self._calls.get((exercise.path, check.name), ())
                if not judge(p, o)][:1]

    def _judged(self, function: str, path: str | None = None, hidden: bool = True) -> list:
        """[(planned case, judged right)] of every call of `function` its own checks made as
        first graded (those of the exercise at `path` only, when given; else every one, each
        graded first: `broken` stops at the first that fails); of its visible checks only
        unless `hidden` (what a visible check is told never rests on a hidden one's cases,
        which may have been graded before it: _all_ran)."""
        return [(p, judge(p, o)) for p, o, judge in self._outcomes(function, path, hidden)]

    def _outcomes(self, function: str, path: str | None = None, hidden: bool = True) -> list:
        """[(planned case, outcome, judge)] of the calls `_judged` weighs."""
        checks = [(e, c) for e, c in self.functions.get(function, ())  # None: not graded
                  if (hidden or not c.hidden)
                  and (e.path == path or (path is None and self.first(e, c) is not None))]
        return [call for e, c in checks for call in self._calls.get((e.path, c.name), ())]

    def _value_returned(self, exercise: Exercise, check: Check) -> bool:
        """Whether the check's failing case (the one shown) was due a value and returned one."""
        here = self._shown(exercise, check)
        return bool(here) and here[0][0].expectation()[1] is None and here[0][1].status == "ok"

    def _refusals_only(self, name: str) -> bool:
        """Whether every call of `name` failing its own checks was due an exception: its
        mistake does not show where a value came back, so an end-to-end case due one that
        returned one is not told it may be what fails there (b54_06's tiling test missing)."""
        return refusals_only(self._judged(name))

    def _home(self, name: str) -> str:
        """The exercise where `name` loses points ("multi-head-attention"; its final verdicts:
        not one it passes graded around a broken helper of its own): of several, the one where
        it loses most on the visible checks, the first on a tie (round 53's b53_07: a scale
        mistake also fails the mask exercise, where the mask is right); hidden points only where
        no visible check fails; else the first that grades it ("patchify"). Only what the
        student bundle has too decides (visible verdicts, not hidden ones nor which mistake the
        error model names): b63_15's note said "see no-causal-mask" there, where the full
        grader's said multi-head-attention."""
        homes = self.functions.get(name, ())
        lost: dict[str, tuple[float, float]] = {}
        for exercise, check in homes:
            result = self.result(exercise, check)
            if not result.passed:
                shown, points = lost.get(exercise.id, (0.0, 0.0))
                missed = result.points - result.score
                lost[exercise.id] = (shown + (0.0 if check.hidden else missed), points + missed)
        if any(shown for shown, _ in lost.values()):
            return max(lost, key=lambda e: lost[e][0])  # max keeps the first of equals
        if lost:
            return max(lost, key=lambda e: lost[e][1])
        return homes[0][0].id if homes else name


def _unplaced(result: CheckResult) -> bool:
    """Whether the mistake `result` names is one slip its check's cases could not place (the
    error model's `either`, "at one or more of these places"): explained again at the end, a
    place another check of the function named is said alone where it reproduces the values."""
    memory = MEMORY.get()
    return memory is not None and any(
        getattr(found, "either", False) and found.name == result.misconception
        for named in memory.named.values() for found in named)


def _kept(check: Check) -> int:
    """How many cases of the check's function this submission's memory keeps (0 without one)."""
    memory = MEMORY.get()
    return 0 if memory is None or not check.function else memory.size(check.function)
