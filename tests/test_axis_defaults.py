"""An axis default a port keeps (blind round 69's b69_07, `softmax(x, axis=2)`: an AxisError on
1-D and 2-D input where `axis` is left out, right on 3-D): named as the default it is, each of
the defaults a port writes (0, 1, 2, -2, None), only where the rewrite reproduces every call,
a raise by the student's exception type."""
from __future__ import annotations

import numpy as np
import pytest

from grader.checks.compare import Compare, agrees
from grader.reference import REFERENCE
from grader.reference import error_model as em

TIGHT = Compare("allclose", rtol=2e-4, atol=1e-6)  # stable-softmax's tolerance
SOFTMAX = REFERENCE["softmax"]
RNG = np.random.default_rng(69)
CASES = [((np.array([1.0, 2.0, 3.0]),), {}), ((RNG.normal(size=(3, 4)),), {"axis": 0}),
         ((RNG.normal(size=(2, 3, 4)),), {}), ((RNG.normal(size=(3, 4)),), {}),
         ((RNG.normal(size=(2, 3, 4, 5)),), {"axis": 1})]


def same(value, target) -> bool:
    return agrees(value, target, TIGHT, equal_nan=True)


def ported(default):
    def softmax(x, axis=default):
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / np.sum(e, axis=axis, keepdims=True)
    return softmax


def outcome(student, args, kwargs):
    try:
        return student(*args, **kwargs)
    except Exception as error:  # noqa: BLE001 - the student's raise, as the check records it
        return em.Raised(type(error).__name__, str(error))


def found(default, cases=CASES):
    calls = [em.Call(a, k, outcome(ported(default), a, k), SOFTMAX(*a, **k)) for a, k in cases]
    failing = next(i for i, c in enumerate(calls)
                   if isinstance(c.got, em.Raised) or not same(c.got, c.expected))
    told = em.search(SOFTMAX, calls, failing, same)
    return told and told.name


@pytest.mark.parametrize("default", [0, 1, 2, -2])
def test_an_axis_default_is_named_as_the_default_it_is(default):
    assert found(default) == f"op:default_flipped:softmax:axis-defaults-{default}"


def test_scipys_none_stays_named():
    assert found(None) == "op:default_changed:softmax:axis-default-None"


def test_a_default_of_2_that_only_raised_is_named_by_its_raise():
    # b69_07's small examples: the 1-D call raised (axis 2 of 1 dimension), the named axis right
    assert found(2, CASES[:2]) == "op:default_flipped:softmax:axis-defaults-2"
