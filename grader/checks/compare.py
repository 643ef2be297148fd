"""Compare what a student returned with what was expected, and say how it differs.

`compare(expected, got, how)` returns None when they agree, else a `Mismatch` whose lines
a student can read: shapes first, then the first differing index and a few values.
`agrees(expected, got, how)` is the same decision without the lines (one comparison, asked
with or without an explanation).
`got` is plain data from the worker; nothing here calls a method the submission wrote.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass, replace

import numpy as np

from .describe import describe

MAX_ELEMENTS = 50_000_000   # a larger answer is refused before any arithmetic on it


@dataclass(frozen=True)
class Compare:
    """How a call check compares (its `compare:`)."""
    mode: str = "allclose"          # count | equal | allclose
    rtol: float = 1e-5
    atol: float = 1e-6


def default_compare(expected) -> Compare:
    """The comparison a value's type suggests: counts exactly, floats and arrays closely."""
    if isinstance(expected, (int, np.integer)) and not isinstance(expected, bool):
        return Compare(mode="count")
    if isinstance(expected, (np.ndarray, float, np.floating)):
        return Compare(mode="allclose")
    return Compare(mode="equal")


@dataclass(frozen=True)
class Mismatch:
    """Why a value is not the expected one: both, shown, and what differs."""
    expected: str
    got: str
    detail: str = ""

    def lines(self) -> list[str]:
        out = [f"expected: {self.expected}", f"got:      {self.got}"]
        if self.detail:
            out.append(self.detail)
        return out


def compare(expected, got, how: Compare, equal_nan: bool = False) -> Mismatch | None:
    """None when `got` agrees with `expected`, else how it differs; `equal_nan` lets nan (and
    inf) match where `expected` has the same."""
    return _compared(expected, got, how, equal_nan, explain=True)


def agrees(expected, got, how: Compare, equal_nan: bool = False) -> bool:
    """Whether `got` agrees with `expected`, as `compare` decides, without saying how they
    differ: the mistakes search asks this of every known-wrong output of a failed case."""
    return _compared(expected, got, how, equal_nan, explain=False) is None


def same_data(a, b) -> bool:
    """Whether `a` and `b` hold the same data exactly, whatever the comparison a check makes:
    lists and tuples alike (JSON carries both as one), arrays and numbers element by element
    and of one kind (NaN equal to NaN; an integer is no float). A pair where a count belongs,
    returned twice or by a rewrite, is the same pair, though a count's comparison cannot take
    it."""
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple))
                and len(a) == len(b) and all(map(same_data, a, b)))
    if isinstance(a, dict) or isinstance(b, dict):
        return (isinstance(a, dict) and isinstance(b, dict) and list(a) == list(b)
                and all(same_data(a[k], b[k]) for k in a))
    a, b = np.asarray(a), np.asarray(b)
    if _kind(a) != _kind(b):  # 48.0 where the count 48 belongs is not the same
        return False
    try:
        return bool(np.array_equal(a, b, equal_nan=True))
    except (TypeError, ValueError):
        return bool(np.array_equal(a.astype(object), b.astype(object)))


def alike(value, target, how: Compare) -> bool:
    """The same data (same_data), or within `how`; False where the comparison cannot take the
    values (a pair where a count belongs): a rewrite's value against the student's, or one call
    of the student's against another."""
    if same_data(value, target):
        return True
    try:
        return agrees(value, target, how, equal_nan=True)
    except (TypeError, ValueError):
        return False


def _kind(array: np.ndarray) -> str:
    return "i" if array.dtype.kind in "iu" else array.dtype.kind


# What the comparison returns for a difference it was not asked to explain (agrees()).
DIFFERENT = Mismatch("", "")


