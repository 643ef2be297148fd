"""A function check (`call:`): the student's function called on cases, each result compared
with the reference's (computed here, never in the worker), a wrong one named after the
misconception it looks like; its spec, validation, planned cases (what `vitgrade compile`
stores), grading and question-sheet examples."""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

from grader.spec.errors import SpecError, unknown_name

from .. import inputs
from ..cases import PlannedCase, requests
from ..compare import Compare, agrees, compare, default_compare
from ..course import reference_function
from ..describe import (
    call_label,
    describe,
    limit_note,
    other_error,
    outcome_lines,
    sheet_value,
    short,
    short_title,
)
from ..generators import GENERATORS, generate_cases
from ..results import (
    CHECKLIST,
    FAILED,
    HIDDEN_FAILURE,
    NOT_IMPLEMENTED,
    OBSERVATION,
    PASSED,
    CheckResult,
    check_result,
)
from ..timed_out import deferred
from ..unbound import loaded, unbound
from . import in_place
from .axes_off import observed
from .base import Kind
from .call_spec import Case, Generate, Misconception
from .exact import exactly
from .generalisations import explained
from .listed_refuted import refutes
from .memory import MEMORY
from .mistakes import (
    bettered,
    combination_names,
    float_too,
    generated,
    named,
    output_matches,
    square_claim_held,
    unexplained_elsewhere,
    widened,
)
from .randomness import repeated
from .refusal_observations import refused
from .refusals import named_refusal
from .relaid import relaid
from .remedies import remedied
from .returned_items import extra_items
from .signatures import mismatched, reordered
from .value_observations import described

MAX_CALL = 240          # longer sheet examples show long arguments by shape instead of as code
MAX_ARGUMENT = 90
MAX_PARAMS = 180        # params the grader builds (evaluate({...})) are worth showing as code


