"""Blind round 62: the patch grid taken as square (b62_11, SD3.5's unpatchify ported into
`patchify`: `h = w = int((H * W // (p * p)) ** 0.5)`), named by error_model/square_grid.py with
the student's own line (quotes.OWN_LINE, steps.placed); and a quote of what the student's code
computes kept only where their function holds it (quotes.EFFECT): b62_04's `np.sum(e,
keepdims=True)` where the code has `np.sum(res)`, b62_09's `H * W // (P * P)` where it has
`int(H*W/(P*P))`. The snippets are written for these tests, not the round's files."""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from grader.checks.compare import Compare, agrees
from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.report import quotes
from grader.report.quotes import Source, attributed
from grader.report.spelled import spelled
from grader.report.steps import placed

TIGHT = Compare("allclose", rtol=1e-5, atol=1e-6)
RNG = np.random.default_rng(62)
GRID = "op:grid_square:patchify:grid-taken-as-square"
COUNT = "op:count_square:num_patches:count-taken-as-square"


def same(value, target) -> bool:
    return agrees(value, target, TIGHT, equal_nan=True)


def calls_of(function, student, cases) -> list[em.Call]:
    calls = []
    for args in cases:
        try:
            got = student(*args)
        except Exception as error:  # noqa: BLE001 - the student's raise, by type and message
            got = em.Raised(type(error).__name__, str(error))
        calls.append(em.Call(args, {}, got, function(*args)))
    return calls


