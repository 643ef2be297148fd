"""A function check's mistakes search (kinds/call.py): what a failed case's mistakes are, when
no single known-wrong variant matched: several variants of the function at once, or the
generalisation its code misses (docs/spec.md).

`named(check, planned, matches)` names the one variant that matches, else the first of the
check's combinations ("a+b", "a+b+c": reference/misconceptions.py) that does. Their outputs
are compiled with the case's; without compiled data the reference computes them, after a case
failed only. `explained(result, check, passed, planned)` names the one generalisation
(GENERALISATIONS) the failing case alone breaks: "your `patchify` is right when H == W, wrong
for a 6 x 9 image", instead of the check's general hint, which may name another mistake.
`generated(result, check, ran, failing)`, before that, names a mistake the error model
generates from the reference (grader/reference/error_model) when a rewrite reproduces the
student's values on every call the check ran; each hint says its kind (results.HINT_LABELS).
"""
from __future__ import annotations

import hashlib
import inspect
import json
from dataclasses import replace

import numpy as np

from grader.spec.model import Check
from grader.worker.values import Encoder, NotData, TooLarge

from ..cases import PlannedCase
from ..compare import agrees, alike, default_compare
from ..course import reference_function
from ..results import FAILED, MISTAKE, OBSERVATION
from .axes_off import ONE_AXIS_OFF
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


def output_matches(wrong, got, how) -> bool:
    """Whether a known-wrong output is the student's value under the comparison `how` (a count
    exactly; nan where the student's is nan: a softmax without its max)."""
    if how.mode == "count" and isinstance(wrong, float):
        return isinstance(got, (float, np.floating)) and float(got) == wrong
    return agrees(wrong, got, how, equal_nan=True)


def unexplained_elsewhere(check: Check, planned: PlannedCase, name: str, wrong: list) -> bool:
    """Whether the listed mistake `name` (named on `planned`) explains none of the values the
    same code got wrong on the function's other checks: on one of `wrong` ((planned case,
    outcome) pairs; those that returned a value where one was expected are weighed), it and
    every combination that includes it, where they apply, differ from the value
    (`output_matches`). Then it only looked like the cause on
    `planned` (adding `pos[0]` to every token is "no positions" where that row is zero). A
    combination counts: a second mistake may show only there; so does a case it cannot be
    computed on (the bundle)."""
    parts = set(name.split(JOIN))
    ours = combination_names(check, planned)
    wrong = [(p, o.value) for p, o in wrong if o.status == "ok" and p.expectation()[1] is None]
    for other, value in wrong[:ELSEWHERE]:  # its own check's combinations count too
        how = check.compare or default_compare(other.expectation()[0])
        names = [name, *(c for c in dict.fromkeys([*ours, *other.wrong_names()])
                         if c != name and parts <= set(c.split(JOIN)))]
        outputs = [other.wrong_output(like) for like in names]
        if any(applies for applies, _ in outputs) and not any(
                applies and output_matches(output, value, how) for applies, output in outputs):
            return True
    return False


def combined_hint(check: Check, like: str) -> str:
    """'2 mistakes at once: (1) <the first's hint> (2) <the second's>'."""
    hints = {known.like: known.hint for known in check.misconceptions}
    parts = like.split(JOIN)
    return f"{len(parts)} mistakes at once: " + " ".join(
        f"({i}) {hints.get(part, part)}" for i, part in enumerate(parts, 1))


def explained(result, check: Check, passed: list[PlannedCase], planned: PlannedCase,
              failing: list[PlannedCase] = (), failures: list = ()):
    """`result` (a failed case's CheckResult) with the generalisation its code misses as hint
    and misconception ("only_square_images"), when no misconception matched and the case should
    have returned a value. `passed`: the cases that ran and passed, before or after `planned`
    (a request runs several); `failing`: the others that failed, a refusal's among them (a
    square image returned where ValueError is due belies "right when H == W"); `failures`:
    (planned case, outcome) of the function's failing cases on every check, this one's among
    them, which say how it fails where the generalisation does not hold (`generalisation`).
    The exception said is kept as the result's `raised` (raised_seen.py reads it)."""
    if (result.status != FAILED or result.misconception or not passed
            or planned.expectation()[1] is not None):
        return result
    found = generalisation(check, passed, planned, failing, failures)
    if found is None:
        return result
    name, hint = found
    holds = GENERALISATIONS.get(name.removeprefix(RAISES), (None,))[0]
    raised = None if holds is None else _raised(check, holds, failures)
    return replace(result, hint=hint, misconception=name, hint_kind=OBSERVATION,
                   raised=raised if raised and " or " not in raised else None)


