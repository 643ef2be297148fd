"""The exercise catalogue and its accuracy suite: the grader grading known submissions.

- tests/submissions/styles/: correct submissions written in different styles (loops, einsum,
  stride tricks, float32 throughout, GELU's tanh approximation with other parameter names,
  picoGPT's style, a notebook). Each must get full marks.
- tests/submissions/buggy/: one bug each, named after the misconception: the function(s) the
  student got wrong, put into the solution at test time (tests/buggy_submissions.py). Each
  declares `EXPECT = {exercise id: misconception}`: every exercise in EXPECT must lose points and
  name that misconception with its hint; only the exercises whose `uses:` names the buggy
  function may lose points; every other exercise keeps full marks (one bug costs points once:
  the others are graded around it with the grader's stand-ins, checks/dependencies.py). An
  exercise that runs none of the functions a fixture replaces is graded for two fixtures of each
  kind (`graded_exercises`): it runs the solution's code alone.

A new fixture file is picked up automatically. Submissions are graded through the Python API
(one worker each, several at a time), not through pytest, to keep this file fast.
"""
from __future__ import annotations

import inspect
import os
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import numpy as np
import pytest
from buggy_submissions import (
    BUGGY,
    UNNAMED,
    affected_exercises,
    build_submission,
    exercises_running,
    fixture_metadata,
    of_each_kind,
)

from grader.checks import SubmissionGrading, compiled
from grader.checks.api import SHIPPED
from grader.checks.cases import CasePlans
from grader.checks.catalogue import spec_problems
from grader.checks.compare import Compare, compare
from grader.checks.course import reference_function
from grader.checks.describe import REFUSED_WITH_ASSERT, REFUSED_WITH_OTHER_TYPE, other_error
from grader.checks.generators import generate_cases
from grader.checks.inputs import evaluate
from grader.checks.kinds import AnswerCheck, CallCheck
from grader.checks.kinds.answer import SLIP_TITLES as ANSWER_SLIPS
from grader.checks.kinds.axes_off import ONE_AXIS_OFF
from grader.checks.kinds.generalisations import GENERALISATIONS, RAISES, SEVERAL
from grader.checks.kinds.in_place import IN_PLACE
from grader.checks.kinds.mistakes import FLOAT_TOO, JOIN, opaque
from grader.checks.kinds.randomness import RANDOM
from grader.checks.kinds.refusal_observations import INSTEAD, REFUSALS
from grader.checks.kinds.relaid import TITLES as RELAID
from grader.checks.kinds.returned_items import TITLES as RETURNED_ITEMS
from grader.checks.kinds.signatures import TITLES as SIGNATURE_MISMATCHES
from grader.checks.kinds.square_claims import square_unclaimed
from grader.checks.kinds.value_observations import COUNTS, OBSERVATIONS, SHAPED, described
from grader.checks.properties import NAMED as PROPERTY_NAMED
from grader.checks.property_named import below_zero
from grader.checks.results import (
    CHECKLIST,
    HIDDEN_FAILURE,
    MISTAKE,
    NOT_IMPLEMENTED,
    OBSERVATION,
    CheckResult,
)
from grader.reference import error_model
from grader.reference.error_model.equal_blocks import BLOCKS_EXAMPLE
from grader.reference.error_model.tiling import AREA_EXAMPLE
from grader.report.feedback_level import expected_only
from grader.report.quotes import FLOAT_LINE

from conftest import SOLUTION, SUBMISSIONS, TEMPLATE, misconceptions_of

MISCONCEPTIONS = misconceptions_of()  # the shipped ones and the course's own
UNPLACED = "One slip, at one or more of these places"  # error_model's `either` sentence

STYLES = (sorted((SUBMISSIONS / "styles").glob("*.py"))
          + sorted((SUBMISSIONS / "styles").glob("*.ipynb")))
# buggy fixtures graded on the exercises that run their functions only (graded_exercises)
PARTLY_GRADED = set(BUGGY) - set(of_each_kind(BUGGY))
PARALLEL = min(4, (os.cpu_count() or 1) + 1)   # workers are processes; grading mostly waits on them

# The options of each multiple-choice question, as the student API (the course's contract) lists
# them.
ANSWER_OPTIONS = {
    "positions": {"permutation", "speed", "cls", "resolution"},
    "medical": {"pretrained", "scratch"},
    "causal_mask": {"bidirectional", "speed", "leak"},
}


def graded_exercises(path, catalogue) -> list:
    """The exercises the fixture grades `path` on: every one, but for a buggy fixture outside
    `of_each_kind` those that run a function it replaces (exercises_running: the one it is
    checked on, and its callers, graded around it with stand-ins). Each other exercise runs the
    solution's own code alone and keeps full marks; the kind's two fixtures show it."""
    if path in PARTLY_GRADED:
        running = exercises_running(path, catalogue)
        return [exercise for exercise in catalogue if exercise.id in running]
    return list(catalogue)


@pytest.fixture(scope="module")
def graded(catalogue, request, tmp_path_factory):
    """path -> {exercise id: ExerciseResult}, for every submission the selected tests need.

    All of them are graded at once, a few at a time, each in its own worker. A buggy snippet is
    graded as the submission it builds.
    """
    from grader.worker import StudentWorker, prestart_zygote

    zygote = prestart_zygote()
    here = request.module.__name__
    needed = {SOLUTION, TEMPLATE}
    for item in request.session.items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if (getattr(getattr(item, "module", None), "__name__", None) == here
                and isinstance(params.get("submission"), os.PathLike)):  # not an empty set's
            needed.add(params["submission"])

    built = tmp_path_factory.mktemp("buggy")
    # built here, one at a time: building parses the snippet (ast), and CPython 3.11's ast is
    # not safe while another thread's error model search compiles its rewrites
    submissions = {path: build_submission(path, built) if path in BUGGY + UNNAMED else path
                   for path in sorted(needed)}

    # each thread keeps its stand-in oracles (checks/oracle.py) for its next submission, as a
    # class run does (driver.py): a fresh reference process for each one cost a third of this
    # fixture's CPU time
    # and its case plans (each case's compiled expectation decoded once), as a class run's
    # students share theirs (driver.py): a thread's own, as a PlannedCase reads its compiled
    # known-wrong outputs on first need, which two threads must not do at once
    kept, every_kept = threading.local(), []

    def grade(path):
        if not hasattr(kept, "oracles"):
            kept.oracles, kept.plans = {}, CasePlans()
            every_kept.append(kept.oracles)
        with StudentWorker(submissions[path], zygote=zygote) as worker:
            grading = SubmissionGrading(worker, plans=kept.plans, catalogue=catalogue,
                                        oracles=kept.oracles)
            return {exercise.id: grading.exercise(exercise)
                    for exercise in graded_exercises(path, catalogue)}

    class Graded(dict):
        """A fixture a test names by its path, not as a parameter (so not in `needed` when
        tests are selected with -k), is graded when first asked for."""

        def __missing__(self, path):
            submissions[path] = (build_submission(path, built) if path in BUGGY + UNNAMED
                                 else path)
            self[path] = grade(path)
            return self[path]

    with ThreadPoolExecutor(PARALLEL) as pool:
        futures = {path: pool.submit(grade, path) for path in sorted(needed)}
        results = Graded({path: future.result() for path, future in futures.items()})
    yield results
    for oracle in (o for oracles in every_kept for o in oracles.values()):
        oracle.close()