@dataclass(frozen=True)
class CallCheck(Kind):
    """`call:`: a student function's outputs compared with the reference's, case by case."""
    KEY = "call"
    call: str = ""
    cases: tuple[Case, ...] = ()
    generate: Generate | None = None
    reference: str | None = None
    compare: Compare | None = None
    misconceptions: tuple[Misconception, ...] = ()
    # graded on the student's whole pipeline, never around broken helpers (dependencies.py)
    integration: bool = False

    @classmethod
    def from_yaml(cls, raw: dict, common: dict) -> CallCheck:
        how = raw.get("compare")
        return cls(
            **common, call=raw["call"], reference=raw.get("reference"),
            cases=tuple(Case(tuple(c["args"]), dict(c.get("kwargs", {})), c.get("expect"),
                             "expect" in c, c.get("raises"), c.get("hint"))
                        for c in raw.get("cases", [])),
            generate=Generate(**raw["generate"]) if "generate" in raw else None,
            compare=(None if how is None else Compare(how) if isinstance(how, str)
                     else Compare(**how)),
            misconceptions=tuple(Misconception(**m) for m in raw.get("misconceptions", [])),
            integration=raw.get("integration", False))

    @property
    def reference_name(self) -> str:
        return self.reference or self.call

    def problems(self, exercise, build_inputs: bool = False) -> list[SpecError]:
        path, errors, api = exercise.path, [], self.api
        if self.call not in api.signatures:  # the student API is a contract: docs/student-api.md
            errors.append(unknown_name(path, self.line_of("call"), "student-API function",
                                       self.call, api.signatures))
        needs_reference = self.generate is not None or any(
            not c.has_expect and not c.raises for c in self.cases)
        if needs_reference and self.reference and self.reference not in api.signatures:
            errors.append(unknown_name(path, self.line_of("reference"), "reference function",
                                       self.reference, api.signatures))
        if self.generate and self.generate.generator not in GENERATORS:
            errors.append(unknown_name(path, self.line_of("generate", "generator"), "generator",
                                       self.generate.generator, GENERATORS))
        if not self.cases and not self.generate:
            errors.append(SpecError(path, self.line,
                                    f"check '{self.name}' has neither cases nor generate"))
        for i, m in enumerate(self.misconceptions):
            if api.misconceptions is not None and m.like not in api.misconceptions:
                errors.append(unknown_name(path, self.line_of("misconceptions", i, "like"),
                                           "misconception", m.like, api.misconceptions))
        return errors + (self._unbuildable(exercise) if build_inputs else [])

    def reference_functions(self) -> tuple[str, ...]:
        return (self.reference_name,)

    def undetectable(self, exercise) -> list[SpecError]:
        """One error per misconception that returns the reference's answer on every case."""
        errors, plans = [], self.plan(exercise.folder)
        for i, known in enumerate(self.misconceptions):
            same = True
            for planned in plans:
                expected, raises = planned.expectation()
                applies, wrong = planned.wrong_output(known.like)
                same &= (not applies) if raises else (applies and agrees(
                    expected, wrong, self.compare or default_compare(expected),
                    equal_nan=True))
            if same:
                errors.append(SpecError(exercise.path, self.line_of("misconceptions", i, "like"),
                                        f"misconception '{known.like}' returns what the "
                                        f"reference returns on every case of check "
                                        f"'{self.name}': add a case where they differ, or fix it"))
        return errors

    def _unbuildable(self, exercise) -> list[SpecError]:
        """One error per literal case whose arguments or expected value do not build."""
        errors = []
        for i, case in enumerate(self.cases):
            values = [(("cases", i, "args", j), a) for j, a in enumerate(case.args)]
            if case.has_expect:
                values.append((("cases", i, "expect"), case.expect))
            for path, expr in values:
                try:
                    inputs.evaluate(expr, exercise.folder or None)
                except inputs.InputError as exc:
                    errors.append(SpecError(exercise.path, self.line_of(*path),
                                            f"check '{self.name}': {exc}"))
                    break  # one message per case
        return errors

    def names_read(self) -> tuple[str, ...]:
        return (self.call,) + (self.api.built_on.get(self.call, ()) if self.integration else ())

    @property
    def function(self) -> str:
        return self.call

    @property
    def regradable(self) -> bool:
        return not self.integration

    @property
    def stand_in_tolerance(self) -> Compare:
        """The check's own allclose tolerance, when it has one."""
        if self.compare is not None and self.compare.mode == "allclose":
            return self.compare
        return Compare()

    def must_define(self, uses: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(n for n in uses if n == self.call)

    def misconception_titles(self) -> dict[str, str]:
        return {m.like: m.title or short_title(m.hint) for m in self.misconceptions}

    def listed_variants(self) -> tuple[str, ...]:
        return tuple(m.like for m in self.misconceptions)

    # --- its cases ----------------------------------------------------------------------------

    def plan(self, folder: str | None = None) -> list[PlannedCase]:
        """The spec's own cases, then the generated ones; InputError for a broken expression.
        `folder`: the spec's own (inputs.evaluate)."""
        planned = []
        own = tuple(dict.fromkeys([m.like for m in self.misconceptions]
                                  + combination_names(self, None)))  # what compile stores
        for case in self.cases:
            args = tuple(inputs.evaluate(a, folder) for a in case.args)
            kwargs = {k: inputs.evaluate(v, folder) for k, v in case.kwargs.items()}
            planned.append(PlannedCase(args, kwargs, self._source(case), case,
                                       self.reference_name, folder, own=own))
        if self.generate:
            g = self.generate
            for args, kwargs in generate_cases(g.generator, g.count, g.seed, g.options):
                planned.append(PlannedCase(tuple(args), dict(kwargs), None, None,
                                           self.reference_name, folder, own=own))
        return planned

    def from_compiled(self, entries) -> list[PlannedCase] | None:
        """Its cases from their compiled entries (`compiled`), or None when they do not fit the
        spec (a count that differs, a broken entry)."""
        generated = self.generate.count if self.generate else 0
        if not isinstance(entries, list) or len(entries) != len(self.cases) + generated:
            return None
        planned = []
        for i, entry in enumerate(entries):
            try:
                case = self.cases[i] if i < len(self.cases) else None
                expectation = ((None, entry["raises"]) if entry["raises"] is not None
                               else (entry["expect"], None))
                planned.append(PlannedCase(tuple(entry["args"]), dict(entry["kwargs"]),
                                           self._source(case) if case else None, case,
                                           self.reference_name, None, expectation,
                                           from_compiled=True,
                                           compiled_wrong=(entry["wrong"],
                                                           tuple(entry["no_match"]))))
            except (KeyError, TypeError, AttributeError):
                return None
        return planned

    def compiled(self, exercise, plans, secret=None) -> dict:
        """Table `cases`: each planned case's inputs, expected value or exception, and each
        misconception's output and of their combinations (mistakes.py), or that it does not
        apply (it raised)."""
        entries = []
        for planned in plans.cases(exercise, self):
            expected, raises = planned.expectation()
            entry = {"args": list(planned.args), "kwargs": dict(planned.kwargs),
                     "expect": expected, "raises": raises, "wrong": {}, "no_match": []}
            names = [known.like for known in self.misconceptions]
            for like in names + combination_names(self, planned):
                applies, value = planned.wrong_output(like)
                if applies:
                    entry["wrong"][like] = value
                elif like not in entry["no_match"]:
                    entry["no_match"].append(like)
            entries.append(entry)
        return {"cases": entries}

    def _source(self, case: Case) -> str:
        code = ", ".join([inputs.source(a) for a in case.args]
                         + [f"{k}={inputs.source(v)}" for k, v in case.kwargs.items()])
        return f"{self.call}({code})"

    # --- grading ------------------------------------------------------------------------------

    def grade(self, exercise, worker, plans) -> CheckResult:
        """Send the cases in requests of a few (one message each way per request), judge them
        in order; the first failing case is the verdict, explained (mistakes.py)."""
        result, explain = self.grade_deferred(exercise, worker, plans)
        return explain(result) if explain else result

    def grade_deferred(self, exercise, worker, plans):
        """(the verdict, a function that explains a failed one: the error model's search, then
        the generalisation its code misses; None when it passed)."""
        cases = plans.cases(exercise, self)
        params = self.api.params(self.reference_name)
        number, ran = 0, []
        for request in requests(cases, lambda planned: planned.encoded):
            outcomes = worker.call_many(self.call, [p.encoded for p in request])
            ran += zip(request, outcomes, strict=True)
            for planned, outcome in zip(request, outcomes, strict=True):
                number += 1
                failed = self._judge_call(planned, outcome, params, number, len(cases))
                later = in_place.wrong_value_after(failed, ran, number - 1, self.compare)
                if later:
                    number, (planned, outcome) = later + 1, ran[later]
                    failed = self._judge_call(planned, outcome, params, number, len(cases))
                if failed is not None:  # every call of the request ran: the error model's data
                    failed = in_place.written_too(widened(self, failed, ran) or self._reproduced(
                        failed, ran, planned), self.call, params, ran, outcome, self.hidden)
                    memory = MEMORY.get()
                    before = memory.known(self.call) if memory is not None else 0
                    self._remember(worker, ran)
                    setting = None if memory is None else memory.setting(worker)
                    return deferred(failed, outcome, partial(  # out of time: not explained
                        self._explain, ran=ran, failing=number - 1, planned=planned,
                        outcome=outcome, before=before, own=setting == (), setting=setting))
        self._remember(worker, ran)
        return check_result(self, PASSED, cases=len(cases)), None

    def _remember(self, worker, ran: list) -> None:
        memory = MEMORY.get()
        if memory is not None:
            memory.remember(worker, self.call, ran, self._right)

    def _explain(self, result: CheckResult, ran: list, failing: int, planned: PlannedCase,
                 outcome, before: int = 0, own: bool = False,
                 setting: tuple | None = None) -> CheckResult:
        """The failed `result` with, as hint: a call its parameters refused (signatures.py), the
        mistake the error model reproduces (on the function's other checks' cases too when `own`:
        its own code, no stand-ins; or with the same stand-ins: `setting`), else the
        generalisation its code misses (weighing `before` cases: generalisations.py), else what is
        true of the failed values (value_observations.py)."""
        result = mismatched(result, self, planned, outcome)  # its parameters are not the API's
        memory, here = MEMORY.get(), {id(p) for p, _ in ran}
        result = reordered(result, self, ran, memory.worker if own else None, self._right)
        mine = [] if memory is None or self.integration else [  # the same code's other
            (p, o, self._right(p, o)) for p, o in memory.outcomes(self.call, setting)  # checks'
            if id(p) not in here]                                               # cases, judged
        others = [(p, o) for p, o, right in mine if right]  # where it was right
        elsewhere = [(p, o) for p, o, right in mine if not right]  # (a mistake this check
        refusing = planned.expectation()[1] is not None  # named where a refusal was due
        weighed = [(p, o) for p, o in others if refusing or p.expectation()[1] is None]
        if result.misconception and weighed:                       # cannot see may show there)
            result = self._reproduced(result, weighed, planned)  # where the code was right on
            # the function's other checks: their values (`C` left out of P*P*C is no cause
            # where the code was right whenever C was given); their refusals too for a mistake
            # named on a refusal (no tiling check is no cause where the code refuses sizes
            # that do not tile), not for one named on a value (its listed code may refuse
            # nothing: a float count)
        if result.misconception and unexplained_elsewhere(self, planned, result.misconception,
                                                          elsewhere):
            result = self._unnamed(result, planned)
        result = bettered(result, self, ran, failing, others, elsewhere)  # a mistake that
        # reproduces the function's other failures too, where the listed one does not
        result = exactly(result, self, ran)  # its values to rounding: its one cause
        worker = memory.worker if own else None
        result = remedied(generated(result, self, ran, failing, others, elsewhere), self, ran,
                          worker, result)  # a reading's fix (`image[..., None]`) borne out
        cases = [*ran, *((p, o) for p, o, _ in mine)]  # a refusal's cause: a tiling test
        valued = ran if any(p.expectation()[1] is None for p, _ in ran) else cases  # fix's test
        named = named_refusal(result, self, cases, planned, outcome, worker, len(ran))
        result = observed(remedied(named, self, valued, worker, result), self, planned, outcome)
        result = relaid(result, self, ran, others, elsewhere)  # right values, read otherwise
        if own:  # values that change between calls explain more than a formula's guess
            result = repeated(result, self, planned, outcome, memory.worker, memory.changing)
        # a cause the error model reproduces says more than the shapes' observation
        judged = [(p, self._right(p, o)) for p, o in ran]
        if memory is not None and not self.integration:  # the function's other checks weigh
            # too; not for an integration check, whose failures are its helpers' more often
            judged += [(p, ok) for p, ok in memory.judged(self.call, before)  # the checks
                       if id(p) not in here and p.expectation()[1] is None]  # graded before
        right = [p for p, ok in judged if ok]
        if memory is not None:  # a refusal: the function's other checks' refusals weigh too
            judged += [(p, ok) for p, ok in memory.judged(self.call, before)
                       if id(p) not in here and p.expectation()[1] is not None]
        result = refused(result, self, judged, planned, outcome, ran)
        ahead = [] if memory is None or self.integration or setting != () else [  # a later
            (p, o) for p, o in memory.outcomes(self.call, setting, ahead=True)  # exercise's
            if not self._right(p, o)]  # failures: a claim weighs them (Memory.ahead), a name not
        result = explained(result, self, right, planned, [  # a failure on any check belies a
            p for p, ok in judged if not ok] + [p for p, _ in [*elsewhere, *ahead]], [
            (planned, outcome), *((p, o) for p, o in [*ran, *elsewhere] if not self._right(
                p, o)), *ahead])  # a refusal's too
        result = square_claim_held(result, self, [  # "(right only when H == W)" of a mistake,
            p for p, o in ran if not self._right(p, o)] + [p for p, _ in [*elsewhere, *ahead]])
        result = extra_items(result, self, ran)  # a tuple, one item of it the right value
        return unbound(described(result, self, planned, outcome, ran), outcome, loaded(memory))

    def _reproduced(self, result: CheckResult, ran: list, planned: PlannedCase) -> CheckResult:
        """`result` without the listed misconception it names when that one's output differs
        from what the code returned on another case that ran (or it returns a value where the
        code raised as it should, or the right value where it raised): the failing case alone
        could not tell it from another cause (a mean of tokens 0 and 1 is the mean of every
        token for one patch). The check's own hint stands instead."""
        name = result.misconception
        if result.status != FAILED or not name:
            return result
        if any(refutes(other, outcome, name, self.compare) for other, outcome in ran):
            return self._unnamed(result, planned)
        return result

    def _unnamed(self, result: CheckResult, planned: PlannedCase) -> CheckResult:
        """`result` without its listed misconception: the check's own hint instead."""
        hint = (planned.case.hint if planned.case else None) or self.hint
        return replace(result, misconception=None, hint=hint, hint_kind=CHECKLIST if hint else None)

    def _right(self, planned: PlannedCase, outcome) -> bool:
        """Whether a case that ran passed (judge_case's verdict, without naming a mistake)."""
        expected, expects_error = planned.expectation()
        if expects_error:
            return outcome.status == "raised" and outcome.error.type == expects_error
        return (outcome.status == "ok" and not outcome.mutated and agrees(
            expected, outcome.value, self.compare or default_compare(expected)))

    def _judge_call(self, planned: PlannedCase, outcome, params, number: int,
                    total: int) -> CheckResult | None:
        """None when case `number` (of `total`) passed, else the check's failed result."""
        if outcome.not_written(self.call):
            return check_result(self, NOT_IMPLEMENTED, f"`{self.call}` is not implemented yet",
                                cases=number)
        failure = self.judge_case(planned, outcome)
        if failure is None:
            return None
        lines, hint, matched = failure
        kind = OBSERVATION if hint and matched is None else None  # another error than due
        hint = hint or (planned.case.hint if planned.case else None) or self.hint
        if self.hidden:
            message = f"{HIDDEN_FAILURE}: case {number} of {total}"
            if outcome.status in ("timeout", "crashed"):
                message += f"; {outcome.message}"
            elif outcome.status == "raised":
                message += f"; your code raised {outcome.error.type}" + limit_note(outcome)
            elif lines[0].startswith(in_place.RIGHT_BUT):  # says nothing of the inputs
                message += f"; {lines[0]}"
            return check_result(self, FAILED, message, hint, number, matched, hint_kind=kind)
        header = (f"case {number} of {total}: "
                  f"{call_label(self.call, params, planned.args, planned.kwargs)}")
        if planned.source and (code := inputs.reproduce(planned.source)) is not None:
            header += f"\n  to reproduce:{code}"
        return check_result(self, FAILED, "\n".join([header] + [f"  {x}" for x in lines]), hint,
                            number, matched, printed=outcome.stdout, hint_kind=kind)

    def judge_case(self, planned: PlannedCase, outcome):
        """None when the case passed, else (message lines, hint, name) of the misconception it
        matches, the hint and name None when it matches none."""
        expected, expects_error = planned.expectation()
        if expects_error:
            if outcome.status == "raised" and outcome.error.type == expects_error:
                return None
            if outcome.status != "ok":
                return [f"expected: {expects_error}"] + outcome_lines(outcome), \
                    *other_error(outcome, expects_error)
            got = f"got:      {describe(outcome.value)} (no error)"
            return [f"expected: {expects_error}", got], *self._misconception(
                planned, outcome.value, self.compare)
        if outcome.status != "ok":  # what was due is shown as for a wrong value (round 53)
            return [f"expected: {describe(expected)}"] + outcome_lines(outcome), None, None
        how = self.compare or default_compare(expected)
        mismatch = compare(expected, outcome.value, how)
        params = self.api.params(self.reference_name)
        if mismatch is None:
            return in_place.changed_in_place(self.call, params, outcome)
        return (mismatch.lines() + in_place.also_in_place(self.call, params, outcome),
                *self._misconception(planned, outcome.value, how))

    def _misconception(self, planned: PlannedCase, got, how: Compare | None):
        """(hint, name) of the misconception, or the combination, whose output `got` matches,
        else (None, None) (mistakes.py). `how` is the check's comparison; None (a case that
        should have raised) compares each wrong output the way its type suggests."""
        expected = planned.expectation()[0] if how is not None else None
        hint, name = named(self, planned, lambda wrong: output_matches(
            wrong, got, how or default_compare(wrong), expected))
        return (hint if name is None else float_too(hint, planned.wrong_output(name)[1], got),
                name)

    # --- the question sheet -------------------------------------------------------------------

    def examples(self) -> list[str]:
        if self.hidden:
            return []
        lines, params = [], self.api.params(self.reference_name)
        for case in self.cases:
            call = self._source(case)
            if len(call) > MAX_CALL:  # arguments by name and shape instead
                call = call_label(self.call, params, case.args, case.kwargs, _short)
            lines += [f">>> {call}", self._sheet_result(case)]
        return lines

    def _sheet_result(self, case: Case) -> str:
        if case.raises:
            return f"raises {case.raises}"
        if case.has_expect:
            return sheet_value(inputs.evaluate(case.expect))
        try:
            function = reference_function(self.reference_name, self.folder)
        except (ImportError, KeyError):  # the student bundle: its sheet is the instructor's
            return "(computed by the reference, which this grader does not have)"
        args = tuple(inputs.evaluate(a) for a in case.args)
        kwargs = {k: inputs.evaluate(v) for k, v in case.kwargs.items()}
        try:
            return sheet_value(function(*args, **kwargs))
        except Exception as error:  # the reference refusing is the expected answer
            return f"raises {type(error).__name__}"


def _short(expr) -> str:
    """An argument in a few characters: its code when short, else its value's short form (a
    dict of expressions: each value short)."""
    code = inputs.source(expr)
    builder = inputs.builder_of(expr)
    if len(code) <= (MAX_PARAMS if builder and builder.endswith("_params") else MAX_ARGUMENT):
        return code
    if isinstance(expr, dict) and builder is None:
        return "{" + ", ".join(f"{k!r}: {_short(v)}" for k, v in expr.items()) + "}"
    return short(inputs.evaluate(expr), MAX_ARGUMENT)