def square_patchify(image, P):
    """A patchify that takes its grid as square, spelled otherwise than b62_11."""
    img = np.asarray(image)
    if img.ndim == 2:
        img = img[:, :, None]
    height, width, channels = img.shape
    if height % P or width % P:
        raise ValueError("patches do not tile")
    n = math.isqrt(height * width // P ** 2)
    return img.reshape(n, P, n, P, channels).swapaxes(1, 2).reshape(n * n, -1)


def square_count(H, W, P):
    if H % P or W % P:
        raise ValueError("patches do not tile")
    side = int(math.sqrt(H * W)) // P
    return side * side


def first_failing(calls) -> int:
    return next(i for i, c in enumerate(calls)
                if isinstance(c.got, em.Raised) or not same(c.got, c.expected))


def test_a_square_grid_raises_where_the_student_s_does_and_reproduces_every_value():
    """The rewrite's reshape raises numpy's own message on a non-square count (4 x 6 and 8 x 4
    images), gives the patches out of order where the count is a square of neither side (4 x 16
    with P = 2) and is the reference on square images: named, on the wide and the tall images
    of one check (a sibling term copied names one of them only)."""
    ref = REFERENCE["patchify"]
    cases = [(np.arange(72.0).reshape(4, 6, 3), 2), (RNG.normal(size=(8, 4, 3)), 4),
             (RNG.normal(size=(6, 6, 2)), 3), (RNG.normal(size=(4, 16, 3)), 2)]
    calls = calls_of(ref, square_patchify, cases)
    assert [isinstance(c.got, em.Raised) for c in calls] == [True, True, False, False]
    assert not same(calls[3].got, calls[3].expected)  # out of order, no raise
    rewritten = em.rewrite(ref, GRID)
    for call in calls:
        if isinstance(call.got, em.Raised):
            try:
                rewritten(*call.args)
            except ValueError as error:
                assert str(error) == call.got.message
            else:
                raise AssertionError("the square grid did not raise")
        else:
            assert same(rewritten(*call.args), call.got)
    found = em.search(ref, calls, first_failing(calls), same)
    assert found is not None and found.name == GRID, found
    assert "taken as square" in found.sentence and "H == W" in found.sentence
    square = [replace(c, got=c.expected) for c in calls_of(ref, ref, cases[2:3])]
    assert em.search(ref, square, 0, same) is None  # square images: nothing to name


def test_the_square_grid_quotes_the_student_s_own_line_or_none():
    said = em.sentence(REFERENCE["patchify"], GRID)
    assert quotes.ROOT_LINE in said and placed(said, None) == said, said
    theirs = ("def patchify(image, P):\n    x = np.asarray(image)\n"
              "    h = w = int((x.shape[0] * x.shape[1] // (P * P)) ** 0.5)\n"
              "    return x.reshape(h, P, w, P, -1)\n")
    told = placed(said, Source([theirs]))
    assert ("In `patchify`, the patch grid is taken as square (at your line `h = w = int((x.shape"
            "[0] * x.shape[1] // (P * P)) ** 0.5)`): both its sides") in told, told
    isqrt = theirs.replace("int((x.shape[0] * x.shape[1] // (P * P)) ** 0.5)",
                           "math.isqrt(x.size // P // P)")
    assert "(at your line `h = w = math.isqrt(x.size // P // P)`)" in placed(said,
                                                                            Source([isqrt]))
    none = theirs.replace("int((x.shape[0] * x.shape[1] // (P * P)) ** 0.5)", "side")
    told = placed(said, Source([none]))
    assert quotes.ROOT_LINE not in told and "taken as square: both its sides" in told, told


def test_a_count_taken_as_square_is_named():
    """`num_patches` counting an image as square, `(int(sqrt(H * W)) // P) ** 2`: right when H
    == W or when the count is a square (4 x 16, P = 2), else short (4 x 6: 4, not 6)."""
    ref = REFERENCE["num_patches"]
    cases = [(4, 6, 2), (8, 8, 4), (4, 16, 2), (12, 4, 2)]
    calls = calls_of(ref, square_count, cases)
    assert [c.got for c in calls] == [4, 4, 16, 9]
    found = em.search(ref, calls, 0, same)
    assert found is not None and found.name == COUNT, found
    square = calls_of(ref, ref, [(8, 8, 4), (4, 4, 2)])
    assert em.search(ref, square, 0, same) is None


def told(hint: str, code: str) -> str:
    """The hint as report passes give it: spelled, then attributed."""
    source = Source([code])
    return attributed(spelled(hint, source), source)


def test_a_whole_array_reduction_is_quoted_only_as_the_student_wrote_it():
    """b62_04: "`np.sum(e, keepdims=True)` in place of ..." where the code sums `np.sum(res)`:
    the rewrite's code is no quote of theirs; a whole-array `np.max(x)` they wrote is."""
    def student(x, axis=-1):
        res = np.exp(x - np.max(x))
        return res / np.sum(res)

    ref = REFERENCE["softmax"]
    cases = [(RNG.normal(size=(3, 4)),), (RNG.normal(size=(2, 5)),)]
    for detail in ("max.axis=None", "sum.axis=None"):
        said = em.sentence(ref, f"op:axis:softmax:{detail}")
        assert quotes.EFFECT in said, said
    code = ("def softmax(x, axis=-1):\n    res = np.exp(x - np.max(x))\n"
            "    return res / np.sum(res)\n")
    summed = told(em.sentence(ref, "op:axis:softmax:sum.axis=None"), code)
    assert "keepdims=True)`," not in summed.split("taken over")[1], summed
    assert "np.sum(e, keepdims=True)" not in summed and quotes.EFFECT not in summed, summed
    assert summed.endswith("`np.sum(e, axis=axis, keepdims=True)` taken over the whole array, "
                           "instead of over the axis `axis` it is given."), summed
    maxed = told(em.sentence(ref, "op:axis:softmax:max.axis=None"), code)
    assert "taken over the whole array, `np.max(x)`, instead of" in maxed, maxed
    found = em.search(ref, calls_of(ref, student, cases), 0, same)
    assert found is not None and "np.sum(e, keepdims=True)" not in told(found.sentence, code)


def test_a_count_by_area_is_quoted_only_as_the_student_wrote_it():
    """b62_09: "counted by area, `H * W // (P * P)`" where the code has `int(H*W/(P*P))`."""
    said = em.sentence(REFERENCE["num_patches"], next(
        e.name for e in em.model(REFERENCE["num_patches"])[1] if e.detail == "count-by-area"))
    assert f"{quotes.EFFECT}`H * W // (P * P)`" in said, said
    hunyuan = ("def num_patches(H, W, P):\n    img_size = (H, W)\n"
               "    n = int(img_size[0] * img_size[1] / (P * P))\n    return n\n")
    mine = told(said, hunyuan)
    assert "H * W // (P * P)" not in mine and quotes.EFFECT not in mine, mine
    assert "counted by area (N = HW / P**2), where the lecture counts" in mine, mine
    floor = "def num_patches(H, W, P):\n    return H * W // (P * P)\n"
    assert "counted by area (N = HW / P**2), `H * W // (P * P)`, where" in told(said, floor)


def test_a_rounded_root_is_told_alike_and_named_where_the_calls_tell_it():
    """`round(sqrt(n))` (blind round 7's b7_09): a 4 x 8 image with P = 2 has 8 patches, a 3 x 3
    grid where the floored root's is 2 x 2: its own name there, one mistake told alike where the
    calls cannot tell the two apart (a wide and a tall image: no sibling term copied one way
    gives both)."""
    def rounded(image, P):
        img = np.asarray(image)
        n = (img.shape[0] // P) * (img.shape[1] // P)
        side = int(round(math.sqrt(n)))
        return img.reshape(side, P, side, P, img.shape[2]).swapaxes(1, 2).reshape(n, -1)

    ref = REFERENCE["patchify"]
    square = (RNG.normal(size=(4, 4, 3)), 2)
    tells = calls_of(ref, rounded, [(RNG.normal(size=(4, 8, 3)), 2), square])
    assert em.search(ref, tells, 0, same).name == GRID + "-rounded"
    alike = calls_of(ref, rounded, [(RNG.normal(size=(4, 6, 3)), 2),
                                    (RNG.normal(size=(6, 4, 3)), 2), square])
    found = em.search(ref, alike, 0, same)
    assert found is not None and found.name.startswith(GRID) and not found.chosen, found
