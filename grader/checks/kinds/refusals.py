"""The mistake a function's refusals name (issue 38): a rewrite of the reference's tiling or
kernel test that reproduces what the function refused and returned.

`named_refusal(result, check, cases, planned, outcome)`, first: the mistake a rewrite of the
reference's tiling test names (error_model/tiling.py: one side only, `and` for `or`, the area, no
test, square images only, the image padded; alone or with the count taken by area), or of the
convolution's kernel test (error_model/kernel_fit.py: `>=`, the channel count compared, windows that
must fit exactly; alone or with the one value mistake of the search that reproduces every value
returned), when it reproduces every case the function ran, the refusals (by their exception's
type) and the values it returned, and the student's code on probe sizes. Where the rewrite
returns an empty array (no window fits) and a refusal was due, a raise of the student's from a
line that raises nothing by itself (numpy refusing an empty result's reshape or stack,
guards.refused_by_computation) is the same (code with no test, b77_07). Where a case due a
refusal returned a value and printed a warning, none is named: the code noticed (b77_10).

Where none is named, what the refusals show without a cause (`refused`: a condition every
refused case shares, or what the value returned instead is) is refusal_observations.py's.
"""
from __future__ import annotations

import inspect
from dataclasses import replace

import numpy as np

from grader.worker.values import ForeignObject, encode_call

from ..compare import alike, default_compare
from ..course import reference_function
from ..raised_here import raising_statement
from ..results import FAILED, MISTAKE
from .aspects import aspect_probes, conv_probes, put_argument, square_probes
from .memory import MEMORY
from .mistakes import JOIN, opaque
from .refusal_triples import (
    apart,
    exactly,
    needed_here,
    placed,
    plainest,
    test_needed,
    with_what_it_lets_through,
)
from .refusal_values import WARNING, tiling_sizes_of

# sizes (H, W, P) the student's function is also called on before a tiling test is named, the
# sizes its sentences speak of among them: each kind of size a tiling test tells apart (one side
# alone untiled, both with equal remainders or not, an area that divides, square or not)
PROBES = ((32, 30, 16), (30, 32, 16), (30, 30, 16), (18, 29, 16), (224, 160, 16), (8, 2, 4),
          (32, 32, 16), (16, 48, 16))


def _probes(params, planned) -> list | None:
    """(args, kwargs) of `planned` with its sizes as each of PROBES (an image of that size, its
    channels kept), or None when its sizes are not (H, W, P) nor (image, P)."""
    out = []
    for H, W, P in PROBES:
        args, kwargs = list(planned.args), dict(planned.kwargs)

        def put(name, value, args=args, kwargs=kwargs) -> bool:
            return put_argument(params, args, kwargs, name, value)

        image = {**dict(zip(params, args, strict=False)), **kwargs}.get("image")
        if isinstance(image, np.ndarray) and image.ndim in (2, 3, 4):  # 4-D: (B, H, W, C)
            shape = (H, W, *image.shape[2:]) if image.ndim < 4 else (
                image.shape[0], H, W, image.shape[3])
            sized = put("image", (np.arange(int(np.prod(shape))) % 251).reshape(shape)
                        .astype(image.dtype))
        else:
            sized = put("H", H) and put("W", W)
        if not (sized and put("P", P)):
            return None
        out.append((tuple(args), kwargs))
    return out


def _raises(rewritten, args, kwargs) -> bool:
    try:
        with np.errstate(all="ignore"):
            rewritten(*args, **kwargs)
    except Exception:  # noqa: BLE001  (any refusal)
        return True
    return False


def _refusal_wrong(planned, outcome) -> bool:
    """Whether the case asked for a refusal and the code returned a value, or asked for a value
    and the code raised ValueError."""
    raises = planned.expectation()[1]
    return ((raises is not None and outcome.status == "ok")
            or (raises is None and outcome.status == "raised"
                and outcome.error.type == "ValueError"))


