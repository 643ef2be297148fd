"""A refusal the student's code does not make, beside a mistake in the values it returns
(refusals.py's `named_refusal`): the tiling test's edit, what that edit does to the sizes it
lets through, and one value mistake, tried together (issue 38). No reference here: the caller
passes its rewrites' names and how to run them."""
from __future__ import annotations

from .mistakes import JOIN

REFUSED_EMPTY = "-none-fitting-refused"  # error_model/tiling.py's crop that refuses no patch
ONE_SIDE = ":kernel_one_side:"  # error_model/kernel_fit.py's test of one side of the image
ZERO_DIVISION = "-zero-division"  # error_model/equal_blocks.py's cut: np.split into 0 parts


def plainest(found: list[str]) -> list[str]:
    """`found` without the claims a simpler one found beside it makes needless: a name whose crop
    refuses an image with no whole patch where the same name with the plain crop is found too
    (no call asked for such an image), or whose equal blocks raise ZeroDivisionError there where
    the same name with the plain cut is found too (a test refused every such image first), and,
    where several names are left, a kernel test of one side only (the probes cannot tell it from
    no test at all: b41_06)."""
    found = [name for name in found if all(
        mark not in name or name.replace(mark, "") not in found
        for mark in (REFUSED_EMPTY, ZERO_DIVISION))]
    if len(found) > 1:
        found = [name for name in found if ONE_SIDE not in name] or found
    return found


def with_what_it_lets_through(tests: list, after: list, singles, returned: list, returns_value,
                              reproduces, elsewhere) -> list[str]:
    """A test, what its edit does to the sizes it lets through (`after`: the image cropped to the
    patches that fit), and the one value mistake (a single of the search) that reproduces every
    value the code returned where the reference returns one too: JAX k-means' `patchify`, which
    trims the excess (`arr[:ph * p, :pw * p]`, no test) and numbers the patches down the
    columns, needs all three. Each triple is named only where it reproduces every call."""
    tiled = [(a, k, o) for a, k, o in returned if returns_value(a, k) is not None]
    if not (tests and after and tiled):
        return []
    values = [e.name for e in singles if e.operator not in elsewhere
              and reproduces(e.name, tiled)]
    return [JOIN.join((test, count, value)) for value in values for test in tests
            for count in after if count != value and reproduces(JOIN.join((test, count, value)))]


def exactly(found: list[str], said, reproduces) -> list[str]:
    """`found` with a guard that raises Python's own error (error_model/guards.py's SAID: `H, W,
    C = image.shape` on a gray image) kept only where it raises the student's very message, and
    then preferred: a guard that raises any exception claims less than the code shows."""
    def says(name: str) -> bool:
        return any(part.rsplit(":", 1)[-1] in said for part in name.split(JOIN))
    exact = [name for name in found if says(name) and reproduces(name, message=True)]
    return exact or [name for name in found if not says(name)]


def needed_here(name: str, own: list, reproduces, refusing: set) -> str:
    """`name` without the value mistakes a check of refusals only does not need (`own`: its
    cases, (args, kwargs, outcome), each due an exception): one whose removal still reproduces
    every one of them, values included, is left to the checks that show it (round 54: b54_01's
    channel order told on a ValueError check of blank images, b54_05's uint8 buffer on one of
    float images). A test or a guard (`refusing`) always stays: it is what such a check tests."""
    parts = name.split(JOIN)
    for part in reversed(list(parts)):
        fewer = [p for p in parts if p != part]
        if part not in refusing and fewer and reproduces(JOIN.join(fewer), own):
            parts = fewer
    return JOIN.join(parts)


def test_needed(found: list[str], tests: list, reproduces) -> list[str]:
    """`found` without the groups whose refusal test (a part in `tests`) the calls do not need:
    the other parts alone reproduce every call, raises by their type (a value mistake whose
    windows run off the image raises numpy's ValueError where the code raised, and a kernel
    larger than the image raises ValueError with the reference's test kept). A test claimed
    there says what the calls do not show (blind round 56's b56_08: a column offset taken from
    the row index, told "nothing tests that the kernel fits" of code that tests it)."""
    def idle(name: str) -> bool:
        rest = [part for part in name.split(JOIN) if part not in tests]
        return 0 < len(rest) < len(name.split(JOIN)) and reproduces(JOIN.join(rest))
    return [name for name in found if not idle(name)]


def apart(found: list[str], guards: list, raises) -> list[str]:
    """`found`, where several are left, without the pairs of a guard (error_model/guards.py) and a
    value mistake that itself raises where the reference returns a value (`raises(name)`: a grid
    counted from the height, numpy's broadcast error on every non-square image): the guard
    already says why those calls raise, and the value mistake is told by the values only
    (b55_01: a square-only assert and a channel-first flatten, not a square grid besides)."""
    if len(found) < 2:
        return found
    kept = [name for name in found if not (
        any(part in guards for part in name.split(JOIN))
        and any(part not in guards and raises(part) for part in name.split(JOIN)))]
    return kept or found


def placed(found: list[str], places, unplaced: str) -> list[str]:
    """`found` with the padding's place (error_model/tiling.py's PADS) said only where the calls
    tell it: the place-free edit (`unplaced`, found wherever the bottom-and-right one is) is kept
    only where several places reproduce them all, and then in their place (a linear patch
    embedding of zero weights: any padding gives zeros; b45_12 was told "at the bottom and
    right" by no call that showed it)."""
    def siblings(name: str) -> list[str]:
        return [name.replace(f":{unplaced}", f":{place}") for place in places
                if place != unplaced]
    blind = [name for name in found if f":{unplaced}" in name
             and sum(other in found for other in siblings(name)) > 1]
    hidden = {other for name in blind for other in siblings(name)}
    return [name for name in found if name not in hidden
            and (f":{unplaced}" not in name or name in blind)]
