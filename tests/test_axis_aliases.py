"""Two axis rewrites of one reduction are aliases (told the first way) only where they are one
axis of the array it reduces on the calls (error_model/aliases.py; issue 38: never a wrong
hint): 1 and -1 of a 2-D array, 0 and the whole array of a 1-D one; never axis 0 and the whole
array of a 2-D one, which a student reads as two different pieces of code (blind round 76's
b76_11: a global `x.max()` was told "taken over axis 0")."""
from __future__ import annotations

import numpy as np

from grader.checks.compare import Compare, agrees
from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.reference.error_model.aliases import aliases, axes_reduced, axis_of, reduced_ndims

TIGHT = Compare("allclose", rtol=1e-5, atol=1e-6)
SUM = "op:axis:softmax:sum.axis="


def same(value, target) -> bool:
    return agrees(value, target, TIGHT, equal_nan=True)


def calls_of(function, student, cases, kwargs=None):
    kwargs = kwargs or {}
    return [em.Call(args, kwargs, student(*args, **kwargs), function(*args, **kwargs))
            for args in cases]


def softmax_edits(*details):
    root, edits = em.model(REFERENCE["softmax"])
    by_name = {e.name: e for e in edits}
    return root, [[by_name[SUM + detail]] for detail in details]


def test_a_whole_array_sum_that_one_column_inputs_cannot_tell_from_axis_0_is_not_said_as_axis_0():
    """`e / e.sum()` on (n, 1) arrays: the sum over axis 0, over axis -2 and over the whole
    array all reproduce it. -2 and 0 are one axis of a 2-D array; the whole array is another
    claim, so neither "axis 0" nor "the whole array" is told as if it were the one found."""
    rng = np.random.default_rng(3401)

    def student(x, axis=-1):
        e = np.exp(x - x.max(axis=axis, keepdims=True))
        return e / e.sum()

    cases = [(rng.normal(size=(4, 1)),), (rng.normal(size=(3, 1)),), (rng.normal(size=5),)]
    calls = calls_of(REFERENCE["softmax"], student, cases)
    found = em.search(REFERENCE["softmax"], calls, 0, same)
    assert found is None or (found.either and "axis 0" in found.sentence
                             and "whole array" in found.sentence), found


def test_one_axis_written_two_ways_is_still_one_mistake_said_the_first_way():
    """softmax(x, axis=0) summed along the middle axis of 3-D arrays: the sum over axis 1 and
    over axis -2 are one axis of every array it reduces, told once, the first way."""
    rng = np.random.default_rng(3402)

    def student(x, axis=-1):
        e = np.exp(x - x.max(axis=axis, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    cases = [(rng.normal(size=(2, 3, 4)),), (rng.normal(size=(3, 2, 2)),)]
    calls = calls_of(REFERENCE["softmax"], student, cases, {"axis": 0})
    found = em.search(REFERENCE["softmax"], calls, 0, same)
    assert found is not None and found.name == SUM + "1" and not found.chosen, found
    assert "taken over axis 1" in found.sentence


def test_axes_are_compared_on_the_arrays_the_reduction_takes_on_the_calls():
    rng = np.random.default_rng(3403)
    plain, square, cube = ((rng.normal(size=shape),) for shape in ((5,), (3, 3), (2, 3, 4)))

    def on(*inputs):
        return [em.Call(args, {}, None, None) for args in inputs]

    root, found = softmax_edits("1", "-1")
    assert aliases(found, root, on(square))  # one axis of a 2-D array
    assert not aliases(found, root, on(cube))  # two of a 3-D one
    assert not aliases(found, root, on(square, cube))  # two where any array says so
    root, found = softmax_edits("0", "None")
    assert aliases(found, root, on(plain))  # a 1-D array's only axis is the whole array
    assert not aliases(found, root, on(square))
    root, found = softmax_edits("0", "-2")
    assert aliases(found, root, on(square)) and not aliases(found, root, on(cube))


def test_axes_whose_arrays_were_never_seen_are_the_same_only_as_written():
    root, found = softmax_edits("1", "-1")
    assert not aliases(found, root, [])  # no call: the array's axes are not known
    assert reduced_ndims(root, found[0], []) == {SUM + "1": set()}
    root, found = softmax_edits("-1", "-1")
    assert aliases(found, root, [])


def test_the_probe_reads_the_array_of_a_method_a_function_and_a_helper_call():
    """`x.max()` style is no reference's, but `np.max(x, ...)`'s argument and a helper's
    `softmax(scores)` array (attention's (heads, T, T) scores) are read where they run."""
    rng = np.random.default_rng(3404)
    root, edits = em.model(REFERENCE["self_attention"])
    by_name = {e.name: e for e in edits}
    d, heads = 8, 2
    p = {n: rng.normal(size=(d, d) if n.startswith("W") else d)
         for n in ("Wq", "bq", "Wk", "bk", "Wv", "bv", "Wo", "bo")}
    call = em.Call((rng.normal(size=(5, d)), p, heads), {}, None, None)
    helper = by_name["op:axis:self_attention/attention:softmax.axis=0"]
    inner = by_name["op:axis:self_attention/attention/softmax:sum.axis=0"]
    assert reduced_ndims(root, [helper], [call]) == {helper.name: {3}}
    assert reduced_ndims(root, [inner], [call]) == {inner.name: {3}}


def test_an_axis_detail_is_read_numbered_or_not_and_out_of_range_axes_are_their_own():
    assert axis_of("sum.axis=-1") == (True, -1)
    assert axis_of("max.axis=None.2") == (True, None)
    assert axis_of("max.axis=0.3") == (True, 0)
    assert axis_of("max.keepdims") == (False, None)
    assert axes_reduced(None, 2) == {0, 1} and axes_reduced(-1, 2) == axes_reduced(1, 2)
    assert axes_reduced(1, 1) != axes_reduced(0, 1)  # numpy refuses axis 1 of a 1-D array


def test_a_global_max_that_random_shapes_cannot_place_is_not_told_over_axis_0():
    """b76_11 (blind round 76): `np.exp(x - x.max())`, `exps / np.sum(exps, axis=axis)`, on the
    hidden check's random shapes and axes (softmax_inputs). The max over axis 0 and over the
    whole array, each beside the sum's keepdims, both reproduce every call: the search names
    neither; where another check of the function named the whole array's max (`prefer`,
    slips.known), that one."""
    from grader.checks.generators import generate_cases

    softmax = REFERENCE["softmax"]
    loose = Compare("allclose", rtol=2e-4, atol=1e-6)

    def close(value, target) -> bool:
        return agrees(value, target, loose, equal_nan=True)

    def student(x, axis=-1):
        e = np.exp(x - x.max())
        return e / np.sum(e, axis=axis)

    calls = []
    with np.errstate(all="ignore"):
        for args, kwargs in generate_cases("softmax_inputs", 16, 501, {}):
            try:
                got = student(*args, **kwargs)
            except ValueError as error:
                got = em.Raised("ValueError", str(error))
            calls.append(em.Call(args, kwargs, got, softmax(*args, **kwargs)))
        failing = next(i for i, c in enumerate(calls)
                       if isinstance(c.got, em.Raised) or not close(c.got, c.expected))
        alone = em.search(softmax, calls, failing, close)
        named = em.search(softmax, calls, failing, close,
                          prefer=frozenset({"op:axis:softmax:max.axis=None"}))
    assert alone is None or "over axis 0" not in alone.sentence, alone
    assert named is not None and "taken over the whole array" in named.sentence, named
    assert "over axis 0" not in named.sentence
