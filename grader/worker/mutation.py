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


def snapshot(args: list, kwargs: dict) -> list[tuple[object, np.ndarray, np.ndarray]]:
    """(where, the array, its copy) of each array argument: where (`place`) is "#0" (the first
    positional argument), "gamma" (a keyword), "#1['W_q']" (inside one), written out only for
    an array that changed."""
    kept = []
    for label, value in [*enumerate(args), *kwargs.items()]:
        if type(value) is np.ndarray:
            kept.append((label, value, value.copy()))
        elif type(value) is dict or type(value) is list:
            for key, array in (value.items() if type(value) is dict else enumerate(value)):
                if type(array) is np.ndarray and len(kept) < MOST_KEPT:
                    kept.append(((label, key), array, array.copy()))
        if len(kept) >= MOST_KEPT:
            return kept[:MOST_KEPT]
    return kept


def changed(kept: list[tuple[object, np.ndarray, np.ndarray]]) -> list[str]:
    """Where the arrays of `snapshot` differ from their copies (shape, type or any byte)."""
    return [place(where) for where, array, before in kept
            if array.shape != before.shape or array.dtype != before.dtype
            or array.tobytes() != before.tobytes()][:MOST_NAMED]


def place(where) -> str:
    """A snapshot's place of an array in words: "#0", "gamma", "#1['W_q']"."""
    if type(where) is tuple:
        return f"{place(where[0])}[{where[1]!r}]"
    return f"#{where}" if type(where) is int else where
