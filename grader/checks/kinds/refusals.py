"""What a function's refusals show when it returned a value where it should have raised
ValueError (issue 38, "say what is observed"): of the cases that ask for a refusal, the ones it
refused all share a condition the failed one lacks. Patches that do not tile: a function that
tests only the height refuses every size whose height P does not tile, and returns a count for
those whose width alone it does not; one that tests the area refuses only sizes whose area
P * P does not divide. Each is true of the cases that ran by construction; it names no cause.

`refused(result, check, judged, planned, outcome)`: the failed `result` with the one of
REFUSALS that holds on every case it refused and on none it did not, as an observation.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..results import FAILED, OBSERVATION


def _sizes(arguments) -> tuple[int, int, int] | None:
    """(H, W, P) of a tiling question: a counting function's sizes, or an image's first axes."""
    P = arguments.get("P")
    image = arguments.get("image")
    H, W = (np.shape(image)[:2] if image is not None and np.ndim(image) >= 2
            else (arguments.get("H"), arguments.get("W")))
    numbers = (H, W, P)
    if not all(isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in numbers):
        return None
    return (int(H), int(W), int(P)) if int(P) > 0 else None


def _untiled(test):
    def holds(arguments) -> bool | None:
        sizes = _sizes(arguments)
        return None if sizes is None else bool(test(*sizes))
    return holds


REFUSALS = {  # name -> (condition, what the function refuses, what it should test), titles
    "refuses_height_only": (_untiled(lambda H, W, P: H % P), "sizes whose height P does not "
                            "tile, not those whose width alone it does not", "test W % P too"),
    "refuses_width_only": (_untiled(lambda H, W, P: W % P), "sizes whose width P does not "
                           "tile, not those whose height alone it does not", "test H % P too"),
    "refuses_by_area": (_untiled(lambda H, W, P: (H * W) % (P * P)), "sizes whose area P * P "
                        "does not divide, not all whose sides P does not tile (8 x 2 with P = 4 "
                        "has area 16)", "test H % P and W % P, each side"),
}
# name -> a refused case that shows the condition alone suffices: "refuses sizes whose width P
# does not tile" rests on one whose width alone does not (a code that refuses only when neither
# side tiles, `H % P and W % P`, refuses none such: b11_11 was told it tests the width)
WITNESSES = {"refuses_height_only": _untiled(lambda H, W, P: H % P and not W % P),
             "refuses_width_only": _untiled(lambda H, W, P: W % P and not H % P),
             "refuses_by_area": _untiled(lambda H, W, P: (H * W) % (P * P))}
TITLES = {"refuses_height_only": "tiling tested on the height only",
          "refuses_width_only": "tiling tested on the width only",
          "refuses_by_area": "tiling tested on the area"}


def refused(result, check, judged: list, planned, outcome):
    """`result` with what the function's refusals show, when the failed case asked for one and
    the code returned a value; `judged`: (planned case, right) of the cases it ran."""
    expected, raises = planned.expectation()
    if (result.status != FAILED or result.misconception or raises is None
            or outcome.status != "ok"):
        return result
    params = check.api.params(check.reference_name)

    def arguments(p):
        return {**dict(zip(params, p.args, strict=False)), **p.kwargs}

    asked = [(arguments(p), ok) for p, ok in judged if p.expectation()[1] is not None
             and p is not planned]
    right = [a for a, ok in asked if ok]
    wrong = [a for a, ok in asked if not ok]
    here = arguments(planned)
    found = [(name, refuses, fix) for name, (holds, refuses, fix) in REFUSALS.items()
             if right and all(holds(a) is True for a in right) and holds(here) is False
             and not any(holds(a) is True for a in wrong)
             and any(WITNESSES[name](a) is True for a in right)]
    if len(found) != 1:
        return result
    name, refuses, fix = found[0]
    return replace(result, misconception=name, hint_kind=OBSERVATION,
                   hint=f"Your `{check.function}` refuses {refuses}: {fix}.")
