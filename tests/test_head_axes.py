"""Two head-split mistakes of blind round 79, each one rewrite of the reference's split and merge
(issue 38): q, k and v never split into heads (one T x T attention over all d columns, scaled by
sqrt(d_h), sqrt(d) or not at all: error_model/uncut_heads.py), and the split that reshapes to
(T, heads, d_h) but never moves the head axis first (BERT's `transpose_for_scores` without its
permute: error_model/head_pairs.py), each named only where it reproduces every call; a right
multi-head attention with another mistake is told neither."""
from __future__ import annotations

import math

import numpy as np
import pytest

from grader.checks.compare import Compare, agrees
from grader.reference import REFERENCE
from grader.reference import error_model as em

RNG = np.random.default_rng(79)
TIGHT = Compare("allclose", rtol=1e-5, atol=1e-6)
ATTENTION = REFERENCE["self_attention"]
UNCUT = "op:heads_uncut:self_attention:heads-never-split"
UNMOVED = "op:heads_wrong_pair:self_attention:heads-split-and-merge-unmoved"
SCALES = {"": lambda d, heads: math.sqrt(d // heads), "-scale-d": lambda d, heads: math.sqrt(d),
          "-unscaled": lambda d, heads: 1.0}


def same(value, target) -> bool:
    return agrees(value, target, TIGHT, equal_nan=True)


def params(d):
    return {n: RNG.normal(size=(d, d) if n.startswith("W") else d)
            for n in ("Wq", "bq", "Wk", "bk", "Wv", "bv", "Wo", "bo")}


def softmax(s):
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def one_attention(scale):
    """A student's self_attention that checks the head count, then attends once over every
    column, its scores divided by `scale(d, heads)`."""
    def student(x, p, heads, causal=False):
        T, d = x.shape
        if d % heads:
            raise ValueError("heads must divide d")
        q, k, v = (x @ p[f"W{n}"] + p[f"b{n}"] for n in "qkv")
        scores = q @ k.T / scale(d, heads)
        if causal:
            scores = np.where(np.tril(np.ones((T, T))) == 0, -np.inf, scores)
        return softmax(scores) @ v @ p["Wo"] + p["bo"]
    return student


def unmoved(x, p, heads, causal=False):
    """BERT's `transpose_for_scores` without its permute: (T, heads, d_h), a mask from the
    scores' own shape."""
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    q, k, v = ((x @ p[f"W{n}"] + p[f"b{n}"]).reshape(T, heads, d // heads) for n in "qkv")
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(d // heads)  # (T, heads, heads)
    if causal:
        n = scores.shape[-1]
        scores = scores + np.triu(np.full((n, n), -1e9), k=1)
    return (softmax(scores) @ v).reshape(T, d) @ p["Wo"] + p["bo"]


def right_but_scaled(x, p, heads, causal=False):
    """A right multi-head attention whose scores are divided by sqrt(d), not sqrt(d_h)."""
    T, d = x.shape
    d_h = d // heads
    out = []
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        q, k, v = ((x @ p[f"W{n}"] + p[f"b{n}"])[:, cols] for n in "qkv")
        scores = q @ k.T / math.sqrt(d)
        if causal:
            scores = np.where(np.tri(T, dtype=bool), scores, -np.inf)
        out.append(softmax(scores) @ v)
    return np.concatenate(out, axis=1) @ p["Wo"] + p["bo"]


def calls(student, causal=False, counts=((5, 8, 2), (4, 12, 3), (6, 8, 4), (3, 4, 1))):
    found = []
    for T, d, heads in counts:
        args = (RNG.normal(size=(T, d)), params(d), heads)
        kwargs = {"causal": True} if causal else {}
        found.append(em.Call(args, kwargs, student(*args, **kwargs), ATTENTION(*args, **kwargs)))
    return found


@pytest.mark.parametrize("scale", sorted(SCALES))
def test_heads_never_split_is_one_rewrite_for_each_scale(scale):
    """b79_03: one T x T attention over all d columns, whatever `heads` is (right with one head
    when scaled by sqrt(d_h)); the rewrite computes it with and without the causal mask."""
    rewritten = em.rewrite(ATTENTION, UNCUT + scale)
    student = one_attention(SCALES[scale])
    for heads in (1, 2, 4):
        x, p = RNG.normal(size=(5, 8)), params(8)
        for causal in (False, True):
            assert np.allclose(rewritten(x, p, heads, causal=causal),
                               student(x, p, heads, causal=causal))
    x, p = RNG.normal(size=(5, 8)), params(8)
    right_with_one = np.allclose(rewritten(x, p, 1), ATTENTION(x, p, 1))
    assert right_with_one == (scale != "-unscaled")  # with one head, d_h = d
    found = em.search(ATTENTION, calls(student), 0, same)
    assert found is not None
    assert ("(right with one head only)" in found.sentence) == right_with_one, found.sentence


@pytest.mark.parametrize("scale", sorted(SCALES))
@pytest.mark.parametrize("causal", [False, True])
def test_heads_never_split_is_named_with_its_scale(scale, causal):
    found = em.search(ATTENTION, calls(one_attention(SCALES[scale]), causal), 0, same)
    assert found is not None and found.name == UNCUT + scale, found
    assert "never split into heads" in found.sentence
    assert "d_h = d // heads" in found.sentence and "contiguous columns" in found.sentence
    said = {"": "sqrt(d // heads)", "-scale-d": "sqrt(d)", "-unscaled": "not scaled"}[scale]
    assert said in found.sentence, found.sentence


def test_the_unmoved_split_is_one_rewrite_right_nowhere():
    """b79_07: (T, heads, d_h) never permuted, so each token's heads attend to one another; with
    one head the output is the value projection through Wo; the causal triangle is the scores'
    own (heads x heads), as a mask built from their shape is."""
    rewritten = em.rewrite(ATTENTION, UNMOVED)
    for T, d, heads in ((5, 8, 2), (4, 12, 3), (3, 4, 1)):
        x, p = RNG.normal(size=(T, d)), params(d)
        for causal in (False, True):
            assert np.allclose(rewritten(x, p, heads, causal=causal),
                               unmoved(x, p, heads, causal=causal))
        assert np.allclose(rewritten(x, p, 1), (x @ p["Wv"] + p["bv"]) @ p["Wo"] + p["bo"])


@pytest.mark.parametrize("causal", [False, True])
def test_the_unmoved_split_is_named(causal):
    found = em.search(ATTENTION, calls(unmoved, causal), 0, same)
    assert found is not None and found.name == UNMOVED, found
    assert "(T, heads, d_h)" in found.sentence and "(T, heads, heads)" in found.sentence
    assert "(heads, T, T)" in found.sentence


def test_neither_is_told_of_a_right_multi_head_attention_with_another_mistake():
    """The control: heads split right, scores divided by sqrt(d) (the listed attention_scale_d's
    mistake): right with one head, wrong with several, as the uncut heads are; never told as
    either head mistake."""
    for causal in (False, True):
        found = em.search(ATTENTION, calls(right_but_scaled, causal), 0, same)
        assert found is None or not found.name.startswith((UNCUT, UNMOVED)), found


def test_each_is_told_only_where_it_reproduces_every_call():
    """A call the rewrite does not reproduce (a right answer with two heads) leaves it untold:
    the uncut heads' right one-head calls alone, or the unmoved split's several-head ones, are
    no evidence of either."""
    student = one_attention(SCALES[""])
    mixed = calls(student) + calls(ATTENTION, counts=((5, 8, 2),))
    found = em.search(ATTENTION, mixed, 0, same)
    assert found is None or not found.name.startswith(UNCUT), found
    mixed = calls(unmoved) + calls(ATTENTION, counts=((6, 12, 3),))
    found = em.search(ATTENTION, mixed, 0, same)
    assert found is None or found.name != UNMOVED, found
