"""What a function's refusals show when it returned a value where it should have raised
ValueError (issue 38, "say what is observed"): of the cases that ask for a refusal, the ones it
refused all share a condition the failed one lacks. Patches that do not tile: a function that
tests only the height refuses every size whose height P does not tile, and returns a count for
those whose width alone it does not; one that tests the area refuses only sizes whose area
P * P does not divide. Each is true of the cases that ran by construction; it names no cause.

`refused(result, check, judged, planned, outcome, ran)`: the failed `result` with the one of
REFUSALS that holds on every case it refused and on none it did not, as an observation; or,
first, what the value it returned is (INSTEAD): the reference's on the image zero-padded at the
bottom and right to a multiple of P (PADDED: timm's `dynamic_img_pad`, Swin's PatchEmbed
`F.pad`), or on each image of a 4-D array one after the other (BATCHED: MAE's patchify); or, on
every refusal case of the check (`ran`) that returned a value, an empty array for a kernel
larger than a side of the image, or rows that are not P x P patches (refusal_values.py).
The mistake a rewrite of the reference's tiling test names is refusals.py's (`named_refusal`).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..compare import alike, default_compare
from ..course import reference_function
from ..results import FAILED, OBSERVATION
from .refusal_values import EMPTY, NOT_PATCHES, empty_windows, not_patches, tiling_sizes_of


def _untiled(test):
    def holds(arguments) -> bool | None:
        sizes = tiling_sizes_of(arguments)
        return None if sizes is None else bool(test(*sizes))
    return holds


# the sizes a tiling check tells apart, each written once
HEIGHT = _untiled(lambda H, W, P: H % P)
WIDTH = _untiled(lambda H, W, P: W % P)
AREA = _untiled(lambda H, W, P: (H * W) % (P * P))
BOTH_SIDES = _untiled(lambda H, W, P: H % P and W % P)
HEIGHT_ALONE = _untiled(lambda H, W, P: H % P and not W % P)
WIDTH_ALONE = _untiled(lambda H, W, P: W % P and not H % P)
SIDES_NOT_AREA = _untiled(lambda H, W, P: (H % P or W % P) and not (H * W) % (P * P))

REFUSALS = {  # name -> (condition, what the function refuses, what it should test), titles
    "refuses_height_only": (HEIGHT, "sizes whose height P does not tile, not those whose width "
                            "alone it does not", "test W % P too"),
    "refuses_width_only": (WIDTH, "sizes whose width P does not tile, not those whose height "
                           "alone it does not", "test H % P too"),
    "refuses_by_area": (AREA, "sizes whose area P * P does not divide, not all whose sides P "
                        "does not tile (8 x 2 with P = 4 has area 16)",
                        "test H % P and W % P, each side"),
    "refuses_both_sides_only": (BOTH_SIDES, "only sizes neither of whose sides P tiles, not "
                                "those where one side alone leaves pixels over",
                                "refuse when either side does"),
}
# name -> a refused case that shows the condition alone suffices: "refuses sizes whose width P
# does not tile" rests on one whose width alone does not (a code that refuses only when neither
# side tiles, `H % P and W % P`, refuses none such: b11_11 was told it tests the width)
WITNESSES = {"refuses_height_only": HEIGHT_ALONE, "refuses_width_only": WIDTH_ALONE,
             "refuses_by_area": AREA, "refuses_both_sides_only": BOTH_SIDES}
# name -> the sizes it says the code does not refuse, each shown by a case it returned a value
# on: "not those where one side alone leaves pixels over" rests on a height alone and a width
# alone it let through (a code that tests the width only lets (30, 32, 16) through too: b29_05
# was told it refuses only when neither side tiles)
COUNTERS = {"refuses_height_only": (WIDTH_ALONE,), "refuses_width_only": (HEIGHT_ALONE,),
            "refuses_by_area": (SIDES_NOT_AREA,),
            "refuses_both_sides_only": (HEIGHT_ALONE, WIDTH_ALONE)}
PADDED = "pads_to_tile"  # the value of the image zero-padded to a multiple of P
BATCHED = "batch_accepted"  # the values of each image of a 4-D array, one after the other
TITLES = {"refuses_height_only": "tiling tested on the height only",
          "refuses_width_only": "tiling tested on the width only",
          "refuses_by_area": "tiling tested on the area",
          "refuses_both_sides_only": "refused only when neither side tiles",
          PADDED: "image padded to tile", BATCHED: "a 4-D array taken as a batch",
          EMPTY: "an empty array for a kernel that does not fit",
          NOT_PATCHES: "rows not P x P patches where P does not tile"}


def refused(result, check, judged: list, planned, outcome, ran: list = ()):
    """`result` with what the function's refusals show, when the failed case asked for one and
    the code returned a value; `judged`: (planned case, right) of the cases it ran; `ran`:
    (planned case, outcome) of the check's own cases, whose returned values INSTEAD weighs."""
    expected, raises = planned.expectation()
    if (result.status != FAILED or result.misconception or raises is None
            or outcome.status != "ok"):
        return result
    params = check.api.params(check.reference_name)
    returned = [(planned, outcome)] + [  # every refusal case of the check it returned on
        (p, o) for p, o in ran if p is not planned and p.expectation()[1] is not None
        and o.status == "ok"]
    for name, (shows, words) in INSTEAD.items():
        where = shows(check, params, returned, ran, [p for p, _ in judged])
        if where is not None:
            return replace(result, misconception=name, hint_kind=OBSERVATION,
                           hint=f"Your `{check.function}` {words.format(where=where)}.")

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
             and any(WITNESSES[name](a) is True for a in right)
             and all(any(shows(a) is True for a in [here, *wrong]) for shows in COUNTERS[name])]
    if len(found) != 1:
        return result
    name, refuses, fix = found[0]
    return replace(result, misconception=name, hint_kind=OBSERVATION,
                   hint=f"Your `{check.function}` refuses {refuses}: {fix}.")


