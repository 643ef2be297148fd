"""A row read as a pooling before a step (blind round 75, b75_11): the pooling is the mistake.

timm's global_pool='avg' with its fc_norm pools the patch tokens and then normalises the pooled
row. It was told as the step "comes after a pooling ... the lecture runs the step on every row
and then reads row 0 of its output", at the LayerNorm's line: the order as the mistake, where a
LayerNorm reads each row on its own and row 0 read before it or after it gives the same. Now the
pooling is said (and placed at the line that pools, report/helper_place.py), and the order only
where the model solution with its row read before the step gives other outputs on the calls
(error_model/poolings.py).
"""
from __future__ import annotations

import numpy as np

from grader.reference import error_model as em

RNG = np.random.default_rng(75)
ORDER = "comes after a pooling"
POOLING = "that order is no part of the mistake"


def _scaled(x, w):  # a step that reads each row on its own (not linear: the mean of its
    return np.tanh(x) * w  # rows is not the step of their mean)


def _centred(x, w):  # a step that mixes the rows: each gets the mean of all of them
    return (x - x.mean(axis=0)) * w


def head_scaled(x, w):
    x = _scaled(x, w)
    return x[0]


def head_centred(x, w):
    x = _centred(x, w)
    return x[0]


def _same(value, target) -> bool:
    return np.allclose(value, target, rtol=1e-6, atol=1e-9)


def _found(function, student):
    inputs = [(RNG.normal(size=(n, 3)), RNG.normal(size=3)) for n in (3, 4, 5)]
    calls = [em.Call(args, {}, student(*args), function(*args)) for args in inputs]
    return em.search(function, calls, 0, _same)


def test_a_step_on_each_row_alone_after_a_pooling_is_told_as_the_pooling():
    found = _found(head_scaled, lambda x, w: _scaled(x[1:].mean(axis=0), w))
    assert found is not None, found
    assert found.sentence.startswith(
        "In `head_scaled`, `x[0]` is read as `x[1:].mean(axis=0)`: the rows after row 0 "
        "averaged"), found.sentence
    assert POOLING in found.sentence and ORDER not in found.sentence, found.sentence


def test_a_step_that_mixes_rows_after_a_pooling_is_told_with_its_order():
    found = _found(head_centred, lambda x, w: _centred(x[1:].mean(axis=0), w))
    assert found is not None, found
    assert found.sentence.startswith(
        "In `head_centred`, `_centred(x, w)` comes after a pooling"), found.sentence
    assert POOLING not in found.sentence, found.sentence
