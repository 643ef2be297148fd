"""Softmax slips of C ports the error model names (blind rounds 64 and 65): each rewrite computes
what its sentence says, is named where it reproduces every call, and nowhere else."""
from __future__ import annotations

import numpy as np

from grader.checks.compare import Compare, agrees
from grader.reference import REFERENCE
from grader.reference import error_model as em

RNG = np.random.default_rng(65)
TIGHT = Compare("allclose", rtol=2e-4, atol=1e-6)  # stable-softmax's tolerance
SOFTMAX = REFERENCE["softmax"]


def same(value, target) -> bool:
    return agrees(value, target, TIGHT, equal_nan=True)


def search(student, cases):
    calls = [em.Call(args, kwargs, student(*args, **kwargs), SOFTMAX(*args, **kwargs))
             for args, kwargs in cases]
    failing = next(i for i, call in enumerate(calls) if not same(call.got, call.expected))
    return em.search(SOFTMAX, calls, failing, same)


SPREAD = [((np.array([[800.0, 0.0], [0.0, 800.0]]),), {}),
          ((RNG.normal(size=(3, 5)) * 8,), {}),
          ((RNG.normal(size=(2, 3, 4)) * 8,), {"axis": 1}),
          ((np.array([1000.0, 999.0, 0.0]),), {})]


def test_the_exponentials_floored_are_what_the_sentence_says():
    floored = em.rewrite(SOFTMAX, "op:clamped:softmax:e_floor=1e-05")
    x = np.array([[0.0, -20.0, -np.inf], [3.0, 2.0, 1.0]])
    e = np.maximum(np.exp(x - x.max(axis=-1, keepdims=True)), 1e-5)
    assert np.allclose(floored(x), e / e.sum(axis=-1, keepdims=True))
    assert floored(x)[0, 2] > 0  # a hidden -inf entry gets the floor too


def test_a_clamp_of_the_exponentials_is_named_with_its_floor_and_said_as_the_calls_tell_it():
    def c_port(x, axis=-1):  # b65_15: clamped to [1e-5, 1e3] with np.where
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        e = np.where(e > 1e3, 1e3, e)
        e = np.where(e < 1e-5, 1e-5, e)
        return e / np.sum(e, axis=axis, keepdims=True)

    found = search(c_port, SPREAD)
    assert found.name == "op:clamped:softmax:e_floor=1e-05", found
    assert "clamped to a floor of 1e-05" in found.sentence and "11.5 below" in found.sentence

    def clipped(x, axis=-1):  # a log-safe clip to [1e-3, 1]
        e = np.clip(np.exp(x - x.max(axis=axis, keepdims=True)), 1e-3, 1.0)
        return e / e.sum(axis=axis, keepdims=True)

    assert search(clipped, SPREAD).name == "op:clamped:softmax:e_floor=0.001"


def test_a_clamp_the_calls_never_reach_or_a_floor_on_the_logits_names_no_clamp():
    def ceiling_only(x, axis=-1):  # exps are at most 1: the same softmax
        e = np.minimum(np.exp(x - np.max(x, axis=axis, keepdims=True)), 1e3)
        return e / np.sum(e, axis=axis, keepdims=True)

    assert all(same(ceiling_only(*a, **k), SOFTMAX(*a, **k)) for a, k in SPREAD)

    def logits_floored(x, axis=-1):  # a floor on the shifted logits, not on the exps
        z = np.maximum(x - np.max(x, axis=axis, keepdims=True), -5.0)
        e = np.exp(z)
        return e / np.sum(e, axis=axis, keepdims=True)

    found = search(logits_floored, SPREAD)
    assert found is None or "clamped" not in found.name, found


EACH_ENTRY = ("op:all_but_first:softmax:max.axis-each-entry"
              "+op:all_but_first:softmax:sum.axis-each-entry")
SHAPES = [((np.array([1.0, 2.0, 3.0]),), {}),
          ((RNG.normal(size=(3, 4)),), {}),
          ((RNG.normal(size=(3, 2)),), {"axis": 0}),
          ((RNG.normal(size=(2, 3, 4)),), {}),
          ((RNG.normal(size=(2, 3, 4)),), {"axis": 1})]


def test_darknets_groups_softmax_is_named_over_each_first_axis_entry():
    def groups(x, axis=-1):  # b65_03: each batch entry flattened, a 1-D array one entry
        rows = np.atleast_2d(x).reshape(len(np.atleast_2d(x)), -1)
        e = np.exp(rows - rows.max(axis=1, keepdims=True))
        return (e / e.sum(axis=1, keepdims=True)).reshape(np.shape(x))

    found = search(groups, SHAPES)
    assert found is not None and found.name == EACH_ENTRY, found
    assert "every value of each first-axis entry, whatever `axis` is, a 1-D array as one " \
        "entry" in found.sentence
    rewritten = em.rewrite(SOFTMAX, EACH_ENTRY)
    assert all(np.allclose(rewritten(*a, **k), groups(*a, **k)) for a, k in SHAPES)


def test_other_readings_of_an_ignored_axis_keep_their_names():
    def last_axis(x, axis=-1):  # axis hard-wired to the last: not each entry
        e = np.exp(x - np.max(x, axis=-1, keepdims=True))
        return e / np.sum(e, axis=-1, keepdims=True)

    def rows_whole(x, axis=-1):  # a loop over x[i], each reduced whole: a 1-D x gives ones
        out = np.empty_like(x)
        for i in range(len(x)):
            e = np.exp(x[i] - np.max(x[i]))
            out[i] = e / np.sum(e)
        return out

    assert search(last_axis, SHAPES).name == "op:default:softmax:axis-as-default"
    found = search(rows_whole, SHAPES)
    assert found is None or "each-entry" not in found.name, found

