"""A function check's mistakes search (kinds/call.py): what a failed case's mistakes are, when
no single known-wrong variant matched: several variants of the function at once, or the
generalisation its code misses (docs/spec.md).

`named(check, planned, matches)` names the one variant that matches, else the first of the
check's combinations ("a+b", "a+b+c": reference/misconceptions.py) that does. Their outputs
are compiled with the case's; without compiled data the reference computes them, after a case
failed only. `explained(result, check, passed, planned)` (generalisations.py) names the one
generalisation (GENERALISATIONS) the failing case alone breaks: "your `patchify` is right when
H == W, wrong for a 6 x 9 image", instead of the check's general hint, which may name another
mistake.
`generated(result, check, ran, failing)`, before that, names a mistake the error model
generates from the reference (grader/reference/error_model) when a rewrite reproduces the
student's values on every call the check ran; each hint says its kind (results.HINT_LABELS).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import replace

import numpy as np

from grader.spec.model import Check
from grader.worker.values import Encoder, NotData, TooLarge

from ..cases import PlannedCase
from ..compare import agrees, alike, default_compare, float_of_count
from ..course import reference_function
from ..results import FAILED, MISTAKE
from .generalisations import case_arguments, is_square, reference_parameters
from .memory import MEMORY
from .square_claims import square_unclaimed

JOIN = "+"  # as reference/misconceptions.py joins a combination's names


def combination_names(check: Check, planned: PlannedCase | None) -> list[str]:
    """The combinations this check tries: those compiled for the case, else the reference's."""
    if planned is not None and planned.from_compiled:
        return [name for name in planned.wrong_names() if JOIN in name]
    try:
        from grader.reference.misconceptions import combinations
    except ImportError:  # no reference (the bundle): only what was compiled
        return []
    return combinations([known.like for known in check.misconceptions])


def named(check: Check, planned: PlannedCase, matches) -> tuple[str | None, str | None]:
    """(hint, name) of the one misconception whose output `matches(wrong)` accepts, else of the
    one combination of the fewest mistakes that does (its hint names every mistake), else (None,
    None). A case two misconceptions (or two combinations of as many) match cannot tell them
    apart: it names neither, rather than maybe the wrong one.
    """
    found = {known.like: known.hint for known in check.misconceptions
             if _matches(planned.wrong_output(known.like), matches)}
    if found:
        return next(iter(found.items()))[::-1] if len(found) == 1 else (None, None)
    combined = [like for like in combination_names(check, planned)
                if _matches(planned.wrong_output(like), matches)]
    fewest = [like for like in combined  # a third mistake this case cannot see adds nothing
              if like.count(JOIN) == min(c.count(JOIN) for c in combined)]
    if len(fewest) == 1:  # two that match (a mean of one patch is its last row) name neither
        return combined_hint(check, fewest[0]), fewest[0]
    return None, None


def _matches(output: tuple[bool, object], matches) -> bool:
    applies, wrong = output
    return applies and matches(wrong)


ELSEWHERE = 8  # the function's other failed cases a listed mistake is weighed on, at most
THIN = 3  # values a check ran below which a generated mistake is weighed on them too


def output_matches(wrong, got, how, expected=None) -> bool:
    """Whether a known-wrong output is the student's value under the comparison `how` (a count
    exactly; nan where the student's is nan: a softmax without its max). A count the student
    computed in floats is the mistake's integer where it equals it (b64_12's 2.0 for the floor
    count 2; float_too says the float), unless that integer is the `expected` count, given
    where the match names the mistake: a right value in floats shows no such mistake, though
    it is one the mistake, computed in floats, returns."""
    if how.mode == "count" and isinstance(wrong, float):
        return isinstance(got, (float, np.floating)) and float(got) == wrong
    if how.mode == "count" and float_of_count(wrong, got):
        return not float_of_count(expected, got)
    return agrees(wrong, got, how, equal_nan=True)


FLOAT_TOO = " Your count is also a float (a number ending in .0): a count is an integer."


def float_too(hint: str | None, wrong, got) -> str | None:
    """`hint`, of the mistake whose integer output `wrong` the student's `got` equals in floats,
    with the float said too (output_matches took one for the other)."""
    if hint and float_of_count(wrong, got):
        return hint + FLOAT_TOO
    return hint


