"""What is true of a failed case's value when no mistake is named (issue 38, "say what is
observed, not a guess"): NaN or inf where the expected values are finite, the opposite sign,
one scale factor off everywhere, the same vector added to every row, the right rows in another
order, or only some rows (or columns) wrong. Each is checked on the student's value with the
check's own comparison, so it is true of that value by construction; it names no cause.

`described(result, check, planned, outcome)` is the failed `result` with the first of these
that holds as its hint (an observation), or added to a generalisation's ("right with one head"),
else `result` as it is.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import replace

import numpy as np

from ..compare import agrees, default_compare
from ..results import FAILED, OBSERVATION
from .generalisations import GENERALISATIONS

MAX_ROWS = 64        # rows compared pairwise for an order (64 x 64 comparisons at most)
MAX_COLUMNS = 256    # columns compared pairwise for an order (one pass stops at a miss)
SHOWN = 4            # row or column numbers listed


def described(result, check, planned, outcome, ran=()):
    """`result` with the first observation of OBSERVATIONS that holds of the student's value on
    the failed case, when nothing named its mistake; of a count, what holds of the counts of
    every case that ran (`ran`: (planned case, outcome) pairs), as COUNTS say."""
    generalised = result.misconception in GENERALISATIONS  # "right with one head": add to it
    if (result.status != FAILED or outcome.status != "ok" or (not generalised and (
            result.misconception or result.hint_kind == OBSERVATION))):
        return result
    expected, raises = planned.expectation()
    got = outcome.value
    counted = _counts(check, ran) if _is_count(expected) and _is_count(got) else None
    if counted and generalised:
        return replace(result, hint=f"{result.hint.rstrip('.')}. Here it returns {counted[1]}")
    if counted:
        return replace(result, hint=f"Your `{check.function}` returns {counted[1]}",
                       misconception=counted[0], hint_kind=OBSERVATION)
    shaped = (_shaped(expected, got, check.compare or default_compare(expected),
                      shapes=not check.hidden) if raises is None and not generalised else None)
    if shaped:
        return replace(result, hint=f"Your `{check.function}` returns {shaped[1]}",
                       misconception=shaped[0], hint_kind=OBSERVATION)
    if (raises is not None or not isinstance(expected, np.ndarray)
            or not isinstance(got, np.ndarray) or got.shape != expected.shape or not got.size
            or not np.issubdtype(expected.dtype, np.floating)
            or not np.issubdtype(got.dtype, np.number) or not np.isfinite(expected).all()):
        return result
    how = check.compare or default_compare(expected)
    got = got.astype(np.float64)
    if agrees(expected, got, how):
        return result  # the values are right: it failed for another reason (a dtype, in place)
    terms = row_terms(check, planned, expected.shape[-1]) if expected.ndim >= 2 else {}
    for name, observe in OBSERVATIONS.items():
        words = observe(expected.astype(np.float64), got, how, terms)
        if words and generalised:
            return replace(result, hint=f"{result.hint.rstrip('.')}. Here it returns {words}")
        if words:
            return replace(result, hint=f"Your `{check.function}` returns {words}",
                           misconception=name, hint_kind=OBSERVATION)
    swapped = None if generalised else _transposed(expected, got, how)
    if swapped:  # after the others: what they said of such values before is kept
        return replace(result, hint=f"Your `{check.function}` returns {swapped}",
                       misconception="axes_reordered", hint_kind=OBSERVATION)
    return result


def _is_count(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _counts(check, ran) -> tuple[str, str] | None:
    """(name, words) when the counts of every case that ran and failed are the expected ones
    times one factor, those that passed expected 0 (so that factor too); or the expected ones
    plus one number, none passing. At least two failed: one alone fits any factor."""
    failed, passed = [], []
    for planned, outcome in ran:
        expected, raises = planned.expectation()
        if raises is not None and outcome.status == "raised" and outcome.error.type == raises:
            continue  # a refusal asked for and given: no count
        if (raises is not None or outcome.status != "ok" or not _is_count(expected)
                or not _is_count(outcome.value)):
            return None  # a failure of another kind: no one pattern is true of all of them
        expected, got = int(expected), int(outcome.value)
        if agrees(expected, got, check.compare or default_compare(expected)):
            passed.append(expected)
        else:
            failed.append((expected, got))
    if len(failed) < 2:
        return None
    where = (f"on every case that failed ({len(failed)} of the {len(failed) + len(passed)} "
             "that ran" if passed else "on every case that failed ("
             + (f"all {len(failed)}" if len(failed) > 2 else "both") + " that ran")
    from fractions import Fraction  # with decimal and numbers: ~1 ms a cold grade needs not

    ratios = {Fraction(got, expected) if expected else None for expected, got in failed}
    if not any(passed) and len(ratios) == 1 and None not in ratios and ratios != {0}:
        (ratio,) = ratios
        how = (f"{ratio} times the expected count" if ratio.denominator == 1
               else f"{ratio} of the expected count")
        zeros = "; where it passed, the expected count is 0" if passed else ""
        return "count_scaled", f"{how} {where}{zeros})."
    offsets = {got - expected for expected, got in failed}
    if not passed and len(offsets) == 1:
        (offset,) = offsets
        sign = "plus" if offset > 0 else "minus"
        return "count_offset", f"the expected count {sign} {abs(offset)} {where})."
    return None


def _shaped(expected, got, how, shapes: bool = True) -> tuple[str, str] | None:
    """(name, words) when `got` holds the expected values in another shape: the same values in
    the same order (a reshape given its sizes in another order), or with its axes in another
    order (a transpose); None otherwise. Arrays of up to 4 axes, with the same number of
    elements, the expected ones finite floats. The words give both shapes when `shapes` (not
    for a hidden case: its sizes are its inputs')."""
    if not (isinstance(expected, np.ndarray) and isinstance(got, np.ndarray)
            and got.shape != expected.shape and got.size == expected.size > 1
            and np.issubdtype(expected.dtype, np.floating) and np.issubdtype(got.dtype, np.number)
            and np.isfinite(expected).all() and expected.ndim <= 4):
        return None
    got = got.astype(np.float64)
    sizes = f", shaped {got.shape} where {expected.shape} belongs" if shapes else \
        ", in another shape"
    if agrees(expected.ravel(), got.ravel(), how):
        return "reshaped", (f"the expected values in the expected order{sizes}: only the sizes "
                            "of a reshape differ.")
    for axes in reorderings(expected, got, how):
        return "axes_reordered", (f"the expected values with their axes in another "
                                  f"order, as `value.transpose{axes}` gives them{sizes}.")
    return None


def reorderings(expected, got, how):
    """Each order of `expected`'s axes but their own whose transpose agrees with `got` under
    `how` (same number of axes)."""
    if got.ndim != expected.ndim:
        return
    for axes in itertools.permutations(range(expected.ndim)):
        moved = expected.transpose(axes)
        if (axes != tuple(range(expected.ndim)) and moved.shape == got.shape
                and agrees(moved, got, how)):
            yield axes


def _transposed(expected, got, how) -> str | None:
    """The words when `got`, of the expected shape, holds the expected values with two or more
    of its axes of one length in another order (a convolution's square grid with its rows and
    columns swapped), as `_shaped` says of another shape: a transpose that changes `expected`;
    None otherwise. Arrays of up to 4 axes."""
    if expected.ndim > 4 or got.size < 2:
        return None
    for axes in reorderings(expected, got, how):
        if not agrees(expected.transpose(axes), expected, how):
            return (f"the expected values with their axes in another order, as "
                    f"`value.transpose{axes}` gives them.")
    return None


def _listed(indices) -> str:
    shown = ", ".join(str(int(i)) for i in indices[:SHOWN])
    return shown + (", ..." if len(indices) > SHOWN else "")


def _not_finite(expected, got, how, terms=None) -> str | None:
    bad = ~np.isfinite(got)
    if not bad.any():
        return None
    rows = np.flatnonzero(bad.reshape(len(got), -1).any(axis=1)) if got.ndim else np.array([0])
    where = f" in {len(rows)} of {len(got)} rows (row {_listed(rows)})" if got.ndim else ""
    return (f"NaN or inf{where} where every expected value is finite: look for an overflow "
            "(exp of a large number), a division by zero, inf - inf (a softmax over a row "
            "whose scores are all -inf), or the square root of a negative number (a variance "
            "taken in one pass, mean(x**2) - mean(x)**2, below zero).")


def _constant(expected, got, how, terms=None) -> str | None:
    """One number in every position where the expected values vary (a buffer never filled, a
    product with a zero, the affine parameters in the place of the result)."""
    if got.size < 2 or np.ptp(got) != 0 or agrees(np.full_like(expected, expected.flat[0]),
                                                  expected, how):
        return None
    return (f"the same value, {float(got.flat[0]):.4g}, in every position, where the expected "
            "values vary.")


def _sign(expected, got, how, terms=None) -> str | None:
    if agrees(expected, -got, how):
        return "the expected values with the opposite sign."
    return None


def _factor_words(factor: float) -> str:
    """"1.414 = sqrt(2)", "0.25 = 1/4", or the number alone."""
    for k in range(2, 65):
        forms = [(float(k), str(k)), (1.0 / k, f"1/{k}")]
        if math.isqrt(k) ** 2 != k:
            forms += [(math.sqrt(k), f"sqrt({k})"), (1 / math.sqrt(k), f"1/sqrt({k})")]
        for value, text in forms:
            if abs(factor - value) <= 1e-6 * value:
                return f"{factor:.4g} = {text}" if text != f"{factor:.4g}" else text
    return f"{factor:.4g}"


def _scale(expected, got, how, terms=None) -> str | None:
    norm = float(np.vdot(expected, expected))
    if norm == 0.0:
        return None
    factor = float(np.vdot(got, expected)) / norm
    if (not math.isfinite(factor) or abs(factor) < 1e-12 or abs(abs(factor) - 1.0) < 1e-3
            or not agrees(factor * expected, got, how)):
        return None
    return (f"the expected values times {_factor_words(factor)}, everywhere: one scale "
            "factor is off.")


def row_terms(check, planned, width: int) -> dict[str, np.ndarray]:
    """The failed case's arguments that are one vector of the rows' `width` (a parameter, or an
    entry of a parameter that is a dict: `b_e`, `params["b_e"]`), by how the student API names
    them: what a function could add to every row. None of a function that takes no such one."""
    named = {**dict(zip(check.api.params(check.reference_name), planned.args, strict=False)),
             **{k: v for k, v in planned.kwargs.items() if isinstance(k, str)}}
    found = {}
    for name, value in named.items():
        entries = value.items() if isinstance(value, dict) else [(None, value)]
        for key, entry in entries:
            if key is not None and not (isinstance(key, str) and key.isidentifier()):
                continue
            if (isinstance(entry, np.ndarray) and entry.shape == (width,)
                    and np.issubdtype(entry.dtype, np.number) and np.isfinite(entry).all()):
                found[name if key is None else f'{name}["{key}"]'] = entry.astype(np.float64)
    return found


def _times(factor: float, name: str) -> str:
    """"plus `b`", "minus `b`", "plus 8 times `b`" in every row."""
    sign = "plus" if factor > 0 else "minus"
    size = abs(factor)
    count = "" if abs(size - 1.0) < 1e-6 else f"{_factor_words(size)} times "
    return f"{sign} {count}`{name}`"


def _row_offset(expected, got, how, terms=None) -> str | None:
    """The same vector added to every row: said as a multiple of an argument of that width
    when it is one (`b` counted 9 times, or left out: minus `b`), else as a vector with no cause
    suggested. A vector that is no multiple of `b` is not `b`'s doing as given: a kernel read
    rows for columns shifts every window of a ramp image by one vector too (b35_05), its bias
    added once and right."""
    if expected.ndim < 2 or len(expected) < 2:
        return None
    offset = (got - expected).mean(axis=0)
    if not agrees(expected + offset, got, how) or agrees(expected, expected + offset, how):
        return None
    if np.ptp(offset) <= 1e-12 * max(1.0, float(np.abs(offset).max())):
        return (f"the expected values plus the same number, {float(offset.flat[0]):.4g}, "
                "everywhere.")
    along = (got - expected).reshape(-1, expected.shape[-1]).mean(axis=0)
    for name, vector in (terms or {}).items():
        norm = float(np.vdot(vector, vector))
        factor = float(np.vdot(along, vector)) / norm if norm else 0.0
        if (abs(factor) > 1e-9 and math.isfinite(factor)
                and agrees(expected + factor * vector, got, how)):
            return f"the expected values {_times(factor, name)} in every row."
    return "the expected values plus the same vector in every row."


def _matched(wanted, have, how, noun: str) -> str | None:
    """The moved items listed, "1 is expected row 3, ..." (`noun` "row"), when `have` holds
    `wanted`'s items (each used once) in another order, else None."""
    taken, order = set(), []
    for value in have:
        match = next((j for j, want in enumerate(wanted)
                      if j not in taken and agrees(want, value, how)), None)
        if match is None:
            return None
        taken.add(match)
        order.append(match)
    moved = [i for i, j in enumerate(order) if i != j]
    if not moved:
        return None
    return ", ".join(f"{i} is expected {noun} {order[i]}" for i in moved[:SHOWN]) + (
        ", ..." if len(moved) > SHOWN else "")


def _order(expected, got, how, terms=None) -> str | None:
    if expected.ndim < 1 or not 2 <= len(expected) <= MAX_ROWS:
        return None
    moved = _matched(expected, got, how, "row")
    return None if moved is None else f"the expected rows in another order (your row {moved})."


def _column_order(expected, got, how, terms=None) -> str | None:
    """The expected values with the last axis's entries in another order, the same one in every
    row (a flatten in another order: channels first, rows and columns swapped)."""
    if expected.ndim < 2 or not 2 <= expected.shape[-1] <= MAX_COLUMNS:
        return None
    moved = _matched(expected.reshape(-1, expected.shape[-1]).T,  # one row per column
                     got.reshape(-1, got.shape[-1]).T, how, "column")
    return None if moved is None else (
        f"the expected columns in another order, the same in every row (your column {moved}): "
        "each row's entries flattened in another order.")


def _some_rows(expected, got, how, terms=None) -> str | None:
    """Rows (or columns) right and wrong, when some of each: of a 2-D or larger value only."""
    if expected.ndim < 2:
        return None
    for axis, noun in ((0, "rows"), (1, "columns")):
        n = expected.shape[axis]
        wrong = [i for i in range(n)
                 if not agrees(np.take(expected, i, axis), np.take(got, i, axis), how)]
        right = [i for i in range(n) if i not in wrong]
        if wrong and right:
            if len(wrong) <= len(right):
                return (f"the expected values except in {len(wrong)} of {n} {noun} "
                        f"({noun[:-1]} {_listed(wrong)}).")
            return (f"the expected values only in {len(right)} of {n} {noun} "
                    f"({noun[:-1]} {_listed(right)}); the others differ.")
    return None


# name -> a test of (expected, got, comparison) giving the words after "Your `f` returns ",
# None when it does not hold; the first that holds is said
OBSERVATIONS = {"not_finite": _not_finite, "constant": _constant, "sign_flipped": _sign,
                "scaled": _scale, "columns_reordered": _column_order,
                "offset_rows": _row_offset, "rows_reordered": _order, "some_rows_wrong": _some_rows}
TITLES = {"not_finite": "NaN or inf where values are finite",
          "constant": "one value everywhere", "sign_flipped": "opposite sign",
          "scaled": "one scale factor off", "offset_rows": "the same vector added to every row",
          "rows_reordered": "right rows, another order",
          "columns_reordered": "right columns, another order",
          "some_rows_wrong": "only some rows wrong",
          "count_scaled": "every count one factor off",
          "reshaped": "right values, reshaped", "axes_reordered": "right values, axes reordered",
          "count_offset": "every count one number off"}
COUNTS = ("count_scaled", "count_offset")  # said of counts, from every case that ran
SHAPED = ("reshaped", "axes_reordered")  # said of a value of another shape (`_shaped`)
