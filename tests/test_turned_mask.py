"""Blind round 64's b64_08 (Flux's MultiheadAttention ported to numpy): the causal triangle
turned around (`np.triu` kept, written for (keys, queries) scores, where the scores are (queries,
keys): each query sees itself and the later tokens) and heads split strided (a C-order reshape
of the (d, T) array: head h gets the features h, h + heads, ...). Each alone is named; the two in
one function are named as a pair of the error model's (masks.triangle_turned with the heads'
interleaved split), where the listed upside-down mask alone matched only the one-head case. The
snippets are written for these tests, not the round's file."""
from __future__ import annotations

import math

import numpy as np

from grader.checks.compare import Compare, agrees
from grader.reference import REFERENCE
from grader.reference import error_model as em

LOOSE = Compare("allclose", rtol=1e-4, atol=1e-5)
RNG = np.random.default_rng(64)
TURNED = "op:triangle_turned:self_attention/causal_mask:tri-turned"


def same(value, target) -> bool:
    return agrees(value, target, LOOSE, equal_nan=True)


def params(d):
    return {n: RNG.normal(size=(d, d) if n.startswith("W") else d)
            for n in ("Wq", "bq", "Wk", "bk", "Wv", "bv", "Wo", "bo")}


def _softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def flux(x, p, heads, causal=False, strided=True, upper=True):
    """b64_08's port: features-by-tokens, heads by a C-order reshape, np.triu kept."""
    T, d = x.shape
    hs = d // heads
    cols = [(x @ p[f"W{n}"] + p[f"b{n}"]).T for n in "qkv"]
    split = ((lambda y: y.reshape(hs, heads, T).transpose(0, 2, 1)) if strided else
             (lambda y: y.reshape(heads, hs, T).transpose(1, 2, 0)))
    hq, hk, hv = (split(c) for c in cols)
    out = np.empty((hs, T, heads))
    for i in range(heads):
        score = (hq[:, :, i].T @ hk[:, :, i]) / math.sqrt(hs)
        if causal:
            mask = np.triu(np.ones((T, T))) if upper else np.tril(np.ones((T, T)))
            score = score + (1 - mask) * -1e9
        out[:, :, i] = (_softmax(score) @ hv[:, :, i].T).T
    merged = (out.transpose(0, 2, 1).reshape(d, T) if strided else
              out.transpose(2, 0, 1).reshape(d, T))
    return merged.T @ p["Wo"] + p["bo"]


def rows_first(x, p, heads, causal=False):
    """Another spelling: (T, d) rows, heads as reshape(T, d_h, heads), mask np.triu with -inf."""
    T, d = x.shape
    dh = d // heads
    q, k, v = ((x @ p[f"W{n}"] + p[f"b{n}"]).reshape(T, dh, heads).transpose(2, 0, 1)
               for n in "qkv")
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(dh)
    if causal:
        scores = np.where(np.triu(np.ones((T, T), dtype=bool)), scores, -np.inf)
    out = _softmax(scores) @ v
    return out.transpose(1, 2, 0).reshape(T, d) @ p["Wo"] + p["bo"]


def calls(student):
    cases = [(RNG.normal(size=(4, 4)), params(4), 1, True),
             (RNG.normal(size=(5, 8)), params(8), 2, True),
             (RNG.normal(size=(5, 8)), params(8), 2, False),
             (RNG.normal(size=(6, 12)), params(12), 3, True)]
    reference = REFERENCE["self_attention"]
    return [em.Call(args[:3], {"causal": args[3]}, student(*args[:3], causal=args[3]),
                    reference(*args[:3], causal=args[3])) for args in cases]


def test_the_turned_mask_and_the_strided_heads_are_named_together():
    for student in (flux, rows_first):
        found = em.search(REFERENCE["self_attention"], calls(student), 0, same)
        assert found is not None, student.__name__
        parts = set(found.name.split("+"))
        assert TURNED in parts and len(parts) == 2, found.name
        assert any("interleaved" in part or "split" in part for part in parts), found.name
        assert "later tokens" in found.sentence and "interleaved" in found.sentence, found


def test_each_alone_is_named_alone_and_the_right_code_names_nothing():
    turned = em.search(REFERENCE["self_attention"], calls(
        lambda *a, causal: flux(*a, causal=causal, strided=False)), 0, same)
    assert turned is not None and turned.name == TURNED, turned
    strided = calls(lambda *a, causal: flux(*a, causal=causal, upper=False))
    found = em.search(REFERENCE["self_attention"], strided, 1, same)
    assert found is not None and TURNED not in found.name, found
    right = calls(lambda *a, causal: flux(*a, causal=causal, strided=False, upper=False))
    assert all(same(c.expected, c.got) for c in right)
