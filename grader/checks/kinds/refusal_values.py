"""What a value returned where a refusal was due is, said where it is true of every refusal case
of the check the code returned a value on (issue 38, "name a missing refusal by what the code
does instead"); refusal_observations.py's INSTEAD holds them beside the padded and batched images.

- EMPTY: an array with an axis of length 0 for a k x k kernel taller or wider than the image (a
  loop or an im2col with no test that the kernel fits runs no window: b77_07's (3, 0, 2));
- NOT_PATCHES: rows of other than P x P x C values for an image P does not tile, where the
  function's expected rows are P x P x C values on images P tiles (blocks of H // (H // P)
  pixels: b77_10's 2 x 1440 for a 30 x 32 x 3 image with P = 16).

Each says, when it is true on every such case, that the code warned instead of raising (a
warning printed in the call's output: the worker shows one warning once per line, so a second
case rarely shows it), and for a kernel, where another refusal case raised ValueError from a
line of the student's that is no `raise` (numpy refusing an empty result's reshape), that this
refusal is not a test of the student's own. Each takes (check, params, returned, ran, asked):
`returned`, (planned case, outcome) of the refusal cases that returned a value, the failed one
first; `ran`, the check's cases and their outcomes; `asked`, the planned cases of the function's
checks. None where the observation does not hold. No reference: the student bundle says them too.
"""
from __future__ import annotations

import re

import numpy as np

from ..raised_here import raising_statement
from .generalisations import case_arguments

WARNING = re.compile(r"\b(\w*Warning): ([^\n]*)")
OWN_RAISE = re.compile(r"raise\b")  # a line that raises by itself, as guards.OWN_STATEMENT
EMPTY = "empty_for_large_kernel"  # an empty array for a kernel larger than a side
NOT_PATCHES = "rows_not_patches"  # rows of other than P x P x C values, P not tiling


def tiling_sizes_of(arguments) -> tuple[int, int, int] | None:
    """(H, W, P) of a tiling question: a counting function's sizes, or an image's first axes."""
    P = arguments.get("P")
    image = arguments.get("image")
    H, W = (np.shape(image)[:2] if image is not None and np.ndim(image) >= 2
            else (arguments.get("H"), arguments.get("W")))
    numbers = (H, W, P)
    if not all(isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in numbers):
        return None
    return (int(H), int(W), int(P)) if int(P) > 0 else None


def _kernel_sizes(arguments) -> tuple[int, int, int, int] | None:
    """(H, W, kh, kw) of a call with an image of 2 or 3 axes and a kernel K of 4, else None."""
    image, kernel = arguments.get("image"), arguments.get("K")
    if image is None or kernel is None or np.ndim(image) not in (2, 3) or np.ndim(kernel) != 4:
        return None
    (H, W), (kh, kw) = np.shape(image)[:2], np.shape(kernel)[:2]
    return int(H), int(W), int(kh), int(kw)


def _too_large(sizes) -> str:
    """"a 3x3 kernel on a 2-pixel-wide image" (the side it does not fit, or both)."""
    H, W, kh, kw = sizes
    side = (f"a {H} x {W} image" if kh > H and kw > W else f"a {W}-pixel-wide image"
            if kw > W else f"a {H}-pixel-high image")
    return f"a {kh}x{kw} kernel on {side}"


def _warned(returned) -> str:
    """"; it warned (`UserWarning: ...`) instead" where every case's output shows a warning."""
    found = [WARNING.search(outcome.stdout or "") for _, outcome in returned]
    if not found or not all(found):
        return ""
    kind, message = found[0].groups()
    return f"; it issued a {kind} (\"{message.strip()[:80]}\") instead of raising"


def _not_own(params, ran: list, hidden: bool) -> str:
    """" (its ValueError for ... came from your line `...`, not a `raise` of yours)" where a
    refusal case of the check raised its exception from a student line that raises nothing by
    itself: a refusal numpy made, which is no test (b77_07's reshape of an empty result)."""
    for planned, outcome in ran:
        raises = planned.expectation()[1]
        if raises is None or outcome.status != "raised" or outcome.error.type != raises:
            continue
        statement = raising_statement(outcome.error.traceback)
        sizes = _kernel_sizes(case_arguments(params, {}, planned))
        if statement and not OWN_RAISE.match(statement) and sizes is not None:
            case = "on another case" if hidden else f"for {_too_large(sizes)}"
            return (f" (its {raises} {case} came from your line `{statement}`, not a `raise` of "
                    "yours: nothing of yours tests that)")
    return ""


