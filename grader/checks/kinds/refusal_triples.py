"""A refusal the student's code does not make, beside a mistake in the values it returns
(refusals.py's `named_refusal`): the tiling test's edit, what that edit does to the sizes it
lets through, and one value mistake, tried together (issue 38). No reference here: the caller
passes its rewrites' names and how to run them."""
from __future__ import annotations

from .mistakes import JOIN

REFUSED_EMPTY = "-none-fitting-refused"  # error_model/tiling.py's crop that refuses no patch


def plainest(found: list[str]) -> list[str]:
    """`found` without a name whose crop refuses an image with no whole patch where the same
    name with the plain crop is found too: no call asked for such an image, and the plain crop
    is the simpler claim."""
    return [name for name in found
            if REFUSED_EMPTY not in name or name.replace(REFUSED_EMPTY, "") not in found]


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
