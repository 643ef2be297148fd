"""A named mistake whose sentence tells the student what input to give instead (a gray image as
(H, W, 1), `image[..., None]`: error_model/inputs.py's REMEDIES) is kept only where the student's
code, called on the check's cases with that input, returns what the mistake's other parts (for a
single mistake, the lecture's code) return there. A raise reproduced by type and message proves
little (every out-of-range tuple index raises "tuple index out of range": b48_01 reads the grid
side off `shape[2]` of a channels-first copy, and its (H, W, 1) image still fails on a
hard-coded 3), and what the sentence says is checked on the student's own code, in its worker.
"""
from __future__ import annotations

import numpy as np

from grader.worker.values import encode_call

from ..compare import alike, default_compare
from ..course import reference_function
from .aspects import put_argument
from .mistakes import JOIN, opaque


def _operator(part: str) -> str:
    """"channel_indexed" of "op:channel_indexed:patchify:..." (a quiet part's "~" aside)."""
    pieces = part.lstrip("~").split(":")
    return pieces[1] if len(pieces) > 2 and pieces[0] == "op" else ""


def remedied(result, check, ran: list, worker, unnamed):
    """`result` as it is, unless its mistake has a part with a remedy (REMEDIES) that the
    student's code (run by `worker`) does not bear out on the cases of `ran` ((planned case,
    outcome) pairs) the remedy changes: then `unnamed` (the result before it was named). No
    worker, no case to change, or a call that did not return or raise: not borne out. A check
    whose cases all ask for a refusal passes the function's other checks' cases (call.py)."""
    if not result.misconception:
        return result
    try:
        from grader.reference import error_model
        from grader.reference.error_model.inputs import REMEDIES
    except ImportError:
        return result
    parts = result.misconception.split(JOIN)
    mended = [p for p in parts if _operator(p) in REMEDIES]
    if not mended:
        return result
    if worker is None or len({REMEDIES[_operator(p)] for p in mended}) != 1:
        return unnamed
    name, remedy = REMEDIES[_operator(mended[0])]
    params = check.api.params(check.reference_name)
    probes = []
    for planned, _ in ran:
        if planned.expectation()[1] is not None:
            continue  # a refusal asked: no value to bear the sentence out
        args, kwargs = list(planned.args), dict(planned.kwargs)
        given = remedy({**dict(zip(params, args, strict=False)), **kwargs}.get(name))
        if given is not None and put_argument(params, args, kwargs, name, given):
            probes.append((tuple(args), kwargs))
    if not probes:
        return unnamed
    try:
        function = reference_function(check.reference_name, check.folder)
        rest = [p for p in parts if p not in mended]
        others = (error_model.rewrite(function, JOIN.join(rest), opaque(check)) if rest
                  else function)
    except (ImportError, KeyError):
        return unnamed
    # a guard stands for the student's own refusal of any exception type (an assert where the
    # lecture's test raises ValueError: refusals.named_refusal), so a raise there is its raise
    refusing = any(_operator(p) == "guarded" for p in rest)
    answers = worker.call_many(check.call, [encode_call(a, k) for a, k in probes])
    for (args, kwargs), got in zip(probes, answers, strict=True):
        try:
            with np.errstate(all="ignore"):
                value = others(*args, **kwargs)
        except Exception as error:  # noqa: BLE001  (the other part raises: the code alike)
            if got.status != "raised" or not rest or (
                    got.error.type != type(error).__name__ and not refusing):
                return unnamed
            continue
        if got.status != "ok" or not alike(value, got.value,
                                           check.compare or default_compare(value)):
            return unnamed
    return result