def square_claim_held(result, check: Check, failing: list[PlannedCase]):
    """`result` whose named mistake says the code is right on square images ("(right only when
    H == W)": square_claims.py) without that claim, where one of `failing` (the function's
    failed cases on every check, refusals among them) is square: a crop with no tiling test
    returns a 5 x 5 image's patches where ValueError is due, so "right only when H == W" would
    over-claim there. The mistake itself stays named."""
    if result.hint_kind != MISTAKE or not result.hint:
        return result
    params, defaults = reference_parameters(check)
    if not any(_square(case_arguments(params, defaults, p)) is True for p in failing):
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
    found = next((f for f in _parts_first(named_here, function, hidden)
                  if confirms(function, f, calls, failing, same, hidden)),
                 None) or _searched(search, function, calls, failing, same, how, hidden,
                                    _named_parts(named_here))
    thin = found is not None and sum(1 for p, _ in ran if p.expectation()[1] is None) < THIN
    if found is not None and (thin or found.chosen):  # else a failure elsewhere is another
        found = _held_elsewhere(found, function, calls, failing, same, how, hidden, wrong,
                                keep=not thin)  # mistake, not a refutation: no search for it
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
    from grader.reference.error_model import Call, confirms, search

    extra = [Call(p.args, p.kwargs, o.value, p.expectation()[0]) for p, o in wrong
             if o.status == "ok" and p.expectation()[1] is None][:ELSEWHERE]
    if not extra or confirms(function, found, [*calls, *extra], failing, same, hidden):
        return found
    wider = _searched(search, function, [*calls, *extra], failing, same, how, hidden)
    if wider is not None and (wider.sentence == found.sentence or set(found.name.split(JOIN))
                              <= set(wider.name.split(JOIN))):
        return found  # the same words, or it and a mistake that shows on other checks only
    return found if wider is None and keep else wider


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


def generalisation(check: Check, passed: list[PlannedCase], failed: PlannedCase,
                   failing: list[PlannedCase] = (), failures: list = ()
                   ) -> tuple[str, str] | None:
    """(name, hint) of the one of GENERALISATIONS that holds on every passed case and not on
    `failed`, nor on any other case in `failing` (a failure where it holds would belie it);
    when several do, all of them at once (SEVERAL: naming one of two differences may mislead);
    None when none does. `failures`: (planned case, outcome) of the function's failing cases,
    `failed`'s among them: how they fail on inputs of `failed`'s kind (where the generalisation
    does not hold; a failure of another kind, a 4-D array's refusal, says nothing of them) is
    said after "right ...": "raises X" where each of them raised X (a square-only guard),
    "wrong" where one of them should have returned a value and returned a wrong one, else
    "fails". Where a failure of the kind it holds on belies it, the true half alone, when each
    failure of `failed`'s kind raised (RAISES + its name): "Your `embed_image` raises
    ValueError for a 2-D (H, W) image", of code that also embeds a 3-D image P does not tile."""
    params, defaults = reference_parameters(check)
    named = [case_arguments(params, defaults, p) for p in passed]
    here = case_arguments(params, defaults, failed)
    others = [case_arguments(params, defaults, p) for p in failing]
    seen = [(name, holds, words) for name, (holds, _, _, words) in GENERALISATIONS.items()
            if all(holds(a) in (True, ONE_COLUMN_EACH, ASIDE) for a in named)
            and any(holds(a) is True for a in named) and holds(here) in (False, ONE_COLUMN_EACH)]
    if not {1, 3} <= {_channels_of(a) for a in named}:  # "gray and RGB": right on both seen
        seen = [(name, holds, words) for name, holds, words in seen if name != "only_gray_or_rgb"]
    found, halves = [], []
    for name, holds, words in seen:
        said, raised = words(here, check.hidden), _raised(check, holds, failures)
        if not any(holds(a) is True for a in others):
            how = (f", and raises {raised} " if raised else ", wrong "
                   if _returned(check, holds, failures) or not failures else ", and fails ")
            found.append((name, f"Your `{check.function}` is right "
                          + said.replace(", wrong ", how, 1)))
        elif raised and ", wrong " in said:  # belied: "right ..." is false, "raises" true
            halves.append((RAISES + name, f"Your `{check.function}` raises {raised} "
                           + said.split(", wrong ", 1)[1]))
    if not found:
        return halves[0] if len(halves) == 1 else None
    if len(found) < 2:
        return found[0]
    names = [name for name, _ in found]  # each holds on every pass: say them all, as one
    conditions = " and ".join(GENERALISATIONS[n][2][0] for n in names)
    aspects = [GENERALISATIONS[n][2][1] for n in names]
    aspects = ", ".join(aspects[:-1]) + f" or {aspects[-1]}"
    return SEVERAL, (f"Your `{check.function}` is right on every case that ran {conditions}, "
                     f"and wrong on this one, which is neither: look for a step that depends "
                     f"on {aspects}")