def _compared(expected, got, how: Compare, equal_nan: bool, explain: bool) -> Mismatch | None:
    if how.mode == "count":
        return _compare_count(expected, got, explain)
    if how.mode == "equal":
        return _compare_equal(expected, got, explain)
    return _compare_close(expected, got, how.rtol, how.atol, equal_nan, explain)


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def float_of_count(count, got) -> bool:
    """Whether `got` is a float equal to the integer `count` (2.0 for 2): the count a mistake
    gives, computed in floats (blind round 64's `np.floor((W - P) / P) + 1` per side)."""
    return (_is_int(count) and isinstance(got, (float, np.floating))
            and float(got) == int(count))


def _compare_count(expected, got, explain: bool) -> Mismatch | None:
    if _is_int(got) and int(got) == int(expected):
        return None
    if (isinstance(expected, (float, np.floating)) and isinstance(got, (float, np.floating))
            and float(got) == float(expected)):
        return None  # a float where a float is expected: a count computed in floats, as a
        # rewrite of the reference (error_model.counts) and the student's code both return
    if not explain:
        return DIFFERENT
    if float_of_count(expected, got):  # a float expected and equal returned None above
        return Mismatch(f"{expected} (an integer)", describe(got),
                        "the value is right but it is a float: a count is an integer. "
                        "Compute it in integers (// rather than /, ** rather than math.pow), "
                        "or return int(...).")
    return Mismatch(describe(expected), describe(got))


def _repeated(expected, got) -> str:
    """What an item that holds the expected number several times shows: a (height, width) pair
    where one number is asked for (Keras' kernel_size=(P, P))."""
    if (_is_int(expected) and isinstance(got, (list, tuple)) and len(got) > 1
            and all(_is_int(g) and g == expected for g in got)):
        return (f": each of its {len(got)} values is the expected {expected}; return the one "
                "number, not a pair of it")
    return ""


def _compare_equal(expected, got, explain: bool) -> Mismatch | None:
    if isinstance(expected, (list, tuple)):
        if not isinstance(got, (list, tuple, np.ndarray)) or len(got) != len(expected):
            if not explain:
                return DIFFERENT
            return Mismatch(describe(expected), describe(got),
                            f"expected a tuple or list of {len(expected)} values")
        for i, (e, g) in enumerate(zip(expected, list(got), strict=True)):
            if _compare_equal(e, g, explain=False) is not None:
                if not explain:
                    return DIFFERENT
                return Mismatch(describe(expected), describe(got),
                                f"item {i}: expected {describe(e)}, got {describe(g)}"
                                + _repeated(e, g))
        return None
    if _is_int(expected):
        return _compare_count(expected, got, explain)
    if isinstance(expected, np.ndarray):
        array = _numeric(got)
        if isinstance(array, tuple):
            if not explain:
                return DIFFERENT
            return _not_numeric(got, *array)
        if array.shape != expected.shape or not np.array_equal(array, expected):
            return _compare_close(expected, got, 0.0, 0.0, explain=explain)
        return None
    if isinstance(expected, str) and isinstance(got, str):
        if expected.strip().lower() == got.strip().lower():
            return None
        if not explain:
            return DIFFERENT
        return Mismatch(repr(expected), repr(got))
    if type(got).__name__ == "ForeignObject" or type(expected) is not type(got) and not (
            isinstance(expected, numbers.Number) and isinstance(got, numbers.Number)):
        if not explain:
            return DIFFERENT
        return Mismatch(describe(expected), describe(got))
    if expected == got:
        return None
    if not explain:
        return DIFFERENT
    return Mismatch(describe(expected), describe(got))


def as_array(got) -> np.ndarray | Mismatch:
    """`got` as a plain numeric ndarray, or a Mismatch saying why it is not one."""
    array = _numeric(got)
    return _not_numeric(got, *array) if isinstance(array, tuple) else array


def _not_numeric(got, what: str, why: str) -> Mismatch:
    shown = f"an array with {np.size(got)} elements" if why == TOO_LARGE else describe(got)
    return Mismatch(what, shown, why)


TOO_LARGE = "far larger than the answer can be"


