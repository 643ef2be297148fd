"""A normalisation over another axis, its weights then divided by their sums over the right one
(error_model/renormalised.py; issue 38): EANet's external attention's double normalisation,
`softmax(attn, axis=-2)` then each row divided by its sum, ported into the lecture's attention
(blind round 80's b80_06). Named where the rewrite reproduces every call, causal ones too;
tried only where nothing else reproduces the calls; never told of a plain softmax over the wrong
axis (the axis operator's sentence stays) nor of a division after the right softmax (it changes
nothing)."""
from __future__ import annotations

import re

import numpy as np
import pytest
from one_function import graded_one
from test_inner_norm import attention_cases, attention_params, calls_of, same

from grader.checks.results import MISTAKE
from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.reference.error_model import renormalised

ATTENTION = REFERENCE["self_attention"]
OPERATOR = "renormalised"
NAMED = f"op:{OPERATOR}:self_attention/attention:softmax.axis=-2"
WITH_EPS = f"op:{OPERATOR}:self_attention/attention:softmax-plus-1e-09.axis=-2"


def stable_softmax(s, axis):
    e = np.exp(s - s.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def per_head(axis, renormalise=True, drop_output_bias=False, eps=1e-9):
    """Self-attention one head at a time ((..., T, T) scores), its softmax over `axis`, then
    (when `renormalise`) each row divided by its sum plus `eps`, as EANet's external attention
    does (1e-9)."""
    def self_attention(x, p, heads, causal=False):
        T, d = x.shape[-2:]
        hd = d // heads
        outs = []
        for h in range(heads):
            cols = slice(h * hd, (h + 1) * hd)
            q, k, v = (x @ p[f"W{n}"][:, cols] + p[f"b{n}"][cols] for n in "qkv")
            scores = q @ k.swapaxes(-1, -2) / np.sqrt(hd)
            if causal:
                scores = np.where(np.tri(T, dtype=bool), scores, -np.inf)
            w = stable_softmax(scores, axis)
            if renormalise:
                w = w / (eps + w.sum(axis=-1, keepdims=True))
            outs.append(w @ v)
        out = np.concatenate(outs, axis=-1) @ p["Wo"]
        return out if drop_output_bias else out + p["bo"]
    return self_attention


def over_heads(x, p, heads, causal=False):
    """(heads, T, T) scores normalised over the heads (axis 0), then each row by its sum."""
    T, d = x.shape
    q, k, v = ((x @ p[f"W{n}"] + p[f"b{n}"]).reshape(T, heads, -1).transpose(1, 0, 2)
               for n in "qkv")
    w = stable_softmax(q @ k.transpose(0, 2, 1) / np.sqrt(d // heads), 0)
    w = w / w.sum(axis=-1, keepdims=True)
    return (w @ v).transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]


def causal_cases(seed=11):
    rng = np.random.default_rng(seed)
    return [((rng.normal(size=shape), attention_params(shape[-1], rng), heads), {"causal": True})
            for shape, heads in (((4, 4), 1), ((5, 8), 2), ((6, 12), 3))]


def test_a_softmax_over_the_queries_renormalised_over_the_keys_is_named():
    """One head, several, a batch: only the softmax over axis -2 and the rows' division give
    the calls; the sentence says both, and the one softmax over the last axis that belongs."""
    cases = attention_cases()
    found = em.search(ATTENTION, calls_of(ATTENTION, per_head(-2, eps=0.0), cases), 0, same)
    assert found is not None and found.name == NAMED, found
    assert "taken over axis -2 and then divided by its sums over axis -1," in found.sentence
    assert "axis -1 alone" in found.sentence
    assert em.rewrite(ATTENTION, found.name)(*cases[2]).shape == cases[2][0].shape


def test_a_small_constant_added_to_the_sums_is_said_where_the_calls_show_it():
    """EANet's `1e-9 + attn.sum(...)`: a row whose weights are all tiny (the batch's scores far
    apart) shows it; the sentence says a small constant, not which (the calls may not tell)."""
    cases = attention_cases()
    found = em.search(ATTENTION, calls_of(ATTENTION, per_head(-2), cases), 0, same)
    assert found is not None and found.name == WITH_EPS, found
    assert "divided by its sums over axis -1 plus a small constant," in found.sentence
    assert "1e-09" not in found.sentence and "1e-9" not in found.sentence


def test_on_two_dimensional_inputs_axis_1_is_the_same_claim_said_once():
    """On (T, d) inputs the (heads, T, T) scores' axis 1 is axis -2: one mistake, said the
    first way (aliases.py), not two that cannot be told apart."""
    cases = [c for c in attention_cases() if c[0].ndim == 2]
    found = em.search(ATTENTION, calls_of(ATTENTION, per_head(-2, eps=0.0), cases), 0, same)
    assert found is not None and found.name == NAMED, found


def test_with_the_causal_mask_before_the_softmax_it_is_named_too():
    student = per_head(-2, eps=0.0)
    calls = [em.Call(args, kwargs, student(*args, **kwargs), ATTENTION(*args, **kwargs))
             for args, kwargs in causal_cases()]
    found = em.search(ATTENTION, calls, 0, same)
    assert found is not None and found.name == NAMED, found


def test_a_normalisation_over_the_heads_renormalised_is_named_as_axis_0():
    cases = [c for c in attention_cases() if c[0].ndim == 2 and c[2] > 1]
    found = em.search(ATTENTION, calls_of(ATTENTION, over_heads, cases), 0, same)
    assert found is not None and found.name.startswith(f"op:{OPERATOR}:"), found
    assert found.name.endswith("softmax.axis=0"), found
    assert "taken over axis 0 of the model solution's array" in found.sentence


def test_a_plain_softmax_over_the_queries_keeps_the_axis_sentence_and_tries_no_division(
        monkeypatch):
    """Control: no division after it. The axis operator names it, and the renormalised
    rewrites (tried only where nothing else reproduces the calls) are never run."""
    tried = []
    attempt = em.attempt

    def counted(root, group, *args, **kwargs):
        tried.extend(edit.operator for edit in group)
        return attempt(root, group, *args, **kwargs)

    monkeypatch.setattr(em, "attempt", counted)
    cases = attention_cases()
    found = em.search(ATTENTION, calls_of(ATTENTION, per_head(-2, renormalise=False), cases),
                      0, same)
    assert found is not None and found.name == "op:axis:self_attention/attention:softmax.axis=-2"
    assert "divided" not in found.sentence
    assert tried and OPERATOR not in tried


def test_a_division_after_the_right_softmax_is_never_a_rewrite_nor_told():
    """Control: after a softmax over its own axis (or over the whole array, which the division
    turns into the right one) the division changes nothing: no rewrite makes it, and a second
    mistake beside it is told alone."""
    details = {re.sub(r"-plus-\S+?(?=\.axis=)", "", e.detail) for e in em.model(ATTENTION)[1]
               if e.operator == OPERATOR}
    assert details == {"softmax.axis=-2", "softmax.axis=0", "softmax.axis=1"}, details
    cases = attention_cases()
    student = per_head(-1, drop_output_bias=True)
    found = em.search(ATTENTION, calls_of(ATTENTION, student, cases), 0, same)
    plain = em.search(ATTENTION, calls_of(ATTENTION, per_head(-1, False, True), cases), 0, same)
    assert found is not None and plain is not None and found.name == plain.name, (found, plain)
    assert OPERATOR not in found.name and "divided by its sums" not in found.sentence


def test_only_a_helper_that_normalises_along_its_axis_is_rewritten():
    """A helper whose output sums to 1 along its axis (a softmax) is a normalisation; a sum or
    a LayerNorm is not."""
    assert renormalised.normalises(REFERENCE["softmax"], -1)
    assert not renormalised.normalises(lambda x, axis=-1: np.cumsum(x, axis=axis), -1)
    assert not renormalised.normalises(lambda x, axis=-1: x / 2, -1)


@pytest.mark.parametrize("exercise", ["multi-head-attention", "no-causal-mask"])
def test_graded_the_double_normalisation_is_told_on_every_failed_check(
        catalogue, tmp_path, exercise):
    code = '''
def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    hd = d // heads
    if d % heads:
        raise ValueError("heads must divide d")
    outs = []
    for h in range(heads):
        cols = slice(h * hd, (h + 1) * hd)
        q = x @ p["Wq"][:, cols] + p["bq"][cols]
        k = x @ p["Wk"][:, cols] + p["bk"][cols]
        v = x @ p["Wv"][:, cols] + p["bv"][cols]
        scores = q @ k.T / np.sqrt(hd)
        if causal:
            scores = np.where(np.tri(T, dtype=bool), scores, -np.inf)
        w = softmax(scores, axis=0)
        w = w / w.sum(axis=1, keepdims=True)
        outs.append(w @ v)
    return np.concatenate(outs, axis=1) @ p["Wo"] + p["bo"]
'''
    result = graded_one(catalogue, tmp_path, code, exercise)
    failed = [c for c in result.checks if c.status == "failed"]
    assert failed
    for check in failed:
        assert check.hint_kind == MISTAKE and check.misconception.startswith(
            f"op:{OPERATOR}:"), (check.name, check.hint_kind, check.hint)
        assert "divided by its sums over axis -1" in check.hint, check.hint