def unexplained_elsewhere(check: Check, planned: PlannedCase, name: str, wrong: list) -> bool:
    """Whether the listed mistake `name` (named on `planned`) explains none of the values the
    same code got wrong on the function's other checks: on one of `wrong` ((planned case,
    outcome) pairs; those that returned a value where one was expected are weighed, and, for
    a mistake named on a value returned where a refusal was due, those that returned a value
    where one was refused too: b77_10's blocks larger than P x P, a crop to P's multiple on one
    hidden image only), it and
    every combination that includes it, where they apply, differ from the value
    (`output_matches`). Then it only looked like the cause on
    `planned` (adding `pos[0]` to every token is "no positions" where that row is zero). A
    combination counts: a second mistake may show only there; so does a case it cannot be
    computed on (the bundle)."""
    parts = set(name.split(JOIN))
    ours = combination_names(check, planned)
    refusing = planned.expectation()[1] is not None  # named on a value where a refusal was due
    wrong = [(p, o.value) for p, o in wrong if o.status == "ok" and (
        p.expectation()[1] is None and not blew_up(p.expectation()[0], o.value)
        or refusing and p.expectation()[1] is not None)]  # then the other such values too
    for other, value in wrong[:ELSEWHERE]:  # its own check's combinations count too
        expected = other.expectation()[0]
        names = [name, *(c for c in dict.fromkeys([*ours, *other.wrong_names()])
                         if c != name and parts <= set(c.split(JOIN)))]
        outputs = [other.wrong_output(like) for like in names]
        if any(applies for applies, _ in outputs) and not any(
                applies and output_matches(output, value, check.compare or default_compare(
                    output if expected is None else expected)) for applies, output in outputs):
            return True
    return False


def blew_up(expected, value) -> bool:
    """Whether `value` is nan or inf where the finite `expected` is not: a numerical failure
    (an overflow, 0 / 0 where every kept weight underflowed) that a listed mistake of the values
    is not weighed against (b67_03's softmax times a 0/1 mask, renormalised, on scores near
    1e4: the heads' bare reshape is no less the cause of its causal check's values)."""
    try:
        expected, value = np.asarray(expected, dtype=float), np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return False
    return (expected.shape == value.shape and bool(np.isfinite(expected).all())
            and not bool(np.isfinite(value).all()))


def bettered(result, check: Check, ran: list, failing: int, others: list = (),
             wrong: list = ()):
    """`result` naming, instead of the listed mistake it names, the one mistake the error model
    reproduces on every call `ran` and on those of `wrong` (the function's other failed cases)
    the listed one does not reproduce by a raise where it returns a value; one rewrite, never a
    pair (its other part may not touch this check's calls). A
    scale of sqrt(d_h // 3) is 1, "no scale", where d_h is 3 to 5, the visible causal check's
    every call; the hidden ones raise ZeroDivisionError where d_h < 3, and that formula of the
    sizes reproduces both. Else `result` as it is (its hint says what its values show)."""
    name = result.misconception
    if result.status != FAILED or not name or name.startswith("op:") or check.integration:
        return result
    unmade = [(p, o) for p, o in wrong if p.expectation()[1] is None and o.status == "raised"
              and _unmade(check, p, o, name)][:ELSEWHERE]
    if not unmade:  # other values: a second mistake there is as likely (attention_two_bugs)
        return result
    found = generated(replace(result, misconception=None), check, [*ran, *unmade], failing,
                      others)
    if found.misconception is None or JOIN in found.misconception:  # a pair's other part may
        return result  # play no part in this check's calls (a mask where none is asked for)
    return found


def _unmade(check: Check, planned: PlannedCase, outcome, name: str) -> bool:
    """Whether the listed mistake `name` does not give the student's outcome on `planned`."""
    applies, wrong = planned.wrong_output(name)
    if not applies or outcome.status not in ("ok", "raised"):
        return False
    return outcome.status == "raised" or not output_matches(
        wrong, outcome.value, check.compare or default_compare(planned.expectation()[0]))