def _unlike(check: Check, holds, failures: list) -> list:
    """The outcomes of `failures` ((planned case, outcome) pairs) on inputs where `holds` is
    False: the failing cases of the kind a generalisation is not right for."""
    params, defaults = reference_parameters(check)
    return [o for p, o in failures if holds(case_arguments(params, defaults, p)) is False]


def _raised(check: Check, holds, failures: list) -> str | None:
    """The exception (or "X or Y": each one of them) every failing case of `failures` where
    `holds` is False raised; None where one did not raise, or none ran."""
    unlike = _unlike(check, holds, failures)
    if not unlike or any(o.status != "raised" for o in unlike):
        return None
    return " or ".join(sorted({o.error.type for o in unlike}))


def _returned(check: Check, holds, failures: list) -> bool:
    """Whether one of `failures` where `holds` is False returned a value where one was due."""
    params, defaults = reference_parameters(check)
    return any(o.status == "ok" and p.expectation()[1] is None for p, o in failures
               if holds(case_arguments(params, defaults, p)) is False)


def reference_parameters(check: Check) -> tuple[tuple[str, ...], dict]:
    """The reference function's parameters, and its defaults by name (`C=3`: a call that leaves
    one out uses it; one passed by position is read by its name); the API's own without it."""
    try:
        signature = inspect.signature(reference_function(check.reference_name, check.folder))
    except (AttributeError, ImportError, KeyError, TypeError, ValueError):
        return check.api.params(check.reference_name), {}
    return tuple(signature.parameters), {
        n: p.default for n, p in signature.parameters.items() if p.default is not p.empty}


def case_arguments(params: tuple[str, ...], defaults: dict, planned: PlannedCase) -> dict:
    """A case's arguments by name: those passed by position named by `params`, the reference's
    parameters, and `defaults` for those it leaves out (`C=3`), as `reference_parameters(check)`
    gives both."""
    return {**defaults, **dict(zip(params, planned.args, strict=False)), **planned.kwargs}


def _image_shape(arguments) -> tuple | None:
    shape = np.shape(arguments.get("image")) if "image" in arguments else ()
    return shape if len(shape) in (2, 3) else None


def _image_test(test):  # a test of the image's shape -> one of the arguments (None: no image)
    def holds(arguments):
        shape = _image_shape(arguments)
        return None if shape is None else test(shape)
    return holds