def lost(results: dict) -> dict:
    """Exercise id -> 'score / max' for the exercises that lost points."""
    return {i: f"{r.score:g} / {r.max_score:g}" for i, r in results.items()
            if r.score < r.max_score}


def feedback(result) -> str:
    return "\n".join(f"{c.name}: {c.message} | hint: {c.hint}" for c in result.checks
                     if not c.passed)


# --- the catalogue itself ---------------------------------------------------------------------

def test_every_spec_validates_with_its_inputs_built(catalogue):
    problems = [str(e) for exercise in catalogue
                for e in spec_problems(compiled.spec_file(exercise), build_inputs=True)[1]]
    assert problems == [] and catalogue


def test_every_function_exercise_has_visible_cases_and_hidden_generated_ones(catalogue):
    for exercise in catalogue:
        calls = call_checks(exercise)
        # a fixed checkpoint: its hidden cases are other images
        if not calls or exercise.id == "vit-checkpoint":
            continue
        assert any(not c.hidden and c.cases for c in calls), f"{exercise.id}: no visible cases"
        assert any(c.hidden and c.generate for c in calls), \
            f"{exercise.id}: no hidden generated cases"


def test_the_contracts_multiple_choice_questions_list_its_options(catalogue):
    answers = {c.key: c for e in catalogue for c in e.checks if isinstance(c, AnswerCheck)}
    assert set(ANSWER_OPTIONS) - set(answers) == set(), "a question of the contract is not asked"
    for key, options in ANSWER_OPTIONS.items():
        assert set(answers[key].options) == options, key


def test_every_option_of_a_multiple_choice_question_has_its_own_feedback(catalogue):
    for check in (c for e in catalogue for c in e.checks if isinstance(c, AnswerCheck)):
        texts = [t.strip() for t in check.options.values()]
        assert len(texts) >= 2, f"{check.key}: a question needs at least two options"
        assert all(texts) and len(set(texts)) == len(texts), \
            f"{check.key}: every option needs its own feedback"


def call_checks(exercise) -> list[CallCheck]:
    return [c for c in exercise.checks if isinstance(c, CallCheck)]


def test_every_misconception_is_used_by_a_spec_and_caught_by_a_buggy_submission(catalogue):
    used = {m.like for e in catalogue for c in call_checks(e) for m in c.misconceptions}
    named = {part for path in BUGGY for name in fixture_metadata(path).values()
             for part in name.split(JOIN)}
    assert set(MISCONCEPTIONS) - used == set(), "registered but never used by a spec"
    assert set(MISCONCEPTIONS) - named == set(), \
        "no buggy submission in tests/submissions/buggy/ shows it"


def test_misconceptions_take_the_arguments_of_the_function_they_imitate(catalogue):
    for exercise in catalogue:
        for check in call_checks(exercise):
            if not check.misconceptions:
                continue
            want = inspect.signature(reference_function(check.reference_name, check.folder)
                                     ).parameters.values()
            required = len([p for p in want if p.default is inspect.Parameter.empty])
            optional = {p.name for p in want
                        if p.default is not inspect.Parameter.empty and p.kind != p.KEYWORD_ONLY}
            for m in check.misconceptions:
                params = [p for p in inspect.signature(MISCONCEPTIONS[m.like]).parameters.values()
                          if p.kind not in (p.KEYWORD_ONLY, p.VAR_KEYWORD)]  # a variant's options
                assert len([p for p in params
                            if p.default is inspect.Parameter.empty]) == required, m.like
                assert {p.name for p in params
                        if p.default is not inspect.Parameter.empty} == optional, m.like


def _cases(check):
    out = [(tuple(evaluate(a) for a in c.args), {k: evaluate(v) for k, v in c.kwargs.items()})
           for c in check.cases]
    if check.generate:
        g = check.generate
        out += generate_cases(g.generator, g.count, g.seed, g.options)
    return out


def _detected(check, wrong_fn, args, kwargs) -> bool:
    """Would a student whose function is `wrong_fn` fail this case?"""
    try:
        expected = reference_function(check.reference_name, check.folder)(*args, **kwargs)
    except Exception:  # noqa: BLE001  (the case expects an exception)
        expected = None
    try:
        with np.errstate(all="ignore"):
            wrong = wrong_fn(*args, **kwargs)
    except Exception:  # noqa: BLE001  (a wrong function may raise anything)
        return expected is not None
    if expected is None:
        return True
    from grader.checks.compare import default_compare

    return compare(expected, wrong, check.compare or default_compare(expected)) is not None


def test_each_misconception_is_detectable_by_its_exercise_at_the_specs_tolerance(catalogue):
    """Tolerances fit the arithmetic but stay far below what each mistake changes."""
    for exercise in catalogue:
        listed = {m.like for c in call_checks(exercise) for m in c.misconceptions}
        for name in listed:
            checks = [c for c in call_checks(exercise)
                      if any(m.like == name for m in c.misconceptions)]
            assert any(_detected(c, MISCONCEPTIONS[name], a, k)
                       for c in checks for a, k in _cases(c)), \
                (f"{exercise.id}: '{name}' gives the right answer on every case of the checks "
                 f"listing it")


# --- the solution, the template and the correct styles -----------------------------------------

def test_the_solution_gets_full_marks(graded):
    results = graded[SOLUTION]
    assert lost(results) == {}, "\n".join(feedback(r) for r in results.values())


def test_the_template_scores_zero_and_says_not_implemented_for_every_exercise(graded):
    results = graded[TEMPLATE]
    assert sum(r.score for r in results.values()) == 0
    assert {i for i, r in results.items() if r.status != NOT_IMPLEMENTED} == set()


@pytest.mark.parametrize("submission", STYLES, ids=lambda p: p.name)
def test_a_correct_style_gets_full_marks(graded, catalogue, submission):
    """The styles answer the contract's questions; one asked since has no answer in them, and a
    function the course added since (course.py) may be missing from them."""
    unanswered = {(e.id, c.name) for e in catalogue for c in e.checks
                  if isinstance(c, AnswerCheck) and c.key not in ANSWER_OPTIONS}
    added = {(e.id, c.name) for e in catalogue for c in e.checks
             if set(c.names_read()) - set(SHIPPED.signatures) - {"ANSWERS"}}
    results = graded[submission]
    wrong = {i: [c.name for c in r.checks if not c.passed and (i, c.name) not in unanswered
                 and not ((i, c.name) in added and "is not defined yet" in (c.message or ""))]
             for i, r in results.items()}
    assert {i: names for i, names in wrong.items() if names} == {}, \
        "\n".join(f"{i}:\n{feedback(r)}" for i, r in results.items() if wrong[i])