def _reference(check, image, planned):
    """The reference's value on the case with `image` in its image's place; None if it raises."""
    try:
        function = reference_function(check.reference_name, check.folder)
        with np.errstate(all="ignore"):
            return function(image, *planned.args[1:], **planned.kwargs)
    except Exception:  # noqa: BLE001  (the reference refuses that case too)
        return None


def _batched(check, params, returned, ran=(), asked=()) -> str | None:
    """"" where the failed case's value is the reference's on each image of its 4-D array, one
    after the other (their rows concatenated, or stacked on a leading batch axis); else None."""
    (planned, outcome), *_ = returned
    value = outcome.value
    arguments = dict(zip(params, planned.args, strict=False))
    batch = arguments.get("image")
    if (not params or params[0] != "image" or not isinstance(batch, np.ndarray)
            or batch.ndim != 4 or not len(batch) or "image" in planned.kwargs):
        return None
    each = [_reference(check, image, planned) for image in batch]
    if any(v is None for v in each):
        return None
    how = check.compare or default_compare(each[0])
    return "" if any(alike(np.asarray(joined), value, how) for joined in (
        np.concatenate(each), np.stack(each))) else None


# where the zeros go, (before, after) of a side short by `pad`, and how it is said
PLACES = {", at the bottom and right (as timm's dynamic_img_pad and Swin's `F.pad` pad it)":
          lambda pad: (0, pad),
          ", evenly on both sides": lambda pad: (pad // 2, pad - pad // 2),
          ", at the top and left": lambda pad: (pad, 0)}


def _padded(check, params, returned, ran=(), asked=()) -> str | None:
    """Where the zeros go (PLACES) when `value` is the reference's on the case's image
    zero-padded to a multiple of P, and the image needed padding: "" where several places give
    it (a side one pixel short: blind round 66's b66_14, which pads evenly, was told "at the
    bottom and right" from such a case); else None. The failed case's value only."""
    (planned, outcome), *_ = returned
    value = outcome.value
    arguments = dict(zip(params, planned.args, strict=False))
    image, sizes = arguments.get("image"), tiling_sizes_of({**arguments, **planned.kwargs})
    if (sizes is None or not params or params[0] != "image" or not isinstance(image, np.ndarray)
            or "image" in planned.kwargs):
        return None
    H, W, P = sizes
    if not (H % P or W % P):
        return None
    found = []
    for where, split in PLACES.items():
        pad = (split(-H % P), split(-W % P)) + ((0, 0),) * (image.ndim - 2)
        padded = _reference(check, np.pad(image, pad), planned)
        if padded is not None and alike(padded, value, check.compare or default_compare(padded)):
            found.append(where)
    return None if not found else found[0] if len(found) == 1 else ""


# name -> (whether the value a refusal case returned is that, what is said of it): what a code
# that refuses nothing returns instead
INSTEAD = {
    PADDED: (_padded, "returns what the model solution's gives for the image zero-padded to a "
             "multiple of P{where}: when P does not tile the image, raise ValueError instead of "
             "padding"),
    BATCHED: (_batched, "returns a value for a 4-D array: the model solution's for each of its "
              "images, one after the other, as code written for a batch (MAE's, timm's) gives it; "
              "one image is (H, W) or (H, W, C): raise ValueError for any other shape"),
    EMPTY: (empty_windows, "{where}"),  # refusal_values.py: true of every such case
    NOT_PATCHES: (not_patches, "{where}"),
}