def widened(check: Check, result, ran: list):
    """`result` naming, instead of the listed mistake it names, the one combination of the
    fewest mistakes of the check's own that includes it and gives the student's value on every
    call of `ran` ((planned case, outcome) pairs: the check's request, the failing call among
    them) where the listed one alone does not; None where it alone does, where none or several
    do, or where a call raised or was due to (b67_03's heads' bare reshape on a causal check
    whose causal=False call shows the mask applied whatever `causal` says too: both, where
    every call shows them, not "the check's hint" because one call was not the bare reshape's)."""
    name = result.misconception
    if (result.status != FAILED or not name or name.startswith("op:")
            or any(p.expectation()[1] is not None or o.status != "ok" for p, o in ran)):
        return None

    def shown(like: str) -> bool:
        return all(_matches(p.wrong_output(like), lambda wrong, o=o, p=p: output_matches(
            wrong, o.value, check.compare or default_compare(p.expectation()[0]),
            p.expectation()[0])) for p, o in ran)

    if shown(name):
        return None
    parts = set(name.split(JOIN))
    found = [like for like in combination_names(check, ran[0][0])
             if parts < set(like.split(JOIN)) and shown(like)]
    fewest = [like for like in found if like.count(JOIN) == min(f.count(JOIN) for f in found)]
    if len(fewest) != 1:
        return None
    return replace(result, misconception=fewest[0], hint=combined_hint(check, fewest[0]))


def combined_hint(check: Check, like: str) -> str:
    """'2 mistakes at once: (1) <the first's hint> (2) <the second's>'."""
    hints = {known.like: known.hint for known in check.misconceptions}
    parts = like.split(JOIN)
    return f"{len(parts)} mistakes at once: " + " ".join(
        f"({i}) {hints.get(part, part)}" for i, part in enumerate(parts, 1))


def square_claim_held(result, check: Check, failing: list[PlannedCase]):
    """`result` whose named mistake says the code is right on square images ("(right only when
    H == W)": square_claims.py) without that claim, where one of `failing` (the function's
    failed cases on every check, refusals among them) is square: a crop with no tiling test
    returns a 5 x 5 image's patches where ValueError is due, so "right only when H == W" would
    over-claim there. The mistake itself stays named."""
    if result.hint_kind != MISTAKE or not result.hint:
        return result
    params, defaults = reference_parameters(check)
    if not any(is_square(case_arguments(params, defaults, p)) is True for p in failing):
        return result
    hint = square_unclaimed(result.hint)
    return result if hint == result.hint else replace(result, hint=hint)


def opaque(check: Check) -> frozenset:
    """The student-API helpers the error model leaves whole in `check`'s function: those built
    on others (`built_on`), whose own checks name their mistakes and around which fair grading
    grades their callers (dependencies.py). The small ones (softmax, layer_norm, ...) are
    rewritten inside their callers too: a caller often writes them inline."""
    built_on = check.api.built_on
    return frozenset(name for name, helpers in built_on.items()
                     if helpers and name != check.reference_name)