def _rights(check, cases: list) -> list[bool]:
    """Whether each (planned case, outcome) of `cases` is right: its value or its refusal."""
    rights = []
    for planned, outcome in cases:
        expected, raises = planned.expectation()
        if raises is not None or outcome.status != "ok":
            rights.append(raises is not None and outcome.status == "raised")
            continue
        try:
            rights.append(bool(alike(expected, outcome.value,
                                     check.compare or default_compare(expected))))
        except Exception:  # noqa: BLE001  (an expectation no value fits)
            rights.append(False)
    return rights


def _signature(function, params: tuple) -> tuple:
    """The reference function's parameters, those with defaults too (`axis`, `C`)."""
    try:
        return tuple(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return tuple(params)


def _named_arguments(function, planned) -> dict:
    """The planned call's arguments by name, the reference's defaults included (`axis=-1`)."""
    try:
        bound = inspect.signature(function).bind(*planned.args, **planned.kwargs)
    except (TypeError, ValueError):
        return {}
    bound.apply_defaults()
    return dict(bound.arguments)


def _wrong_value(calls: list, reference) -> bool:
    """Whether the student's code returned, on one of `calls`, a value the reference does not
    (`reference(args, kwargs)`: its value, None where it refuses): a reading of the image
    (error_model/inputs.py) is named here only on such a value, never on raises alone (any
    mistake that breaks a gray image raises alike)."""
    for args, kwargs, got in calls:
        if got.status == "ok":
            value = reference(args, kwargs)
            if value is None or not alike(value, got.value, default_compare(value)):
                return True
    return False


def _kinds_kept(rewritten, calls: list) -> bool:
    """Whether `rewritten` returns an int where the student's code returned one and a float
    where it returned a float, on every call whose value was a number (the same count, 1 and
    1.0, is one value to a comparison, not one kind)."""
    for args, kwargs, got in calls:
        if got.status == "ok" and isinstance(got.value, (int, float, np.number)):
            try:
                with np.errstate(all="ignore"):
                    value = rewritten(*args, **kwargs)
            except Exception:  # noqa: BLE001  (a raise is no number)
                return False
            integers = (np.asarray(value).dtype.kind in "iub",
                        np.asarray(got.value).dtype.kind in "iub")
            if integers[0] != integers[1]:
                return False
    return True


def _words_hold(function, name: str, hidden: frozenset, calls: list, check,
                reference) -> bool:
    """Whether what each part of `name` says beyond the values (its edit's `holds`, as the
    search weighs it) is true of the calls (args, kwargs, outcome) the code returned a value
    on, the reference's values expected (`reference(args, kwargs)`): behind a guard that
    refuses all but 2-D input, "axis 1 unless 1-D" and "rows, or the whole array" return what
    "`axis` taken as its default" returns, and only the default's words are shown by 2-D calls
    (the search's rule, error_model.fused)."""
    from grader.reference import error_model

    edits = {edit.name: edit for edit in error_model.model(function, hidden)[1]}
    returned = [error_model.Call(args, kwargs, outcome.value, reference(args, kwargs))
                for args, kwargs, outcome in calls if outcome.status == "ok"]

    def same(value, target) -> bool:
        return alike(value, target, check.compare or default_compare(value))

    for part in name.split(JOIN):
        edit = edits.get(part.removeprefix(error_model.QUIET))
        if edit is not None and edit.holds is not None and not edit.holds(
                error_model.rewrite(function, part, hidden), returned, same):
            return False
    return True


def _right_on(rewritten, planned, check) -> bool:
    """Whether `rewritten` returns the expected value on `planned` (the search's rule too: a
    mistake is named only where it is wrong on the case the check failed)."""
    expected = planned.expectation()[0]
    try:
        with np.errstate(all="ignore"):
            value = rewritten(*planned.args, **planned.kwargs)
    except Exception:  # noqa: BLE001  (a raise is no expected value)
        return False
    return alike(value, expected, check.compare or default_compare(value))


def _empty(value) -> bool:
    """Whether a rewrite's value is an array with an axis of length 0 (no window fits)."""
    return isinstance(value, np.ndarray) and value.ndim > 0 and 0 in value.shape


def _warned_instead(cases: list) -> bool:
    """Whether a case due a refusal returned a value and printed a warning: the code noticed
    and warned, so neither a test's absence nor a rewrite of the reference's test is its cause
    (refusal_values.py's observation says it warned)."""
    return any(p.expectation()[1] is not None and o.status == "ok"
               and WARNING.search(o.stdout or "") for p, o in cases)


def _unsent(outcome) -> bool:
    """Whether a probe's value was too large to be sent back, a description in its place (every
    window of a 224 x 160 image): it shows nothing either way, and is left out."""
    return (outcome.status == "ok" and isinstance(outcome.value, ForeignObject)
            and outcome.value.summary.startswith("not sent"))


def refused_beside(planned, outcome, cases: list) -> bool:
    """Whether a mistake named on the failed case's wrong value leaves a refusal unexplained: a
    case of the check asking for a value raised ValueError (a kernel as large as the image
    refused beside a flipped kernel), where a pair of a test and a value mistake may be named."""
    return planned.expectation()[1] is None and outcome.status == "ok" and any(
        p.expectation()[1] is None and o.status == "raised" and o.error.type == "ValueError"
        for p, o in cases)


def named_refusal(result, check, cases: list, planned, outcome, worker=None, own=None):
    """`result` with, as a named mistake, the one rewrite of the reference's tiling test (or that
    and the count by area, or that and a mistake another check of the function named: the square
    count's `H // P` for `W // P`) that reproduces every case of `cases` ((planned case,
    outcome) pairs: the check's and the function's other checks') and what the student's code
    (run by `worker`, its own) returns on PROBES: each raise by its exception's type, each value
    under the check's comparison; or, where the code also returned a wrong value, a test and
    the one single of the search that reproduces every value it returned (`>=` in the kernel
    test and the bias counted once per summed value). Only where a case (the failed one or
    another the function ran) asked for a refusal and the code returned a value, or asked for a
    value and the code raised ValueError: a correct code, whatever its message or its way of
    testing, never gets here. Where the failed case asked for a value and raised (any
    exception), a guard of error_model/guards.py too (the student's own check refusing gray
    images, or any axis but the last), on those cases and on `aspects.aspect_probes`: it must raise
    where the student's code raised, by any exception where the guard refuses (its message and
    type are no guess of the student's), and return the reference's value everywhere else. A
    gray image's reading of error_model/inputs.py (its channel axis put in front) too, by type,
    on the same probes, where the code returned a wrong value on one of them."""
    raises = planned.expectation()[1]
    if worker is None or result.status != FAILED or check.integration:
        return result
    tiling = any(_refusal_wrong(p, o) for p, o in [(planned, outcome), *cases])
    raised = [p for p, o in [(planned, outcome), *cases]  # asked for a value and raised: the
              if p.expectation()[1] is None and o.status == "raised"]  # failed case first
    guarding = raises is None and bool(raised)
    if not (tiling or guarding) or (result.misconception and not refused_beside(
            planned, outcome, cases)) or _warned_instead([(planned, outcome), *cases]):
        return result
    try:
        from grader.reference import error_model
        from grader.reference.error_model.equal_blocks import OPERATORS as EQUAL_BLOCKS
        from grader.reference.error_model.equal_blocks import with_blocks_example
        from grader.reference.error_model.evidence import empty_alike, same_message
        from grader.reference.error_model.guards import REFUSAL_OPERATORS as GUARDS
        from grader.reference.error_model.guards import (
            SAID,
            SQUARE,
            Refused,
            own_raise,
            refused_by_computation,
            refuses,
        )
        from grader.reference.error_model.inputs import GRAY_RAISES, GRAY_READINGS
        from grader.reference.error_model.kernel_fit import REFUSAL_OPERATORS as KERNEL_TESTS
        from grader.reference.error_model.modules import NAMED_ELSEWHERE
        from grader.reference.error_model.tiling import (
            AFTER_REFUSAL,
            PADS,
            REFUSAL_OPERATORS,
            UNPLACED,
            with_area_example,
        )
        from grader.reference.error_model.windows import CLIPPED
        function = reference_function(check.reference_name, check.folder)
    except (ImportError, KeyError):
        return result  # the student bundle: no reference
    hidden = opaque(check)
    built = error_model.model(function, hidden)
    params = check.api.params(check.reference_name)
    sized = (_probes(params, planned) or conv_probes(params, planned)) if tiling else None
    first = raised[0] if guarding else planned  # the failed case, where it raised
    here = _named_arguments(function, first)  # a guard or a gray reading tried only where it
    guards = [e.name for e in built[1] if e.operator in GUARDS and guarding  # changes the first
              and refuses(e.detail, here)] if built else []  # raised case (a cheap test first)
    readings = [e.name for e in built[1] if e.operator in GRAY_READINGS and guarding
                and np.ndim(here.get("image")) == 2] if built else []
    grays = [e.name for e in built[1] if e.operator in GRAY_RAISES and guards and any(
        np.ndim(_named_arguments(function, p).get("image")) == 2 for p in raised)] if built else []
    aspects = (aspect_probes(_signature(function, params), first)
               if guards or readings else [])
    aspects += (square_probes(_signature(function, params), first)  # the images it must take
                if any(name.endswith(SQUARE) for name in guards) else [])
    if built is None or (sized is None and not aspects):
        return result
    tests = [e.name for e in built[1]
             if e.operator in (*REFUSAL_OPERATORS, *KERNEL_TESTS)] if sized else []
    after = [e.name for e in built[1] if e.operator in AFTER_REFUSAL]
    memory = MEMORY.get()  # a mistake another check of the function named: its second part
    after += [found.name for found in (memory.named.get((function, hidden), []) if memory else [])
              if error_model.QUIET not in found.name and found.name not in after]
    singles = {e.name for e in built[1]}  # and the other reading of one named (windows off
    after += [other for name in list(after) for other in (  # the image broadcast or raise):
        name + CLIPPED, name.removesuffix(CLIPPED))  # the probes may tell them apart
        if other != name and other in singles and other not in after]
    if not (tests or guards or readings):
        return result
    probes = [*(sized or []), *aspects]
    answers = worker.call_many(check.call, [encode_call(a, k) for a, k in probes])
    calls = [(p.args, p.kwargs, o) for p, o in cases] + [
        (a, k, o) for (a, k), o in zip(probes, answers, strict=True) if not _unsent(o)]
    if any(o.status not in ("ok", "raised") for _, _, o in calls):
        return result

    def returns_value(args, kwargs):  # the reference's value on the call, None if it raises
        try:
            with np.errstate(all="ignore"):
                return function(*args, **kwargs)
        except Exception:  # noqa: BLE001  (it refuses the call)
            return None

    def reproduces(name: str, among: list = calls, message: bool = False) -> bool:  # each
        rewritten = error_model.rewrite(function, name, hidden)  # raise by its type (`message`:
        for args, kwargs, got in among:  # and one not a guard's nor the lecture's by its message)
            try:
                with np.errstate(all="ignore"):
                    value = rewritten(*args, **kwargs)
            except Exception as error:  # noqa: BLE001  (a raise is reproduced by its type)
                if got.status != "raised" or (got.error.type != type(error).__name__
                                              and not isinstance(error, Refused)) or not (
                        own_raise(error, got.error.type, got.error.message,
                                  raising_statement(got.error.traceback))):
                    return False
                if message and not isinstance(error, Refused) and not same_message(
                        str(error), got.error.message) and returns_value(args, kwargs) is not None:
                    return False
                continue
            if got.status == "raised" and _empty(value) and returns_value(
                    args, kwargs) is None and refused_by_computation(
                    got.error.type, raising_statement(got.error.traceback)):
                continue  # no window, and numpy refused the empty result: no test either way
            if got.status != "ok" or not (  # no patch reproduces no patch, in any shape
                    alike(value, got.value, check.compare or default_compare(value))
                    or empty_alike(value, got.value, returns_value(args, kwargs))):
                return False
        return True

    readings = readings if readings and _wrong_value(calls, returns_value) else []
    typed = [name for name in tests if reproduces(name)]  # a test reproduces the types too:
    found = typed + [name for name in guards if not typed and reproduces(
        name, message=name.rsplit(":", 1)[-1] in SAID)] + [  # a guard
        # of any exception is named only where none does (`guards.py`'s "windows-must-fit")
        name for name in readings if reproduces(name)] or [
        f"{test}{JOIN}{count}" for test in tests for count in after
        if reproduces(f"{test}{JOIN}{count}")]
    found = found or [f"{test}{JOIN}{name}" for test in tests for name in guards  # a guard and
                      if reproduces(f"{test}{JOIN}{name}")]  # a test: an assert, no kernel test
    found = found or [f"{name}{JOIN}{gray}" for name in guards for gray in grays  # a guard and
                      if reproduces(f"{name}{JOIN}{gray}", message=True)]  # a gray image's raise
    if not found and any(o.status == "ok" and not ok for (_, o), ok in zip(
            cases, _rights(check, cases), strict=True)):
        # a wrong value beside the refusal: a test paired with the one value mistake (a single
        # of the search) that reproduces every value the code returned on the check's cases
        returned = [(p.args, p.kwargs, o) for p, o in cases if o.status == "ok"]
        values = [e.name for e in built[1] if e.operator not in NAMED_ELSEWHERE
                  and reproduces(e.name, returned)]
        found = [f"{test}{JOIN}{value}" for test in (*tests, *guards) for value in values
                 if reproduces(f"{test}{JOIN}{value}")]  # a guard too: Keras 1's softmax
        # refuses all but 2-D and 3-D input and takes the last axis whatever `axis` says
        found = found or with_what_it_lets_through(tests, after, built[1], returned,
                                                   returns_value, reproduces, NAMED_ELSEWHERE)
    blocks = [e.name for e in built[1] if e.operator in EQUAL_BLOCKS]  # the image cut into
    found = found or [f"{test}{JOIN}{cut}" for test in tests for cut in blocks  # H // P by W //
                      if reproduces(f"{test}{JOIN}{cut}")]  # P equal blocks: tried last, rare
    found = test_needed(found, tests, reproduces)  # a test the other parts do not need
    found = apart(found, guards, lambda name: any(  # a value mistake that raises itself
        _raises(error_model.rewrite(function, name, hidden), a, k) for a, k, _ in calls
        if returns_value(a, k) is not None))  # where the guard does: the guard says why
    found = placed(found, PADS, UNPLACED)  # a padding's place said where the calls tell it
    found = exactly(plainest(found), SAID, reproduces)  # the simpler of claims the probes
    # cannot tell apart; of guards, the one that raises the student's very error
    if raises is None and outcome.status == "ok":  # the failed case's own value: a rewrite
        found = [name for name in found if not _right_on(  # right there is no cause of it
            error_model.rewrite(function, name, hidden), planned, check)]
    if len(found) > 1:  # pairs alike in value: a count's kind (int or float) tells them apart
        found = [name for name in found if _kinds_kept(error_model.rewrite(
            function, name, hidden), calls)] or found
    if len(found) > 1:  # or what each part says beyond the values, on the calls it returned
        found = [name for name in found if _words_hold(
            function, name, hidden, calls, check, returns_value)] or found
    if len(found) != 1 or (result.misconception and JOIN not in found[0]):
        return result  # a mistake named on a value is replaced only by a pair: it and a test
    name = found[0] if any(p.expectation()[1] is None for p, _ in cases[:own]) else needed_here(
        found[0], [(p.args, p.kwargs, o) for p, o in cases[:own]], reproduces, {*tests, *guards})
    returned = [s for s in (tiling_sizes_of({**dict(zip(params, a, strict=False)), **k})
                            for a, k, o in calls[len(cases):] if o.status == "ok")
                if s]  # the probes' sizes it counted: never a hidden case's
    said = with_area_example(error_model.sentence(function, name, hidden), returned)
    return replace(result, misconception=name, hint_kind=MISTAKE,  # (`own`: the check's cases
                   hint=with_blocks_example(said, returned))  # first)
