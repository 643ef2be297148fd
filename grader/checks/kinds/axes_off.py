"""A failed case whose value is the expected one with an axis of length 1 added, dropped or
moved (HF's batch axis kept in a port to one image; keepdims dropped; torch's channels first
for one channel): said as that, an observation (issue 38, "say what is observed").
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from grader.spec.model import Check

from ..cases import PlannedCase
from ..compare import agrees, default_compare
from ..results import FAILED, OBSERVATION

ONE_AXIS_OFF = "one_axis_off"  # the right values with axes of length 1 added, dropped or moved


def observed(result, check: Check, planned: PlannedCase, outcome):
    """`result` with what is true of the student's value when it is the expected one with an
    axis of length 1 added, dropped or moved (HF's batch axis kept in a port to one image;
    keepdims dropped; torch's channels first, for one channel), as an observation; else `result`
    as it is. "Missing" or "extra" only when exactly that axis is (`_axes_off`)."""
    if result.status != FAILED or result.misconception or outcome.status != "ok":
        return result
    expected, raises = planned.expectation()
    value = outcome.value
    if (raises is not None or not isinstance(value, np.ndarray)
            or not isinstance(expected, np.ndarray) or value.shape == expected.shape
            or [n for n in value.shape if n != 1] != [n for n in expected.shape if n != 1]):
        return result
    how = check.compare or default_compare(expected)
    if not agrees(expected, value.reshape(expected.shape), how, equal_nan=True):
        return result
    words = _axes_off(value.shape, expected.shape)
    return replace(result, hint=f"Your `{check.function}` returns the right values{words}.",
                   misconception=ONE_AXIS_OFF, hint_kind=OBSERVATION)


def _without_one(shape: tuple, axis: int) -> tuple:
    return shape[:axis] + shape[axis + 1:]


def _axes_off(got: tuple, expected: tuple) -> str:
    """The words after "the right values": what is true of them in shape `got` where `expected`
    is asked for, the two alike but for axes of length 1: one extra, one missing, or the same
    axes in another order (torch's channels first, for one channel), else the two shapes."""
    if len(got) == len(expected) + 1 and any(
            n == 1 and _without_one(got, i) == expected for i, n in enumerate(got)):
        return (", with an extra axis of length 1 (a batch axis kept from batched code?): "
                "return them without it")
    if len(got) + 1 == len(expected) and any(
            n == 1 and _without_one(expected, i) == got for i, n in enumerate(expected)):
        return ", with an axis of length 1 missing: keep it (keepdims=True, or [None])"
    shapes = f"shape {got} where {expected} is expected"
    if len(got) == len(expected) and sorted(got) == sorted(expected):
        ones = [i for i, n in enumerate(expected) if n == 1]
        place = ("first" if ones == [0] else "last" if ones == [len(expected) - 1]
                 else f"at position {ones[0]}" if len(ones) == 1 else None)
        return (f", with their axes in another order: {shapes}"
                + (f"; the axis of length 1 belongs {place}" if place else ""))
    return f" in {shapes}: the two differ in axes of length 1 only"
