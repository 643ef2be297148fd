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
    return em.search(SOFTMAX, calls, 0, same)


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