def empty_windows(check, params, returned: list, ran=(), asked=()) -> str | None:
    """The words of an empty array returned for a kernel larger than a side of the image, where
    every case in `returned` is one; else None."""
    sizes = [_kernel_sizes(case_arguments(params, {}, p)) for p, _ in returned]
    if not all(s is not None and (s[2] > s[0] or s[3] > s[1]) for s in sizes) or not all(
            isinstance(o.value, np.ndarray) and o.value.ndim and 0 in o.value.shape
            for _, o in returned):
        return None
    if check.hidden:
        said = ("an empty array (an axis of length 0: no window fits) for a kernel larger than "
                "a side of the image")
    else:
        others = len(returned) - 1
        said = (f"an empty array of shape {returned[0][1].value.shape} (no window fits) for "
                f"{_too_large(sizes[0])}" + (f" (and on {others} other such case"
                                             f"{'s' * (others > 1)})" if others else ""))
    return (f"returned {said}, where it must raise ValueError{_warned(returned)}: test that the "
            "kernel fits both sides (k <= H and k <= W) before sliding"
            f"{_not_own(params, ran, check.hidden)}")


def _patch_values(arguments) -> int | None:
    """P x P x C of a case's image (2-D: one channel) P does not tile, else None."""
    image, sizes = arguments.get("image"), tiling_sizes_of(arguments)
    if sizes is None or np.ndim(image) not in (2, 3):
        return None
    H, W, P = sizes
    if not (H % P or W % P):
        return None
    return P * P * (1 if np.ndim(image) == 2 else np.shape(image)[2])


def _returns_patches(params, asked: list) -> bool:
    """Whether the model solution's value is (H/P * W/P, P x P x C) on every case of `asked`
    (planned cases of the function's checks) due a value on an image P tiles, and there is one:
    a function that returns patches, not their embedding. Its expected values only (the student
    bundle has no reference)."""
    seen = False
    for planned in asked:
        expected, raises = planned.expectation()
        arguments = case_arguments(params, {}, planned)
        sizes, image = tiling_sizes_of(arguments), arguments.get("image")
        if raises is not None or sizes is None or np.ndim(image) not in (2, 3):
            continue
        H, W, P = sizes
        C = 1 if np.ndim(image) == 2 else np.shape(image)[2]
        if np.shape(expected) != ((H // P) * (W // P), P * P * C):
            return False
        seen = True
    return seen


def not_patches(check, params, returned: list, ran=(), asked=()) -> str | None:
    """The words of rows of other than P x P x C values returned for an image P does not tile,
    where every case in `returned` returned such rows and the function returns patches; else
    None."""
    if not params or params[0] != "image" or not _returns_patches(params, asked):
        return None
    wanted = [_patch_values(case_arguments(params, {}, p)) for p, _ in returned]
    if not all(n is not None and isinstance(o.value, np.ndarray) and o.value.ndim == 2
               and len(o.value) and o.value.shape[1] != n
               for n, (_, o) in zip(wanted, returned, strict=True)):
        return None
    fix = "raise ValueError when P does not divide H or W"
    if check.hidden:
        return (f"returned rows of other than P x P x C values (not P x P patches) for images "
                f"P does not tile{_warned(returned)}: {fix}")
    planned, outcome = returned[0]
    arguments = case_arguments(params, {}, planned)
    H, W, P = tiling_sizes_of(arguments)
    channels = "" if np.ndim(arguments["image"]) == 2 else f" x {np.shape(arguments['image'])[2]}"
    n, v = outcome.value.shape
    return (f"returned {n} patch{'es' * (n != 1)} of {v} values each for a {H} x {W}{channels} "
            f"image with P = {P} (patches of {P} x {P}{channels} = {wanted[0]} values would not "
            f"tile it){_warned(returned)}: {fix}")