# --- the buggy submissions ---------------------------------------------------------------------

def _shown_hint(exercise, check_name: str, misconception: str, either: bool = False,
                unsure: bool = False) -> str:
    """The hint the spec says a student with this misconception sees on this check (`either`:
    a generated one told as a slip the cases could not place, error_model._either; `unsure`: a
    pair with a quiet part told as maybe not all, error_model._within)."""
    check = next(c for c in exercise.checks if c.name == check_name)
    if isinstance(check, AnswerCheck):
        return {k.lower(): v for k, v in check.options.items()}[
            misconception.split(":", 1)[1]]
    listed = {m.like: m.hint for m in check.misconceptions} if isinstance(check, CallCheck) else {}
    if generated(misconception):  # the error model's sentence for that rewrite
        return error_model.sentence(reference_function(check.reference_name, check.folder),
                                    misconception, opaque(check), either=either, unsure=unsure)
    if JOIN in misconception:  # several mistakes at once: each one's own hint, in order
        parts = misconception.split(JOIN)
        return f"{len(parts)} mistakes at once: " + " ".join(
            f"({i}) {listed[part]}" for i, part in enumerate(parts, 1))
    return listed.get(misconception, check.hint)


def _told_exactly(hint: str, exercise, check_name: str, misconception: str) -> bool:
    """Whether the hint is the listed mistake's `exact_hint` (kinds/exact.py: the values are its
    own exactly), a line of the student's that the report quotes after it aside."""
    check = next(c for c in exercise.checks if c.name == check_name)
    exact = {m.like: m.exact_hint for m in getattr(check, "misconceptions", ())}.get(misconception)
    return bool(exact) and (hint == exact or hint.startswith(exact + " "))


LINES_SAID = re.compile(r" \(at your lines? `[^`]+`(?: and `[^`]+`)?\)")


def _told_as(hint: str | None, shown: str) -> bool:
    """Whether the hint is the one the spec shows; or, for one slip made at several places, the
    same places told as the error model tells a slip the cases cannot place (they cannot tell
    at which of them it is made: the same name, error_model._either). A claim that the code is
    right on square images is taken out where a square case failed (square_claims.py)."""
    opening, _, places = shown.partition(": ")
    hint = (hint or "").removesuffix(FLOAT_TOO)  # a listed count's integer, in floats
    if FLOAT_LINE in shown:  # the lines that make a count a float: the student's own, or none
        shown = shown.replace(FLOAT_LINE, "")
        hint = LINES_SAID.sub("", hint.replace(FLOAT_LINE, ""))
    hint = AREA_EXAMPLE.sub("", hint)  # a count by area's example: one the student's
    # code counted (tiling.with_area_example), not in the sentence the model alone gives
    hint = BLOCKS_EXAMPLE.sub("", hint)  # likewise, equal blocks' (with_blocks_example)
    return hint in (shown, square_unclaimed(shown)) or (  # "(right only when H == W)" said
        opening.startswith("One slip, made at ") and hint == (  # only where it holds
        f"One slip, at one or more of these places (the cases cannot tell which): {places}"))


def _mistakes(name: str | None) -> set[str]:
    return set(name.split(JOIN)) if name else set()


def generated(name: str | None) -> bool:
    """A mistake the error model generated (grader/reference/error_model): "op:...[+op:...]"."""
    return bool(name) and name.startswith("op:")


@pytest.mark.parametrize("submission", BUGGY, ids=lambda p: p.stem)
def test_a_buggy_submission_loses_points_where_it_should_and_names_its_misconception(
        graded, catalogue, submission):
    expect = fixture_metadata(submission)
    assert expect, f"{submission.name} declares no EXPECT"
    results = graded[submission]
    exercises = {e.id: e for e in catalogue}
    for exercise_id, misconception in expect.items():
        result = results[exercise_id]
        assert result.score < result.max_score, f"{exercise_id} gave full marks"
        named = [c for c in result.checks if not c.passed and c.misconception == misconception]
        assert named, f"{exercise_id} never named '{misconception}':\n{feedback(result)}"
        for check in named:
            if misconception == IN_PLACE:  # the worker saw the argument change: said as that
                assert check.hint.startswith("Change no array") and check.hint_kind == MISTAKE
                continue
            if misconception in {**ANSWER_SLIPS, **SIGNATURE_MISMATCHES, **RETURNED_ITEMS,
                                 **RELAID}:
                # said from what the student wrote, from how Python bound the call's
                # arguments, from the items of the tuple it returned, or from the layout its
                # right values came back in
                assert check.hint and check.hint_kind == MISTAKE
                continue
            spec = next(c for c in exercises[exercise_id].checks if c.name == check.name)
            if misconception in PROPERTY_NAMED and spec.KEY == "property":  # a property's
                # cause, checked on its calls (a value check names it with the spec's words)
                assert check.hint in {below_zero(PROPERTY_NAMED[misconception], nan)
                                      for nan in (False, True)}  # a NaN said where it was
                assert check.hint_kind == MISTAKE
                continue
            if misconception == REFUSED_WITH_ASSERT:  # the worker named the exception's type
                assert "(AssertionError)" in check.hint and check.hint_kind == MISTAKE
                continue
            if misconception == REFUSED_WITH_OTHER_TYPE:  # and the student's raise statement
                assert "`raise " in check.hint and check.hint_kind == MISTAKE
                continue
            assert check.hint and (
                _told_as(check.hint, _shown_hint(exercises[exercise_id], check.name,
                                                 misconception))
                or _told_exactly(check.hint, exercises[exercise_id], check.name, misconception)
                or (generated(misconception) and check.hint in {_shown_hint(
                    exercises[exercise_id], check.name, misconception, **how)
                    for how in ({"either": True}, {"unsure": True})}))
            # a property's spec hint is the same for every failure of it: a checklist
            assert check.hint_kind == (CHECKLIST if spec.KEY == "property" else MISTAKE)
    affected = affected_exercises(submission, catalogue)
    unexpected = {i: s for i, s in lost(results).items() if i not in affected}
    assert unexpected == {}, "\n".join(f"{i}:\n{feedback(results[i])}" for i in unexpected)
    # what graded_exercises leaves out for most fixtures: an exercise that runs none of the
    # functions the fixture replaces, where no broken helper of it was ever stood in for
    running = exercises_running(submission, catalogue)
    assert {i for i, result in results.items() if i not in running
            and any(c.stand_ins for c in result.checks)} == set()


@pytest.mark.parametrize("submission", BUGGY, ids=lambda p: p.stem)
def test_every_mistake_of_a_buggy_submission_is_named_not_only_observed(graded, submission):
    """Issue 38's figure: a file in buggy/ is one whose every mistake the grader names. Each
    exercise of its EXPECT has a failed check whose hint is a named mistake (a property's
    verdict, told with its checklist, names one too); an exercise told only by an observation
    (right for square images only, ...) or the checklist is not named, and the file belongs in
    tests/submissions/unnamed/. (An integration check's observation of the broken functions it
    runs is not the file's mistake: that exercise is not in EXPECT.)"""
    results = graded[submission]
    told = {exercise_id: sorted({f"{c.hint_kind}: {c.misconception}"
                                 for c in results[exercise_id].checks if not c.passed})
            for exercise_id in fixture_metadata(submission)
            if not any(c.hint_kind == MISTAKE or (c.hint_kind == CHECKLIST and c.misconception)
                       for c in results[exercise_id].checks if not c.passed)}
    assert told == {}, f"observed, not named: move {submission.name} to unnamed/"