def _numeric(got) -> np.ndarray | tuple[str, str]:
    """`got` as a plain numeric ndarray, or (what was expected, why it is not one)."""
    if isinstance(got, np.ndarray):
        array = got
    elif isinstance(got, (list, tuple, numbers.Number, np.generic)) and not isinstance(got, bool):
        try:
            array = np.asarray(got)
        except (ValueError, TypeError):
            return "an array", "this cannot be read as one numeric array"
    else:
        return "an array", "return a numpy array"
    if array.dtype.kind not in "biuf":
        return "an array of numbers", f"its dtype is {array.dtype}: return real numbers"
    if array.size > MAX_ELEMENTS:
        return "an array", TOO_LARGE
    return array


def _compare_close(expected, got, rtol: float, atol: float, equal_nan: bool = False,
                   explain: bool = True) -> Mismatch | None:
    expected = np.asarray(expected, dtype=np.float64)
    array = _numeric(got)
    if isinstance(array, tuple):
        if not explain:
            return DIFFERENT
        return replace(_not_numeric(got, *array), expected=f"array {expected.shape}")
    if array.shape != expected.shape:
        if not explain:
            return DIFFERENT
        return Mismatch(f"array of shape {expected.shape}", f"array of shape {array.shape}",
                        _shape_advice(expected.shape, array.shape))
    array = array.astype(np.float64, copy=False)
    if _close(expected, array, rtol, atol, equal_nan):  # in a few array operations
        return None
    if not explain:  # agrees(): only whether (the search asks often)
        return DIFFERENT
    if equal_nan:
        same = (np.isnan(array) & np.isnan(expected)) | (np.isinf(array) & (array == expected))
        if same.any():
            array, expected = np.where(same, 0.0, array), np.where(same, 0.0, expected)
    bad = ~np.isfinite(array)
    if bad.any() and np.isfinite(expected).all():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        return Mismatch(describe(expected), describe(got),
                        f"your answer has {array[index]} at index {list(index)}")
    with np.errstate(invalid="ignore", over="ignore"):
        excess = np.abs(array - expected) - (atol + rtol * np.abs(expected))
    excess = np.where(np.isnan(excess), np.inf, excess)  # _close said some value is off
    index = np.unravel_index(int(np.argmax(excess)), expected.shape) if expected.ndim else ()
    first = tuple(int(i) for i in np.argwhere(excess > 0)[0]) if expected.ndim else ()
    with np.errstate(invalid="ignore"):  # inf - inf
        worst = float(np.abs(array - expected).max())
    detail = (f"first difference at index {list(first)}: expected {expected[first]:.6g}, "
              f"got {array[first]:.6g}; largest difference {worst:.3g} at "
              f"{list(int(i) for i in index)} ({int((excess > 0).sum())} of {expected.size} "
              f"values off; tolerance atol={atol:g}, rtol={rtol:g})")
    return Mismatch(describe(expected), describe(got), detail)


def _close(expected: np.ndarray, array: np.ndarray, rtol: float, atol: float,
           equal_nan: bool) -> bool:
    """What the lines below decide, without saying how: every value within the tolerance of a
    finite expected one, or (equal_nan) nan where it has nan, the same infinity where it has one."""
    with np.errstate(invalid="ignore", over="ignore"):
        close = (np.abs(array - expected) <= atol + rtol * np.abs(expected)) & np.isfinite(expected)
    if equal_nan and not close.all():
        close |= (np.isnan(array) & np.isnan(expected)) | (np.isinf(array) & (array == expected))
    return bool(close.all())


def _shape_advice(expected: tuple, got: tuple) -> str:
    if tuple(reversed(got)) == expected and len(got) == 2:
        rows = "tokens" if expected[0] < expected[1] else "the first axis"
        return "the shape is transposed: rows should be " + rows
    if int(np.prod(got)) == int(np.prod(expected)):
        return "same number of values, different shape: check your reshape"
    return ""