def _sizes(arguments) -> tuple | None:
    """(H, W): the image's first two axes, or a counting function's sizes H and W."""
    shape = _image_shape(arguments)
    if shape is not None:
        return shape[:2]
    H, W = arguments.get("H"), arguments.get("W")
    integers = all(isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in (H, W))
    return (int(H), int(W)) if integers else None


def _square(arguments):
    sizes = _sizes(arguments)
    return None if sizes is None else sizes[0] == sizes[1]


_one_channel = _image_test(lambda shape: len(shape) == 2 or shape[2] == 1)


def _channels_of(arguments):
    """The case's channels: its image's (a 2-D image has one), else its count's `C`."""
    shape = _image_shape(arguments)
    return arguments.get("C") if shape is None else 1 if len(shape) == 2 else shape[2]


def _gray_or_rgb(arguments):
    """True for one or three channels, False for another number; None without one."""
    C = _channels_of(arguments)
    integer = isinstance(C, (int, np.integer)) and not isinstance(C, bool)
    return int(C) in (1, 3) if integer and C > 0 else None


_channels_axis = _image_test(lambda shape: len(shape) == 3)


def _one_head(arguments):
    """True for one head, False for several; ONE_COLUMN_EACH for several heads of one column
    each (d_h = 1: a head split in another order, or a per-head slice at h for h * d_h, is right
    there too, so a pass there tells nothing of the heads; a failure there is one with several)."""
    heads = arguments.get("heads")
    if not isinstance(heads, (int, np.integer)):
        return None
    width = np.shape(arguments.get("x", ()))[-1:] or (0,)
    return ONE_COLUMN_EACH if heads > 1 and width[0] == heads else int(heads) == 1


ONE_COLUMN_EACH = "one column each"  # a case a generalisation neither rests on nor is belied by
ASIDE = "aside"  # ... nor is said of when it fails: a passed one is no evidence, a failed one no
# instance (a single token (d,) for "wrong with leading axes")


def _no_batch_axis(arguments):
    """True for an `x` of two axes (T, d), False with leading (batch) axes, ASIDE for one of a
    single axis, which says nothing of them (a code that flattens to (-1, d) and never restores
    the shape is right for (T, d) only); None without one (attention's x has heads beside it:
    its own generalisation)."""
    if "x" not in arguments or "heads" in arguments:
        return None
    ndim = np.ndim(arguments["x"])
    return None if ndim < 1 else ASIDE if ndim == 1 else ndim == 2


def _last_two_axes(arguments):
    """True along one of `x`'s last two axes (the default: the last), False along an earlier
    one; None without an `x` (or with heads: attention's own)."""
    if "x" not in arguments or "heads" in arguments:
        return None
    ndim, axis = np.ndim(arguments["x"]), arguments.get("axis", -1)
    if ndim < 1 or not isinstance(axis, (int, np.integer)) or not -ndim <= axis < ndim:
        return None
    return int(axis) % ndim >= ndim - 2


def _last_axis(arguments):
    """True along `x`'s last axis (the default; a 1-D `x`'s only one), False along another;
    None without an `x`, or with heads: attention's own."""
    if "x" not in arguments or "heads" in arguments:
        return None
    ndim, axis = np.ndim(arguments["x"]), arguments.get("axis", -1)
    if ndim < 1 or not isinstance(axis, (int, np.integer)) or not -ndim <= axis < ndim:
        return None
    return int(axis) % ndim == ndim - 1


def _float_image(arguments):
    """True for a float image, False for an integer one (8-bit pixels, as a file gives them)."""
    image = arguments.get("image")
    if not isinstance(image, np.ndarray) or _image_shape(arguments) is None:
        return None
    if np.issubdtype(image.dtype, np.floating):
        return True
    return False if np.issubdtype(image.dtype, np.integer) else None


def _image(arguments, hidden):
    H, W = _sizes(arguments)
    return "image" if hidden else f"{H} x {W} image"