@pytest.mark.parametrize("submission", BUGGY, ids=lambda p: p.stem)
def test_a_buggy_submission_is_never_told_another_mistake(graded, submission):
    """Every mistake any failed check names is one the fixture makes (a combination's parts
    each count), wherever it was caught. A generated one ("op:...") names the same mistake in
    the words of the reference's code, on whichever function's check caught it: its claim, that
    the rewrite reproduces every output, is replayed below instead."""
    made = set().union(*(_mistakes(name) for name in fixture_metadata(submission).values()),
                       GENERALISATIONS, {RAISES + name for name in GENERALISATIONS},
                       {ONE_AXIS_OFF, SEVERAL}, OBSERVATIONS, REFUSALS, INSTEAD,
                       SIGNATURE_MISMATCHES, COUNTS, SHAPED, {RANDOM},
                       fixture_metadata(submission, "ALIASES"))
    told = {(exercise_id, check.name): check.misconception
            for exercise_id, result in graded[submission].items() for check in result.checks
            if not check.passed and not generated(check.misconception)
            and not _mistakes(check.misconception) <= made}
    assert told == {}


def _placed_among(check, made: set) -> bool:
    """Whether the check tells one slip the cases could not place, "at one or more of these
    places", one of which is a mistake the file makes: true of the file, if unplaced."""
    return (check.hint.startswith(UNPLACED)
            and any(part in made for part in check.misconception.split(JOIN)))


@pytest.mark.parametrize("submission", UNNAMED, ids=lambda p: p.stem)
def test_a_mistake_no_hint_names_yet_loses_points_and_is_told_no_wrong_cause(
        graded, catalogue, submission):
    """tests/submissions/unnamed/: realistic ports (issue 38) whose mistake the grader does not
    name yet. Each loses points where it should, none elsewhere, and no failed check names a
    mistake, listed or generated, that the file does not make: a checklist or an observation,
    never a wrong cause; a mistake of the file its EXPECT names (not None) is named. A file whose
    every mistake gets named fails here: move it to buggy/."""
    expect = fixture_metadata(submission)
    results = graded[submission]
    for exercise_id, misconception in expect.items():
        assert results[exercise_id].score < results[exercise_id].max_score, exercise_id
        if misconception:  # the file's other mistake, already named: it stays named
            assert any(c.misconception == misconception for c in results[exercise_id].checks
                       if not c.passed), f"{exercise_id} no longer names '{misconception}'"
    made = {part for m in expect.values() if m for part in _mistakes(m)}  # a pair's parts too
    made |= set(fixture_metadata(submission, "ALIASES"))  # the same mistake in another's words
    told = {(exercise_id, check.name): check.misconception
            for exercise_id, result in results.items() for check in result.checks
            if not check.passed and check.misconception and check.hint_kind == MISTAKE
            and not _mistakes(check.misconception) <= made and not _placed_among(check, made)}
    assert told == {}
    affected = affected_exercises(submission, catalogue)
    assert {i for i in lost(results) if i not in affected} == set()


@pytest.mark.parametrize("submission", BUGGY, ids=lambda p: p.stem)
def test_hidden_failures_never_show_inputs_or_expected_values(graded, submission):
    for result in graded[submission].values():
        for check in result.checks:
            if check.hidden and not check.passed:
                assert check.message.startswith(HIDDEN_FAILURE)
                assert "expected" not in check.message and "to reproduce" not in check.message


@pytest.mark.parametrize("submission", BUGGY + UNNAMED, ids=lambda p: p.stem)
def test_every_failed_call_check_shows_a_hint(graded, catalogue, submission):
    """A named mistake, an observation or at least the checklist: never expected/got alone
    (round 36's b36_05 and b36_13 got no hint line on two multi-head-attention checks)."""
    calls = {(e.id, c.name) for e in catalogue for c in e.checks if isinstance(c, CallCheck)}
    bare = [(exercise_id, check.name) for exercise_id, result in graded[submission].items()
            for check in result.checks
            if not check.passed and not check.hint and (exercise_id, check.name) in calls]
    assert bare == []


def test_a_visible_array_failure_shows_the_call_shapes_first_difference_and_hint(graded):
    check = next(
        c for c in graded[SUBMISSIONS / "buggy" / "patchify_channel_first.py"]["patchify"].checks
        if c.name.startswith("raster order"))
    lines = check.message.splitlines()
    assert lines[0].startswith("case 1 of 5: patchify(image=<array 4x6x3 float64>, P=2)")
    assert lines[1].strip() == ("to reproduce: "
                                "patchify(np.arange(0, 72, dtype=float).reshape((4, 6, 3)), 2)")
    assert lines[2].strip().startswith("expected: array (6, 12) float64")
    assert "first difference at index [0, 1]" in check.message
    assert "torch" in check.hint and check.misconception == "patchify_channel_first"


def test_a_params_case_can_be_pasted_with_one_import(graded):
    check = next(c for c in graded[SUBMISSIONS / "buggy" / "attention_no_scale.py"][
                     "multi-head-attention"].checks
                 if c.name == "one head")
    reproduce = next(line.strip() for line in check.message.splitlines() if "to reproduce" in line)
    code = reproduce.split(": ", 1)[1]
    assert code.startswith("from grader.checks.inputs import evaluate; self_attention(")
    namespace = {"np": np, "self_attention": lambda x, p, heads: (x.shape, sorted(p), heads)}
    pasted = code.replace("self_attention(", "result = self_attention(", 1)
    exec(pasted, namespace)  # noqa: S102  (the code a student pastes)
    assert namespace["result"] == (
        (3, 4), sorted(["Wq", "bq", "Wk", "bk", "Wv", "bv", "Wo", "bo"]), 1)


def test_a_long_case_is_pasted_from_lines_of_its_own_and_level_expected_drops_them(graded):
    """vit-forward's freshly initialised ViT (a whole params dict written out, ~1,600
    characters): "to reproduce:" then the call, one argument or entry a line, indented under it,
    every line within the width; pasted, it passes the very arrays; `expected` drops them all."""
    check = next(c for c in graded[SUBMISSIONS / "buggy" / "hf_vit_final_layer_norm_eps_1e12.py"][
                     "vit-forward"].checks if not c.passed)
    lines = check.message.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == "to reproduce:")
    indent = len(lines[at]) - len(lines[at].lstrip())
    code = []
    for line in lines[at + 1:]:
        if len(line) - len(line.lstrip()) <= indent:
            break
        code.append(line)
    assert len(code) > 5 and all(len(line) <= 110 for line in code)
    pasted = "result = " + inspect.cleandoc("\n".join(code))
    namespace = {"np": np, "vit_forward": lambda image, params: (
        image.shape, params["P"], len(params["blocks"]), float(np.abs(params["cls"]).max()))}
    exec(pasted, namespace)  # noqa: S102  (the code a student pastes)
    shape, patch, blocks, spread = namespace["result"]
    assert patch in (3, 4) and blocks == 1 and spread < 1e-3 and len(shape) == 3
    assert not any(line in expected_only(check.message) for line in code)


