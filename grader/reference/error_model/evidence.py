"""What a rewrite's values are weighed with (the error model's search, __init__.py): the
student's values under the check's comparison (`agree`), how far one is from another
(`distance`), fresh copies of a call's inputs (`fresh`), the size of a call (`elements`).
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
