"""A listed mistake's `exact_hint:` (docs/spec.md, "Function checks"): said instead of its hint
where the student's values are the known-wrong version's to float64 rounding on every case the
check ran, not only within the check's tolerance.

A check's tolerance cannot tell some mistakes from a near miss: "causal=True hides nothing" is
matched as well by code that applies no mask at all as by code whose fill is too small to matter
(`-1e-10` added above the diagonal), so its hint names both. Where the values are exactly those
of the known-wrong version, the hint may say the one cause (b66_07's `np.where` whose result is
never assigned: "no mask reaches the scores"). Exact is within EXACT of the largest value (at
least 1): below what a fill of -1e-10 changes on scores of unit size (about 1e-11 of the values),
above the rounding of the same attention summed in another order (einsum, the scale on q first:
at most 3e-15 of the values, also where the scores reach 1e4). Float32 code is not exact.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..results import FAILED

EXACT = 1e-13  # of the largest value (at least 1)


def exact(wrong, got) -> bool:
    """Whether `got` is the known-wrong output `wrong` to float64 rounding: the same shape, nan
    where it is nan, and every other value within EXACT of the largest."""
    try:
        a = np.asarray(wrong, dtype=np.float64)
        b = np.asarray(got, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    finite = np.isfinite(a)
    if a.shape != b.shape or not np.array_equal(finite, np.isfinite(b)) or not np.array_equal(
            a[~finite], b[~finite], equal_nan=True):  # nan and each infinity where it is
        return False
    if not finite.any():
        return True
    scale = max(1.0, float(np.max(np.abs(a[finite]))))
    return float(np.max(np.abs(a[finite] - b[finite]))) <= EXACT * scale


def exactly(result, check, ran: list):
    """`result` with its listed mistake's `exact_hint` as hint where the student's value is
    that mistake's exactly (`exact`) on every case of `ran` ((planned case, outcome) pairs) the
    mistake applies to, and a value was returned on each; else `result` as it is."""
    name = result.misconception
    if result.status != FAILED or not name or name.startswith("op:"):
        return result
    known = next((m for m in check.misconceptions if m.like == name), None)
    if known is None or not known.exact_hint:
        return result
    shown = False
    for planned, outcome in ran:
        if planned.expectation()[1] is not None or outcome.status != "ok":
            return result  # a refusal asked for, or none returned: no value to weigh
        applies, wrong = planned.wrong_output(name)
        if not applies:
            continue
        if not exact(wrong, outcome.value):
            return result
        shown = True
    return replace(result, hint=known.exact_hint) if shown else result