def test_a_students_own_exception_shows_their_line_not_the_graders(graded):
    submission = SUBMISSIONS / "buggy" / "softmax_without_keepdims.py"
    messages = "\n".join(c.message for r in graded[submission].values() for c in r.checks
                         if not c.passed and not c.hidden)
    assert 'File "softmax_without_keepdims.py"' in messages and ", in softmax" in messages
    assert "grader/" not in messages and "Traceback" not in messages


def test_a_property_that_could_not_judge_says_so_not_its_diagnosis(graded, tmp_path):
    """The property's own hint diagnoses its finding (a bag of tiles); when the student's
    self_attention raised on its inputs nothing was judged, and the hint says that instead.
    (Its own code raises: a helper's raise is graded around since the property's functions'
    helpers are computed, as the mingpt fixture's broken softmax is.)"""
    submission = tmp_path / "vit_exercises.py"
    submission.write_text(SOLUTION.read_text() + "\n\ndef self_attention(x, p, heads, "
                          "causal=False):\n    raise ValueError('attention is not written yet')\n")
    result = graded[submission]["why-positions"]
    failed = [c for c in result.checks if not c.passed and "property" in c.message]
    assert failed
    for check in failed:
        assert check.hint.startswith("Your `self_attention` failed on the inputs this property")
        assert "bag of tiles" not in check.hint and check.hint_kind == OBSERVATION


def test_a_bag_of_tiles_is_blamed_on_embed_image_only_when_its_embed_image_is_one(graded):
    """b10_08: embed_image adds positions; self_attention sums the values, so the tiles' order
    is lost there. The spec's hint ("with your embed_image ... only reorders the tokens") would
    be untrue: the property says where it is lost instead."""
    result = graded[SUBMISSIONS / "buggy" / "einsum_values_summed_gelu_new_bracket.py"][
        "why-positions"]
    check = next(c for c in result.checks if c.name.startswith("after embed_image"))
    assert not check.passed and check.misconception == "positions_lost_in_attention"
    assert "lost in `self_attention`" in check.hint and check.hint_kind == OBSERVATION
    forgotten = graded[SUBMISSIONS / "buggy" / "embed_positions_forgotten.py"]["why-positions"]
    told = next(c for c in forgotten.checks if c.name == check.name)
    assert told.misconception == "bag_of_tiles" and told.hint.startswith("A bag of tiles")


def test_right_values_of_another_shape_are_observed_as_reshaped(graded):
    """b18_12: timm's fast path returns `out.reshape(W // k, H // k, d)`: the expected values in
    their order, shaped (W', H', d) on a non-square image. Observed as that until session 19
    ("only the sizes of a reshape differ", kept: the test below); now named on both checks,
    the fast path (error_model/ports.py), the general path seen right on a non-square output."""
    fixture = SUBMISSIONS / "buggy" / "timm_fast_path_reshaped_width_by_height.py"
    failed = [c for c in graded[fixture]["kernel-stride"].checks if not c.passed]
    assert failed and all(
        c.misconception == "op:fast_path_reshape:conv_patch_embed:windows-fast-path-sides-swapped"
        and c.hint_kind == MISTAKE and "(W', H', d)" in c.hint for c in failed)


def test_right_values_in_another_shape_are_observed_where_nothing_names_them():
    """The observation b18_12 got before its fast path was named: the expected values in their
    order in another shape, both shapes said on a visible case, neither on a hidden one; a
    permutation of the axes is said as a transpose."""
    expected = np.arange(48, dtype=float).reshape(3, 4, 4)
    check = SimpleNamespace(function="conv_patch_embed", compare=None, hidden=False)
    planned = SimpleNamespace(expectation=lambda: (expected, None))
    result = CheckResult("c", 2, 0, "failed", "m", hint="the checklist", hint_kind=CHECKLIST)

    def told(got, hidden=False):
        return described(result, SimpleNamespace(**{**vars(check), "hidden": hidden}), planned,
                         SimpleNamespace(status="ok", value=got))

    visible = told(expected.reshape(4, 3, 4))
    assert visible.misconception == "reshaped" and visible.hint_kind == OBSERVATION
    assert "shaped (4, 3, 4) where (3, 4, 4) belongs: only the sizes of a reshape differ" in \
        visible.hint
    hidden = told(expected.reshape(4, 3, 4), hidden=True)
    assert "in another shape" in hidden.hint and "shaped (" not in hidden.hint
    assert told(expected.transpose(1, 0, 2)).misconception == "axes_reordered"


def test_right_values_transposed_in_the_same_shape_are_observed():
    """b75_14's visible case: a convolution's (2, 2, 3) output with its rows and columns swapped
    has the expected shape; said as the transpose it is (what the hidden case of another shape
    says), not left to the checklist. A value no transpose gives is not."""
    expected = np.arange(12, dtype=float).reshape(2, 2, 3)
    check = SimpleNamespace(function="conv_patch_embed", compare=None, hidden=False,
                            reference_name="conv_patch_embed",
                            api=SimpleNamespace(params=lambda name: ("image", "K", "b", "stride")))
    planned = SimpleNamespace(expectation=lambda: (expected, None), args=(), kwargs={})
    result = CheckResult("c", 2, 0, "failed", "m", hint="the checklist", hint_kind=CHECKLIST)

    def told(got):
        return described(result, check, planned, SimpleNamespace(status="ok", value=got))

    swapped = told(expected.transpose(1, 0, 2))
    assert swapped.misconception == "axes_reordered" and swapped.hint_kind == OBSERVATION
    assert swapped.hint == ("Your `conv_patch_embed` returns the expected values with their "
                            "axes in another order, as `value.transpose(1, 0, 2)` gives them.")
    other = expected.copy()
    other[0, 1, 0] = 100.0
    assert told(other).hint_kind != OBSERVATION or told(other).misconception != "axes_reordered"


def test_a_flatten_in_another_order_and_windows_are_named_together(graded):
    """b24_07: Qwen2-VL's patchify flattens each patch channel first and groups the patches
    2 x 2 before raster order. Until session 16 no rewrite explained both and the raster-order
    check observed the column permutation; now the pair (grids.merge_windows and
    grids.channels_first) is named there, never "a vector added to every row" (on an
    `np.arange` image the flatten looks like one: an offset the code does not have)."""
    fixture = (SUBMISSIONS / "buggy"
               / "qwen2vl_merge_windows_channel_first_positions_resolution.py")
    check = next(c for c in graded[fixture]["patchify"].checks
                 if c.name.startswith("raster order"))
    assert not check.passed and check.hint_kind == MISTAKE
    assert check.misconception == ("op:merge_windows:patchify:patches-in-2x2-windows"
                                   "+op:channels_first:patchify:patch-flattened-channels-first")
    assert "vector" not in check.hint


