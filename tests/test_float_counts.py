"""A count returned as a float (blind round 64's b64_12: `np.floor((width - patchSize) /
stride) + 1` per side): the listed float count is said only in words true of any float count,
at the student's own lines that make it one; and a listed mistake whose integer the student's
float equals is named, with the float said too, never where the values differ."""
from __future__ import annotations

import numpy as np

from grader.checks.compare import Compare
from grader.checks.kinds.mistakes import float_too, output_matches
from grader.report import quotes
from grader.report.quotes import Source
from grader.report.steps import placed

COUNT = Compare(mode="count")
FLOORED = ("def num_patches(H, W, P):\n"
           "    numPatchesX = np.floor((W - P) / P) + 1\n"
           "    numPatchesY = np.floor((H - P) / P) + 1\n"
           "    return numPatchesY * numPatchesX\n")


def test_an_integral_float_matches_the_listed_integer_it_equals_and_no_other():
    assert output_matches(2, np.float64(2.0), COUNT)
    assert output_matches(2, 2.0, COUNT)
    assert not output_matches(2, np.float64(2.5), COUNT)
    assert not output_matches(3, np.float64(2.0), COUNT)
    assert not output_matches(True, 1.0, COUNT)
    # a mistake whose integer is the right count names nothing of a right value in floats
    assert not output_matches(4, 4.0, COUNT, expected=4)
    assert output_matches(4.0, np.float64(4.0), COUNT)  # a float mistake, as before


def test_the_float_is_said_with_the_mistake_only_where_the_student_s_value_is_one():
    hint = "You returned (H // P) * (W // P): floor division drops pixels."
    told = float_too(hint, 2, np.float64(2.0))
    assert told.startswith(hint) and "also a float" in told, told
    assert float_too(hint, 2, 2) == hint
    assert float_too(hint, 2.0, np.float64(2.0)) == hint  # the mistake is itself a float
    assert float_too(hint, np.array([2]), np.array([2.0])) == hint


def test_the_line_that_makes_a_count_a_float_is_the_student_s_own_or_none():
    hint = f"In `num_patches`, the number is right but it is a float{quotes.FLOAT_LINE}: a count."
    assert placed(hint, None) == hint
    told = placed(hint, Source([FLOORED]))
    assert ("(at your lines `numPatchesX = np.floor((W - P) / P) + 1` and `numPatchesY = "
            "np.floor((H - P) / P) + 1`)") in told, told
    one = FLOORED.replace("np.floor((H - P) / P) + 1", "H // P")
    assert "(at your line `numPatchesX = np.floor((W - P) / P) + 1`)" in placed(
        hint, Source([one])), placed(hint, Source([one]))
    none = "def num_patches(H, W, P):\n    return float((H // P) * (W // P))\n"
    assert "(at your line `return float((H // P) * (W // P))`)" in placed(hint, Source([none]))
    ints = "def num_patches(H, W, P):\n    return (H // P) * (W // P) * 1.0\n"
    assert placed(hint, Source([ints])) == hint.replace(quotes.FLOAT_LINE, "")