def generated(result, check: Check, ran: list, failing: int, others: list = (),
              wrong: list = ()):
    """`result` with the mistake the error model generates from the reference
    (reference/error_model) as hint and misconception ("op:axis:softmax:sum.axis=0"), when no
    listed misconception matched and one rewrite of the reference reproduces the student's value
    on every call `ran` ((planned case, outcome) pairs; `failing`: the failed one's index), a
    call that raised by raising an exception of the same name (a sum over axis 1 of a 1-D
    array). `others`: the cases the function's other checks ran on the same code (the
    student's own, helpers included) and got right, where the rewrite must be right too (`C`
    left out of P*P*C is no cause where the code was right whenever C was given). `wrong`: the
    cases the same code got wrong on the function's other checks, where a mistake named here
    must reproduce the value too, alone or with a second mistake; else a search with them added
    names what does (`pos` left out only looked like the cause on a worked example where the
    code adds `pos[0]` to every token and that row is zero: the search finds `pos[0]`); when
    that search names nothing, a check of fewer than THIN values names nothing, and one of more
    keeps its own (the other checks' failures often hold a second mistake no operator makes).
    So is a slip these cases could not place (`either`): where the other checks' values name
    another mistake, a place it lists may not be the code's (b76_11's whole-array max beside a
    sum without keepdims: a 2-D case raised at the sum as the max without keepdims would).
    Nothing new
    without a reference (the bundle), or when a call timed out or crashed, or should have raised
    where the failed case did not return a value (a code with no head-count check returns one:
    a rewrite that returns it, and raises where the code raised, names that)."""
    if result.status != FAILED or result.misconception or check.integration:
        return result  # an integration check's failure is its helpers' more often than not
    try:
        from grader.reference.error_model import Call, Raised, confirms, search
        function = reference_function(check.reference_name, check.folder)
    except (ImportError, KeyError):
        return result
    calls = []
    refusing = (ran[failing][0].expectation()[1] is not None  # a value where a refusal was
                and ran[failing][1].status == "ok")  # due: a rewrite that returns that very
    # value, and raises where the code raised (its type; its message too, preferred), names why
    for number, (planned, outcome) in enumerate([*ran, *others]):
        expected, raises = planned.expectation()
        if outcome.status not in ("ok", "raised") or (raises is not None and not (
                refusing and number < len(ran))):
            if number < len(ran):
                return result
            continue  # another check's case that raised as it should: no value to reproduce
        got = (outcome.value if outcome.status == "ok"
               else Raised(outcome.error.type, outcome.error.message))
        calls.append(Call(planned.args, planned.kwargs, got, expected))
    how, hidden = check.compare, opaque(check)

    def same(value, target) -> bool:  # a rewrite's value in the reference's place
        return alike(value, target, how or default_compare(value))

    memory = MEMORY.get()  # this submission's: what another check of the function named
    named_here = [] if memory is None else memory.named.setdefault((function, hidden), [])
    try:  # the error model explains a failure, it never scores one: its own failure (round
        # 59: a pair's rewrite that raised StopIteration) names no mistake, the check keeps
        # its score and its other hints, and the failure is kept for the developers (FAILURES)
        found = next((f for f in _parts_first(named_here, function, hidden)
                      if confirms(function, f, calls, failing, same, hidden)),
                     None) or _searched(search, function, calls, failing, same, how, hidden,
                                        _named_parts(named_here))
        if found is not None and found.unseparated:  # a size read: its formula, where the
            found = _formula_elsewhere(found, function, calls, failing, same, how, hidden, wrong)
        thin = found is not None and sum(1 for p, _ in ran if p.expectation()[1] is None) < THIN
        if found is not None and (thin or found.chosen or found.either):  # else a failure
            # elsewhere is another mistake, not a refutation: no search for it. A slip the
            # cases could not place is weighed there too: a place it lists may be no place of
            # the code (b76_11: a whole-array max, where the max's keepdims raised alike)
            found = _held_elsewhere(found, function, calls, failing, same, how, hidden, wrong,
                                    keep=not thin)
    except Exception as error:  # noqa: BLE001 - any bug of the search: "no mistake named"
        if len(FAILURES) < FAILURES_KEPT:
            FAILURES.append(f"{check.reference_name}: {type(error).__name__}: {error}")
        return result
    if found is None:
        return result
    if found not in named_here:
        named_here.append(found)
    return replace(result, hint=found.sentence, misconception=found.name, hint_kind=MISTAKE)


# The search's verdict depends only on the reference function, the calls (inputs, the student's
# values, the expected ones), which one failed, the comparison and the helpers left whole: the
# students of a class who make one mistake return the same values, so it runs once for them all
SEARCHES_KEPT = 4096  # verdicts kept per process (a key and a name each)
SEARCHED: dict[tuple, object] = {}
# the error model's own failures (`generated`: each named no mistake), for the developers: the
# tests that grade submissions assert none; a student is never told of them
FAILURES_KEPT = 100
FAILURES: list[str] = []


def _parts_first(named_here: list, function, hidden: frozenset) -> list:
    """The mistakes named before, each of several ("a+b") preceded by its parts alone: a check
    where one of them does not show is told only the one that does. Not the places of one slip
    the cases could not place (`either`): one of them alone is no more known here. Such a slip
    comes last: where another check placed it (b48_05's variance without keepdims, told by the
    eps check after the worked examples could not tell it from the mean), that place is tried
    first, and said alone wherever it reproduces the values too."""
    from grader.reference.error_model import QUIET, Found, sentence
    out, unplaced = [], []
    for found in named_here:
        parts = [part for part in found.name.split(JOIN) if not part.startswith(QUIET)]
        if len(parts) > 1 and not found.either:
            out += [Found(part, sentence(function, part, hidden)) for part in parts]
        (unplaced if found.either else out).append(found)
    return out + unplaced