def test_a_parameter_named_unlike_the_api_is_said_as_the_api_names_it(graded):
    """b10_01: timm's `class_token` for the API's `cls_token`, refused as Python bound it."""
    fixture = SUBMISSIONS / "buggy" / "lucidrains_assert_tiling_timm_class_token_keyword.py"
    result = graded[fixture]["token-count"]
    failed = [c for c in result.checks if not c.passed]
    assert failed and all(c.misconception == "signature_differs" for c in failed)
    assert all(c.hint.startswith("Your `num_tokens` has no parameter `cls_token`") for c in failed)


def test_a_count_of_every_heads_maps_is_named_as_such(graded):
    """b10_02: attention_scores counts the scores of all 12 heads of ViT-B, 12 * T * T: named
    since session 14 (counts.every_head); a factor no standard ViT's head count is stays an
    observation (count_scaled, tests/test_mistakes.py)."""
    fixture = SUBMISSIONS / "buggy" / "timm_scores_all_heads_conv_equivalent_pairs.py"
    told = {c.name: c for c in graded[fixture]["attention-cost"].checks if not c.passed}
    assert told["the lecture's sequences"].misconception == (
        "op:every_head:attention_scores:times-12-heads")
    assert "counted for all 12 heads of a ViT-B" in told["the lecture's sequences"].hint


def test_softmax_overflow_is_recognised_even_though_it_is_nan(graded):
    result = graded[SUBMISSIONS / "buggy" / "softmax_without_max.py"]["stable-softmax"]
    check = next(c for c in result.checks if c.name == "no overflow near 1000")
    assert check.misconception == "softmax_without_max"
    assert "nan at index" in check.message and "inf / inf is nan" in check.hint


# --- every generated hint replayed: the named rewrite reproduces the outputs ---------------------