# name -> (a test of the arguments: True, False or None when it does not apply; the class
# report's title; (the inputs it holds on, what they differ in), said when several hold; the
# words after "Your `f` is right ", given the failing case's arguments and whether the check
# is hidden)
GENERALISATIONS = {
    "only_square_images": (_square, "right for square images only",
                           ("with H == W", "H and W"), lambda a, hidden: (
        f"when H == W, wrong for a {'non-square ' if hidden else ''}{_image(a, hidden)}: use H "
        "and W each where they belong")),
    "only_one_channel": (_one_channel, "right for one channel only",
                         ("with one channel", "the channels"), lambda a, hidden: (
        f"for one channel, wrong for an image with {_image_shape(a)[2]} channels: look at how "
        "the channels are read and in which order they are flattened")),
    "only_gray_or_rgb": (_gray_or_rgb, "right for gray and RGB only",
                         ("with one or three channels", "the number of channels"),
                         lambda a, hidden: (
        f"for one and three channels (gray and RGB), wrong for "
        f"{'another number of channels' if hidden else f'{_channels_of(a)} channels'}: the "
        "model solution's code is the same for any number of channels C (a patch holds P*P*C "
        "numbers)")),
    "only_3d_images": (_channels_axis, "wrong for 2-D (H, W) images",
                       ("with (H, W, C) images", "a 2-D image"), lambda a, hidden: (
        "for (H, W, C) images, wrong for a 2-D (H, W) image: a 2-D image is one channel, "
        "(H, W, 1): treat it as `image[..., None]` (and read H, W from `image.shape[:2]`).")),
    "only_one_head": (_one_head, "right for one head only",
                      ("with one head", "the number of heads"), lambda a, hidden: (
        f"with one head, wrong with heads={a['heads']}: look at each step that depends on the "
        "number of heads (the split into d // heads columns, the scale, the merge) or on the "
        "rank the heads give the scores (stacked (heads, T, T): the softmax over the keys is "
        "axis -1, not 1)")),
    "only_float_images": (_float_image, "right for float images only",
                          ("with float images", "the image's dtype"), lambda a, hidden: (
        f"for float images, wrong for a {a['image'].dtype} image (integer pixels, as a file "
        "gives them), whose expected result is what the same pixels give as floats: look for "
        "a step that treats integer pixels differently")),
    "only_2d_inputs": (_no_batch_axis, "wrong with leading (batch) axes",
                       ("with inputs of two axes", "leading axes"), lambda a, hidden: (
        f"for inputs of two axes (T, d), wrong for an input with leading axes {np.shape(a['x'])}: "
        "check what each step does with the axes before the last")),
    "only_last_two_axes": (_last_two_axes, "wrong along an axis before the last two",
                           ("along the last two axes", "`axis`"), lambda a, hidden: (
        f"along the last two axes of its input, wrong along axis {a['axis']} of one with "
        f"{np.ndim(a['x'])} axes: check each step that moves `axis` or reads along it")),
    "only_last_axis": (_last_axis, "right along the last axis only",
                       ("along the last axis", "`axis`"), lambda a, hidden: (
        f"along the last axis of its input, not along axis {a['axis']} of one with "
        f"{np.ndim(a['x'])} axes: `axis` may be any of its axes (where a library supports the "
        "last one only, move `axis` last and back)")),
}
SEVERAL = "only_narrower_inputs"  # several GENERALISATIONS hold: all said at once
RAISES = "raises_"  # + a generalisation's name: its true half where a failure belies it
RAISES_TITLES = {"only_square_images": "raises for non-square images",
                 "only_one_channel": "raises for several channels",
                 "only_gray_or_rgb": "raises for channels other than gray and RGB",
                 "only_3d_images": "raises for 2-D (H, W) images",
                 "only_one_head": "raises with several heads",
                 "only_float_images": "raises for integer images",
                 "only_2d_inputs": "raises with leading (batch) axes",
                 "only_last_two_axes": "raises along an axis before the last two"}
TITLES = {**{name: title for name, (_, title, _, _) in GENERALISATIONS.items()},
          **{RAISES + name: title for name, title in RAISES_TITLES.items()},
          SEVERAL: "right on a narrower set of inputs",
          ONE_AXIS_OFF: "right values, an axis of length 1 too many, too few or moved"}
