"""Which of a call's array arguments the student's function changed in place.

Every call gets fresh arrays (values.Decoder), so a function that writes into its input
(`x -= mean`) returns the right value and harms no later call; a caller that uses the array
again (a residual adds `x` back) gets the damage. The worker keeps a copy of each array argument
(at the top level, and one level inside a list or a dict: a parameter dict) and names those that
differ after the call. Costs one copy of the inputs per call: they are small.
"""
from __future__ import annotations

import numpy as np

MOST_KEPT, MOST_NAMED = 256, 16


def snapshot(args: list, kwargs: dict) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(where, the array, its copy) of each array argument: where is "#0" (the first positional
    argument), "gamma" (a keyword), "#1['W_q']" (inside one)."""
    kept = []
    for label, value in [*((f"#{i}", a) for i, a in enumerate(args)), *kwargs.items()]:
        inner = (value.items() if type(value) is dict
                 else enumerate(value) if type(value) is list else ())
        for where, array in [(label, value), *((f"{label}[{key!r}]", v) for key, v in inner)]:
            if type(array) is np.ndarray and len(kept) < MOST_KEPT:
                kept.append((where, array, array.copy()))
    return kept


def changed(kept: list[tuple[str, np.ndarray, np.ndarray]]) -> list[str]:
    """Where the arrays of `snapshot` differ from their copies (shape, type or any byte)."""
    return [where for where, array, before in kept
            if array.shape != before.shape or array.dtype != before.dtype
            or array.tobytes() != before.tobytes()][:MOST_NAMED]


def holding(kept: list[tuple[str, np.ndarray, np.ndarray]], changed_places: list[str],
            value) -> list[str]:
    """Those of `changed_places` whose array, after the call, holds the value it returned: the
    returned array itself, or one of its shape, type and bytes (`x -= m; return x`: the caller's
    `x` is overwritten with the result)."""
    if type(value) is not np.ndarray:
        return []
    return [where for where, array, _ in kept if where in changed_places
            and (array is value or (array.shape == value.shape and array.dtype == value.dtype
                                    and array.tobytes() == value.tobytes()))]