def _student_module(snippet, folder, stand_ins=()):
    """The buggy submission, imported here (our own fixtures, never a student's), with the
    functions the check was graded around (its stand-ins) bound to the reference's."""
    import importlib.util

    path = build_submission(snippet, folder)
    spec = importlib.util.spec_from_file_location(f"replayed_{snippet.stem.replace('-', '_')}",
                                                  path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name in stand_ins:
        setattr(module, name, reference_function(name, None))
    return module


def _outcome(function, planned):
    """What `function` returns on the case, or the exception it raises; on writable copies of
    its inputs, as the worker gives them (the compiled pools are read-only, and a function may
    write into its input: `x += ...`)."""
    import copy

    try:
        return function(*copy.deepcopy(planned.args), **copy.deepcopy(planned.kwargs))
    except Exception as error:  # noqa: BLE001  (a raise is compared by its class)
        return error


def _innermost_line(error, module) -> str | None:
    """The code of the innermost line of `module`'s file that `error` came through."""
    import traceback

    lines = [frame.line for frame in traceback.extract_tb(error.__traceback__)
             if frame.filename == module.__file__]
    return lines[-1] if lines else None


@pytest.mark.parametrize("submission", BUGGY, ids=lambda p: p.stem)
def test_every_generated_hint_is_reproduced_by_its_rewrite_on_every_case(
        graded, catalogue, submission, tmp_path):
    """The claim of a generated hint ("op:..."), replayed: the rewritten reference returns, on
    every case of the check, what the student's function returns, within the check's
    comparison; and it is wrong where the check failed."""
    from grader.checks.cases import CasePlans
    from grader.checks.compare import agrees, default_compare, same_data
    from grader.reference.error_model.evidence import empty_alike
    from grader.reference.error_model.guards import Refused, refused_by_computation
    from grader.reference.error_model.trial import EXPLAINED, explained

    plans, replayed = CasePlans(), 0
    for exercise in (e for e in catalogue if e.id in graded[submission]):
        for result in graded[submission][exercise.id].checks:
            if result.passed or not generated(result.misconception):
                continue
            check = next(c for c in exercise.checks if c.name == result.name)
            module = _student_module(submission, tmp_path, result.stand_ins)
            reference = reference_function(check.reference_name, check.folder)
            rewritten = error_model.rewrite(reference, result.misconception, opaque(check))
            # a narrower float's rounding (float16 steps) is reproduced as the search says:
            # nearer the student's value than the reference on every case, by half on the mean
            shares = [] if error_model.rounds(reference, result.misconception,
                                              opaque(check)) else None
            for number, planned in enumerate(plans.cases(exercise, check), 1):
                expected, raises = planned.expectation()
                with np.errstate(all="ignore"):
                    got = _outcome(getattr(module, check.call), planned)
                    claimed = _outcome(rewritten, planned)
                if isinstance(got, Exception) or isinstance(claimed, Exception):
                    # a raise is reproduced by a raise of the same exception class; a guard's
                    # refusal (error_model/guards.py) by any raise: it says what is refused; an
                    # empty array where a refusal was due (no window fits) by numpy's refusal
                    # of the student's empty result, from a line that raises nothing by itself
                    assert type(got).__name__ == type(claimed).__name__ or (
                        isinstance(claimed, Refused) and isinstance(got, Exception)) or (
                        raises is not None and isinstance(claimed, np.ndarray)
                        and 0 in claimed.shape and refused_by_computation(
                            type(got).__name__, _innermost_line(got, module))), \
                        f"{exercise.id} / {check.name}, case {number}: {result.misconception}"
                    continue
                how = check.compare or default_compare(claimed)
                if shares is not None:
                    shares.append(explained(claimed, got, expected,
                                            lambda a, b, how=how: agrees(a, b, how)))
                    assert shares[-1] is not None, \
                        f"{exercise.id} / {check.name}, case {number}: {result.misconception}"
                else:  # or, as the search weighs them, no value for no value (evidence.py)
                    assert same_data(claimed, got) or agrees(claimed, got, how, equal_nan=True) \
                        or empty_alike(claimed, got, expected), \
                        f"{exercise.id} / {check.name}, case {number}: {result.misconception}"
                if number == result.cases:  # the failing case: the check would fail the rewrite
                    # (a value where a refusal is asked for fails it whatever the value)
                    assert raises is not None or not agrees(expected, claimed, how,
                                                            equal_nan=True)
            assert not shares or sum(shares) <= EXPLAINED * len(shares), result.misconception
            replayed += 1
    assert replayed or not any(generated(m) for m in fixture_metadata(submission).values())


@pytest.mark.parametrize("submission", [SUBMISSIONS / "buggy" /
                                        "multi_head_attention_timm_scale_head_dim.py"],
                         ids=lambda p: p.stem)
def test_a_mistake_named_on_one_check_is_named_on_the_others_it_reproduces(graded, submission):
    """Scores divided by d_h: with one head d == d_h, so the one-head check alone cannot tell
    d_h from d; the mistake another check of self_attention named reproduces it too, and is
    named there (mistakes.NAMED), in the same words."""
    checks = [c for c in graded[submission]["multi-head-attention"].checks if not c.passed]
    told = {c.name: c.misconception for c in checks}
    assert told["one head"] == "op:constant:self_attention/attention:scale=d_h", told
    assert len(set(told.values())) == 1


@pytest.mark.parametrize("submission", [
    SUBMISSIONS / "buggy" / "gpt_heads_tril_always_applied_relu_feed_forward.py"],
    ids=lambda p: p.stem)
def test_a_mask_always_applied_is_told_alike_on_both_exercises_of_self_attention(
        graded, submission):
    """GPT's mask applied whatever `causal` says (b39_09): no-causal-mask's check of
    causal=False and multi-head-attention's checks name one mistake, attention_causal, in the
    same words; before blind round 39 the first named it with the error model's sentence, which
    quotes the lecture's `... if causal else None`, and the second with the listed one."""
    failed = [c for exercise in ("no-causal-mask", "multi-head-attention")
              for c in graded[submission][exercise].checks
              if not c.passed and c.hint_kind == MISTAKE]
    assert failed and {(c.misconception, c.hint) for c in failed} == {
        ("attention_causal", next(c.hint for c in failed))}


@pytest.mark.parametrize("submission", [
    SUBMISSIONS / "buggy" / "d2l_assert_heads_residual_from_layer_norm.py"], ids=lambda p: p.stem)
def test_an_assert_where_valueerror_is_asked_for_is_named_as_such(graded, submission):
    """d2l's `assert num_hiddens % num_heads == 0`: the refusal is right, its exception is not;
    the failed check names that mistake (the worker saw the AssertionError), with the fix."""
    told = [c for c in graded[submission]["multi-head-attention"].checks if not c.passed
            and "AssertionError" in (c.hint or "")]
    assert told and all(c.hint_kind == MISTAKE and c.misconception == REFUSED_WITH_ASSERT
                        and "`raise ValueError(...)`" in c.hint for c in told)


def test_a_refusal_pattern_is_said_only_where_the_sizes_let_through_show_it(graded):
    """b29_05 tests the width only; its cases let (30, 32, 16) through, a height alone, and no
    width alone: "refuses only sizes neither of whose sides P tiles" was said, and is false (it
    refuses (4, 6, 4)). No refusal pattern is said without a let-through case for each claim;
    since session 16 the width-only test is named with the count by area (error_model/tiling.py),
    whose rewrite gives every case's value, the let-through 30 x 32's int(960 / 256) = 3 too."""
    fixture = SUBMISSIONS / "buggy" / "zero_to_mastery_tiling_width_only_torch_eps.py"
    failed = [c for c in graded[fixture]["patch-count"].checks if not c.passed]
    assert failed and not any((c.misconception or "").startswith("refuses_") for c in failed)
    assert {c.misconception for c in failed} == {
        "op:tiling:num_patches:width-only+op:count_by_area:num_patches:count-by-area"}


def test_another_exception_where_valueerror_is_asked_for_is_observed_not_named():
    """An IndexError a later step ran into is not the check itself: observed, with no name."""
    outcome = SimpleNamespace(status="raised", error=SimpleNamespace(type="IndexError"))
    hint, name = other_error(outcome, "ValueError")
    assert name is None and "raised IndexError where ValueError is asked for" in hint
    outcome.error.type = "AssertionError"
    assert other_error(outcome, "ValueError")[1] == REFUSED_WITH_ASSERT


def test_a_blog_posts_typeerror_check_is_named_on_the_fixture(graded):
    """The blog's `raise TypeError(...)` for a 4-D image: the errors check names it."""
    fixture = SUBMISSIONS / "buggy" / "numpy_blog_patchify_type_error_gray_patches_unflattened.py"
    failed = [c for c in graded[fixture]["patchify"].checks if not c.passed]
    assert REFUSED_WITH_OTHER_TYPE in {c.misconception for c in failed}


@pytest.mark.parametrize("last_line, named", [
    ('raise TypeError(f"image should be 2/3 dimensional, got {image.ndim}")', True),
    ("raise TypeError", True),
    ("raise TypeErrorish('x')", False),  # another name that starts alike
    ("patches = image.reshape(H // P, P, W // P, P, C)", False),  # a later step ran into it
    ("raise ValueError('x') from TypeError", False),  # the raised type is not what it raised
])
def test_the_students_own_raise_of_another_type_is_named(last_line, named):
    """A traceback (the student's frames only) that ends on the student's own `raise TypeError`
    shows the check refusing with another type: seen, so named; anything else stays observed."""
    traceback = f'  File "sub.py", line 7, in patchify\n    {last_line}\n'
    error = SimpleNamespace(type="TypeError", traceback=traceback)
    hint, name = other_error(SimpleNamespace(status="raised", error=error), "ValueError")
    assert (name == REFUSED_WITH_OTHER_TYPE) is named
    assert ("`raise TypeError(...)`" in hint) is named and "ValueError" in hint


@pytest.mark.parametrize("got, told", [
    (((16, 16), (16, 16)), "each of its 2 values is the expected 16; return the one number"),
    (((16, 16), 16), "each of its 2 values is the expected 16"),
    (((16, 8), 16), None),  # a pair of other numbers: only what differs
    ((15, 16), None),
])
def test_an_item_that_repeats_the_expected_number_says_so(got, told):
    """Keras' `kernel_size=(P, P), strides=(P, P)` returned where two integers are asked for:
    the values are right, their nesting is not, and the line says so (not a wrong stride)."""
    mismatch = compare((16, 16), got, Compare("equal"))
    assert mismatch is not None
    detail = mismatch.detail
    assert detail.startswith("item 0:")
    assert (told in detail) if told else ("values is the expected" not in detail)


def test_agrees_decides_as_compare_does_on_every_pair_of_special_values():
    """`agrees` (the search's, the stand-ins') takes a shorter way than `compare`; both decide
    alike, infinities and nan included: an expected inf is not matched by a finite value."""
    from grader.checks.compare import agrees

    values = [0.0, 1.0, -1.0, 1e-7, 1.000001, np.nan, np.inf, -np.inf, 1e308, -1e308]
    how = Compare("allclose", rtol=1e-5, atol=1e-6)
    for e in values:
        for g in values:
            for equal_nan in (False, True):
                expected, got = np.array([e, 1.0]), np.array([g, 1.0])
                with np.errstate(all="ignore"):
                    said = compare(expected, got, how, equal_nan) is None
                assert agrees(expected, got, how, equal_nan) == said, (e, g, equal_nan)
    assert compare(np.array([np.inf]), np.array([0.0]), how) is not None


@pytest.mark.parametrize("submission", [
    SUBMISSIONS / "buggy" / "einops_p1_h_patchify_float_patch_count.py"], ids=lambda p: p.stem)
def test_an_integration_failure_names_the_broken_functions_it_runs(graded, submission):
    """vit-checkpoint runs the student's own pipeline (never graded again around stand-ins):
    its failures say which of the functions it may run lose points in their own exercises —
    patchify here, not vit_forward, whose own checks pass once patchify is stood in for."""
    failed = [c for c in graded[submission]["vit-checkpoint"].checks if not c.passed]
    assert failed and all(c.hint_kind == OBSERVATION for c in failed)
    for check in failed:
        assert "Your `patchify` loses points in its own exercise" in check.hint
        assert "vit_forward" not in check.hint
    assert graded[submission]["vit-forward"].score == graded[submission]["vit-forward"].max_score


def test_a_check_against_a_broken_yardstick_is_graded_around_it(graded):
    """HF's ViTPatchEmbeddings ported without its transpose: linear_patch_embed returns (d, N),
    named on linear-patch-embed. kernel-stride's property compares the (correct) convolution
    with the student's linear_patch_embed; it tests the convolution, so since blind round 58
    (b58_14) it is graded again with the grader's linear_patch_embed standing in for the broken
    one and passes, saying so (until then it lost its points and only said which of the two
    loses points in its own exercise)."""
    fixture = SUBMISSIONS / "buggy" / "hf_patch_embeddings_flatten_without_transpose.py"
    check = next(c for c in graded[fixture]["kernel-stride"].checks
                 if c.name.startswith("kernel P, stride P"))
    assert check.passed and check.stand_ins == ("linear_patch_embed",)
    assert "your `linear_patch_embed` is wrong (see linear-patch-embed)" in check.message


def test_a_function_right_around_its_own_broken_helper_is_not_said_to_lose_points(
        catalogue, tmp_path):
    """Blind round 44's b44_13: `num_patches` floors (no ValueError) and `attention_scores`
    halves the count (a `causal=True` default). attention-cost's checks test `num_tokens` and
    `attention_scores` together; `num_tokens` gets full points in token-count, graded around
    the student's `num_patches`, so no failure may say it "loses points in its own exercise"
    (the round's one wrong hint): the student would look at the wrong function."""
    from grader.worker import StudentWorker

    path = tmp_path / "submission.py"
    path.write_text(SOLUTION.read_text() + (
        "\n\ndef num_patches(H, W, P):\n    return (H // P) * (W // P)\n"
        "\n\ndef attention_scores(num_tokens, causal=True):\n"
        "    return num_tokens * num_tokens // (2 if causal else 1)\n"))
    with StudentWorker(path) as worker:
        grading = SubmissionGrading(worker, catalogue=catalogue)
        results = {exercise.id: grading.exercise(exercise) for exercise in catalogue}
    assert results["token-count"].score == results["token-count"].max_score
    assert results["patch-count"].score < results["patch-count"].max_score
    failed = [c for c in results["attention-cost"].checks if not c.passed]
    assert failed
    for check in failed:
        assert "`num_tokens` loses" not in (check.hint or ""), check.hint


@pytest.mark.parametrize("submission", [
    SUBMISSIONS / "buggy" / "torch_einops_patch_embedding_channels_first_gray_refused.py"],
    ids=lambda p: p.stem)
def test_a_case_due_a_value_that_raised_still_shows_the_expected_value(graded, submission):
    """Round 53 (b53_02): a visible case due a value whose call raised showed `got:` and the
    traceback with no `expected:` line, so the student never saw the result due; it is shown
    as for a wrong value (shape and values), above what the code raised."""
    raised = [c for c in graded[submission]["patchify"].checks
              if not c.passed and not c.hidden and "got:      ValueError" in c.message]
    assert raised, graded[submission]["patchify"].checks
    for check in raised:
        lines = [line.strip() for line in check.message.splitlines()]
        got = next(i for i, line in enumerate(lines) if line.startswith("got:      ValueError"))
        assert lines[got - 1].startswith("expected: array ("), check.message
        assert "[[" in lines[got - 1], check.message  # its values too, as a small array's


@pytest.mark.parametrize("submission", [
    SUBMISSIONS / "buggy" / "equinox_scale_by_model_width_residual_from_layer_norm.py"],
    ids=lambda p: p.stem)
def test_a_stand_in_note_points_at_the_exercise_where_the_helper_loses_most(graded, submission):
    """Round 53 (b53_07): a self_attention scaled by sqrt(d) fails no-causal-mask (3 points)
    and multi-head-attention (6), named in both; the encoder-block note said "which is wrong:
    see no-causal-mask" (the first that failed), whose mask is right. It points at the exercise
    where the helper loses most on the visible checks (what the student bundle sees too: b63_15's
    note differed there when it weighed which mistakes were named)."""
    results = graded[submission]
    lost = {i: results[i].max_score - results[i].score
            for i in ("no-causal-mask", "multi-head-attention")}
    assert lost["multi-head-attention"] > lost["no-causal-mask"] > 0, lost
    notes = [c.message for c in results["encoder-block"].checks
             if not c.passed and "which is wrong: see" in c.message]
    assert notes and all("see multi-head-attention;" in note for note in notes), notes


def test_round_54s_write_and_count_examples_are_the_students(graded):
    """b54_10: vit-checkpoint says the write into `params['pos']` through `embed_image`, where
    cls-and-positions names it; b54_02: the count by area's example is a size the student's
    `num_patches` counted (8 x 2, P = 4), not one its area test refuses (6 x 6)."""
    buggy = SUBMISSIONS / "buggy"
    writes = graded[buggy / "swin_conv_equivalent_pairs_embed_image_writes_pos.py"]
    hints = {c.hint for c in writes["vit-checkpoint"].checks if not c.passed}
    assert hints and all("`vit_forward` changed `params['pos']` in place, through `embed_image` "
                         "(see cls-and-positions)" in h for h in hints), hints
    area = graded[buggy / "vtconfig_num_patches_by_area_softmax_global_max.py"]
    said = [c.hint for c in area["patch-count"].checks if not c.passed]
    assert said and all("(an 8 x 2 image with P = 4 counts 1 by area, 0 by rows and columns)"
                        in h and "6x6" not in h for h in said), said


@pytest.mark.parametrize("last_line, named", [
    ('raise AssertionError(f"{d} is not divisible by {heads}")', REFUSED_WITH_OTHER_TYPE),
    ("raise AssertionError", REFUSED_WITH_OTHER_TYPE),
    ("assert d % heads == 0", REFUSED_WITH_ASSERT),
    ("assert d % heads == 0, 'raise AssertionError'", REFUSED_WITH_ASSERT),
])
def test_an_explicit_raise_of_assertion_error_is_not_called_an_assert(last_line, named):
    """`raise AssertionError(...)` was told "refused the input with `assert` ... python -O skips
    it": false of a raise statement, which -O keeps. Said as the student's own raise of another
    type; an `assert` statement stays an assert."""
    traceback = f'  File "sub.py", line 7, in self_attention\n    {last_line}\n'
    error = SimpleNamespace(type="AssertionError", traceback=traceback)
    hint, name = other_error(SimpleNamespace(status="raised", error=error), "ValueError")
    assert name == named, hint
    assert ("python -O skips it" in hint) is (named == REFUSED_WITH_ASSERT)
    assert "code above" not in hint
