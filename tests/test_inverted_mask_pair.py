"""A causal mask inverted (the hide-mask `np.triu(ones, k=1)` read as the keep-mask, -inf
kept: each query sees only the later keys, the last query none, a NaN row) beside a second
mistake of the same function that shows on every call (q, k and v projected without their
biases, a port of projections built with bias=False): named as the pair, NaN row included,
where the pair reproduces every call. A NaN row is no distance, so the inverted mask alone is
no anchor: the singles that put NaN where the student's value has it are paired instead."""
from __future__ import annotations

import math

import numpy as np

from grader.checks.compare import Compare, agrees
from grader.reference import REFERENCE
from grader.reference import error_model as em

RNG = np.random.default_rng(706)
LOOSE = Compare("allclose", rtol=1e-4, atol=1e-5)
ATTEND = REFERENCE["self_attention"]
BIAS_FREE = "op:qkv_bias_free:self_attention:qkv-without-bias"
INVERTED = "op:mask_inverted:self_attention/attention:mask-inverted"


def same(value, target) -> bool:  # NaN where the student's value has NaN is the same
    return agrees(value, target, LOOSE, equal_nan=True)


def params(d):
    """Wq, Wk, Wv, Wo (d, d) and their biases (d,), none zero."""
    weights = {f"W{n}": RNG.normal(size=(d, d)) for n in "qkvo"}
    return weights | {f"b{n}": RNG.normal(size=d) for n in "qkvo"}


def ported(x, p, heads, causal=False, hide_mask=True, biases=False):
    """Rows (T, d); the mask `np.triu(ones, k=1)` (1 = hidden, PyTorch's convention) applied
    with `np.where(mask == 0, -inf, scores)` (0 = hidden) when `hide_mask`."""
    T, d = x.shape
    dh = d // heads
    q, k, v = ((x @ p[f"W{n}"] + (p[f"b{n}"] if biases else 0)).reshape(T, heads, dh)
               .transpose(1, 0, 2) for n in "qkv")
    s = q @ k.transpose(0, 2, 1) / math.sqrt(dh)
    if causal:
        mask = np.triu(np.ones((T, T)), k=1) if hide_mask else np.tril(np.ones((T, T)))
        s = np.where(mask == 0, -np.inf, s)
    with np.errstate(invalid="ignore"):
        e = np.exp(s - s.max(-1, keepdims=True))
        out = (e / e.sum(-1, keepdims=True)) @ v
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]


CASES = [((RNG.normal(size=(4, 4)), params(4), 1), {"causal": True}),
         ((RNG.normal(size=(5, 8)), params(8), 2), {"causal": True}),
         ((RNG.normal(size=(3, 8)), params(8), 2), {"causal": False}),
         ((RNG.normal(size=(6, 8)), params(8), 4), {"causal": True})]


def calls(student):
    return [em.Call(args, kwargs, student(*args, **kwargs), ATTEND(*args, **kwargs))
            for args, kwargs in CASES]


def test_the_student_has_nan_rows_where_the_expected_is_finite():
    got = ported(*CASES[0][0], **CASES[0][1])
    assert np.isnan(got[-1]).all() and np.isfinite(got[:-1]).all()


def test_an_inverted_mask_beside_bias_free_projections_is_named_as_the_pair():
    found = em.search(ATTEND, calls(ported), 0, same)
    assert found is not None and set(found.name.split(em.JOIN)) == {BIAS_FREE, INVERTED}, found
    assert "condition inverted" in found.sentence and "without their biases" in found.sentence


def test_the_inverted_mask_alone_is_still_named_alone():
    found = em.search(ATTEND, calls(lambda *a, **k: ported(*a, **k, biases=True)), 0, same)
    assert found is not None and found.name == INVERTED, found


def test_bias_free_projections_with_the_right_mask_are_not_told_a_mask():
    found = em.search(ATTEND, calls(lambda *a, **k: ported(*a, **k, hide_mask=False)), 0, same)
    assert found is not None and found.name == BIAS_FREE, found