def _held_elsewhere(found, function, calls, failing, same, how, hidden, wrong, keep=False):
    """`found` when it reproduces the values of `wrong` ((planned case, outcome) pairs: the
    function's other checks' failed cases that returned a value) too, else what a search over
    the calls with them added names (a pair that includes it; or another mistake, which these
    cases alone could not tell from it: 1/sqrt(64) and `d_h ** -1/2` where d_h is 4), else None,
    or `found` when `keep` (a check of enough values of its own, whose function's other
    failures may hold a second mistake no operator makes)."""
    from grader.reference.error_model import confirms, search

    extra = _failed_elsewhere(wrong)
    if not extra or confirms(function, found, [*calls, *extra], failing, same, hidden):
        return found
    wider = _searched(search, function, [*calls, *extra], failing, same, how, hidden)
    if wider is not None and (wider.sentence == found.sentence or set(found.name.split(JOIN))
                              <= set(wider.name.split(JOIN))):
        return found  # the same words, or it and a mistake that shows on other checks only
    return found if wider is None and keep else wider


def _failed_elsewhere(wrong: list) -> list:
    """The calls of `wrong` ((planned case, outcome) pairs) that returned a wrong value."""
    from grader.reference.error_model import Call

    return [Call(p.args, p.kwargs, o.value, p.expectation()[0]) for p, o in wrong
            if o.status == "ok" and p.expectation()[1] is None][:ELSEWHERE]


def _formula_elsewhere(found, function, calls, failing, same, how, hidden, wrong):
    """`found`, a size read at another axis inside a scale (`q.shape[-2]`) where a formula of
    that size (sqrt(T)) reproduced the calls too but they show one size (Found.unseparated):
    the formula where a search with the function's other failed calls added names it alone
    (blind round 82's b82_01: the visible causal check's lengths are all 5, the others' vary),
    else `found` as it is."""
    from grader.reference.error_model import search

    extra = _failed_elsewhere(wrong)
    wider = extra and _searched(search, function, [*calls, *extra], failing, same, how, hidden)
    if wider and JOIN not in wider.name and not (wider.either or wider.chosen
                                                 or wider.unseparated):
        return wider
    return found


def _named_parts(named_here: list) -> frozenset:
    """The parts of the mistakes other checks of the function named: where a search finds
    several rewrites, the one that makes one of them is named (error_model/slips.known)."""
    from grader.reference.error_model import QUIET
    return frozenset(part.removeprefix(QUIET) for found in named_here
                     for part in found.name.split(JOIN))


def _searched(search, function, calls, failing: int, same, how, hidden: frozenset,
              prefer: frozenset = frozenset()):
    """The error model's search, once per process for the same calls and values (SEARCHED)."""
    key = search_key(function, calls, failing, how, hidden)
    key = key and (*key, prefer)
    if key is not None and key in SEARCHED:
        return SEARCHED[key]
    found = search(function, calls, failing, same, opaque=hidden, prefer=prefer)
    if key is not None and len(SEARCHED) < SEARCHES_KEPT:
        SEARCHED[key] = found
    return found


def search_key(function, calls, failing: int, how, opaque_names: frozenset) -> tuple | None:
    """What decides a search's verdict, hashed as the channel encodes it (types, shapes, exact
    bytes); None when a value is not plain data (an object array, a raise): then it is searched
    every time."""
    encoder = Encoder()
    try:
        tree = [encoder.encode([c.args, c.kwargs, c.got, c.expected]) for c in calls]
    except (NotData, TooLarge):
        return None
    digest = hashlib.blake2b(json.dumps(tree, separators=(",", ":")).encode(), digest_size=20)
    for blob in encoder.blobs:
        digest.update(blob)
    return function, repr(how), opaque_names, failing, digest.hexdigest()
