"""What a rewrite's values are weighed with (the error model's search, __init__.py): the
student's values under the check's comparison (`agree`), how far one is from another
(`distance`), fresh copies of a call's inputs (`fresh`), the size of a call (`elements`), whether
calls show a parameter named right (`named_right`: a default's claim).
"""
from __future__ import annotations

import numpy as np


def agree(same, value, target) -> bool:
    """`same(value, target)`, False where the comparison cannot take the rewrite's value (a
    tuple where a count belongs)."""
    try:
        return bool(same(value, target))
    except (TypeError, ValueError):
        return False


def distance(value, got) -> float | None:
    try:
        a, b = np.asarray(value, dtype=float), np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return None
    if a.shape != b.shape or a.size == 0:
        return None
    with np.errstate(all="ignore"):
        gaps, sizes = np.abs(a - b), np.abs(b)
        kept = np.isfinite(gaps) & np.isfinite(sizes)
        if not kept.any():
            return None
        return float(gaps[kept].mean()) / (float(sizes[kept].mean()) or 1.0)


def fresh(value):
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, (list, tuple)):
        return type(value)(fresh(v) for v in value)
    if isinstance(value, dict):
        return {k: fresh(v) for k, v in value.items()}
    return value


def elements(value) -> int:
    if isinstance(value, np.ndarray):
        return value.size
    if isinstance(value, (list, tuple)):
        return sum(elements(v) for v in value)
    if isinstance(value, dict):
        return sum(elements(v) for v in value.values())
    return 1


def named_right(name: str, position: int, function, calls: list, same) -> bool:
    """Whether one of `calls` names the parameter (`axis=1`, or last of its positional
    arguments) where leaving it out gives another value, and the student's value is right
    there: else the calls cannot tell a default from the parameter ignored altogether (the
    axis hard-coded), and the sentence's "a call that names it is right" is not known."""
    for call in calls:
        if name in call.kwargs:
            args, kwargs = call.args, {k: v for k, v in call.kwargs.items() if k != name}
        elif len(call.args) == position + 1:
            args, kwargs = call.args[:position], call.kwargs
        else:
            continue
        if not agree(same, call.expected, call.got):
            continue
        try:
            left_out = function(*fresh(args), **fresh(kwargs))
        except Exception:  # noqa: BLE001 - the default refuses the input: another value
            return True
        if not agree(same, call.expected, left_out):
            return True
    return False
