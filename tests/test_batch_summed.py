"""A product with a weight parameter written as an einsum that leaves the batch letter out of
its output (`np.einsum('ijk,k->jk', x_hat, gamma)`, `np.einsum('ijk,kl->jl', x, W)`): the
leading axes summed away, right on (T, d) input only (error_model/leading_axes.py,
`batch_summed`; blind round 79's b79_15). Named only where the rewrite reproduces every call
and a batch of two slices or more was summed; other batch mistakes are not told it."""
from __future__ import annotations

import numpy as np

from grader.checks.compare import Compare, agrees
from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.reference.layers import linear

RNG = np.random.default_rng(79)
LOOSE = Compare("allclose", rtol=1e-4, atol=1e-5)
layer_norm = REFERENCE["layer_norm"]
SUMMED = "op:batch_summed:layer_norm:gamma-batch-summed"
SHAPES = [(4, 6), (3, 4, 5), (6,), (2, 3, 6), (5, 3)]


def same(value, target) -> bool:
    return agrees(value, target, LOOSE, equal_nan=True)


def failing(calls) -> int:
    return next(i for i, c in enumerate(calls) if not same(c.got, c.expected))


def layer_norm_calls(student, shapes):
    out = []
    for shape in shapes:
        d = shape[-1]
        args = (RNG.normal(size=shape) * 2 + 1, 1 + 0.5 * RNG.normal(size=d), RNG.normal(size=d))
        out.append(em.Call(args, {}, student(*args), layer_norm(*args)))
    return out


def einsum_layer_norm(x, gamma, beta, eps=1e-6):
    """A (batch, T, d) port: each row normalised right, gamma applied by an einsum whose output
    leaves out the batch letter (b79_15's, written afresh here)."""
    rows = x.reshape(-1, *x.shape[-2:]) if x.ndim > 1 else x.reshape(1, 1, -1)
    mean = rows.mean(axis=-1, keepdims=True)
    norm = (rows - mean) / np.sqrt(rows.var(axis=-1, keepdims=True) + eps)
    out = np.einsum("bti,i->ti", norm, gamma) + beta
    return out if x.ndim > 1 else out.reshape(-1)


def test_gamma_by_an_einsum_that_drops_the_batch_letter_is_named():
    calls = layer_norm_calls(einsum_layer_norm, SHAPES)
    found = em.search(layer_norm, calls, failing(calls), same)
    assert found is not None and found.name == SUMMED, found
    assert "summed over the input's leading (batch) axes" in found.sentence
    assert "for a batch (B, T, d) it returns (T, d): the sum over its B slices" in found.sentence


def test_every_leading_axis_summed_by_a_reshape_is_the_same_mistake():
    """(2, 3, T, d) read as (6, T, d) by the port's reshape: all leading axes summed."""
    calls = layer_norm_calls(einsum_layer_norm, [(4, 6), (2, 3, 4, 5), (3, 5)])
    found = em.search(layer_norm, calls, failing(calls), same)
    assert found is not None and found.name == SUMMED, found


def test_a_batch_of_one_is_not_told_summed():
    """(1, T, d) returns (T, d): the same values, an axis dropped; no sum was seen."""
    calls = layer_norm_calls(einsum_layer_norm, [(4, 6), (1, 3, 5), (5, 3)])
    found = em.search(layer_norm, calls, failing(calls), same)
    assert found is None or found.name != SUMMED, found


def test_other_batch_mistakes_are_not_told_summed():
    """Controls: statistics over axis 0 of a 3-D input, the batch flattened into the rows the
    wrong way, the whole result (beta too) summed over the batch."""
    def axis_0_for_batches(x, gamma, beta, eps=1e-6):
        axis = 0 if x.ndim == 3 else -1
        mean, var = x.mean(axis=axis, keepdims=True), x.var(axis=axis, keepdims=True)
        return (x - mean) / np.sqrt(var + eps) * gamma + beta

    def rows_mixed(x, gamma, beta, eps=1e-6):
        d = x.shape[-1]
        rows = np.swapaxes(x, 0, -2).reshape(-1, d) if x.ndim == 3 else x.reshape(-1, d)
        out = layer_norm(rows, gamma, beta, eps)
        return out.reshape(x.shape)

    def result_summed(x, gamma, beta, eps=1e-6):
        out = layer_norm(x, gamma, beta, eps)
        return out.sum(axis=0) if x.ndim == 3 else out

    for student in (axis_0_for_batches, rows_mixed, result_summed):
        calls = layer_norm_calls(student, SHAPES)
        found = em.search(layer_norm, calls, failing(calls), same)
        assert found is None or found.name != SUMMED, (student.__name__, found)
        assert found is None or "summed over the input's leading" not in found.sentence


def test_a_right_layer_norm_has_the_rewrite_but_it_changes_nothing_on_two_axes():
    summed = em.rewrite(layer_norm, SUMMED)
    x, gamma, beta = RNG.normal(size=(3, 4, 5)), RNG.normal(size=5), RNG.normal(size=5)
    assert np.allclose(summed(x[0], gamma, beta), layer_norm(x[0], gamma, beta))
    want = (layer_norm(x, gamma, beta) - beta).sum(axis=0) + beta
    assert summed(x, gamma, beta).shape == (4, 5)
    assert np.allclose(summed(x, gamma, beta), want)


def test_a_size_product_keeps_its_type():
    """`P * P * C` (patch_dim's, C a parameter): no leading axes, the int as it is."""
    summed = em.rewrite(REFERENCE["patch_dim"], "op:batch_summed:patch_dim:C-batch-summed")
    assert summed(4, 3) == 48 and type(summed(4, 3)) is type(REFERENCE["patch_dim"](4, 3))


def test_a_linear_map_by_an_einsum_that_drops_the_batch_letter_is_named():
    """`np.einsum('ijk,kl->jl', x, W) + b`: the same mistake on a matrix product."""
    def einsum_linear(x, W, b):
        return (np.einsum("ijk,kl->jl", x, W) if x.ndim == 3 else x @ W) + b

    calls = []
    for shape in [(4, 3), (2, 4, 3), (5, 3), (3, 2, 3)]:
        args = (RNG.normal(size=shape), RNG.normal(size=(3, 2)), RNG.normal(size=2))
        calls.append(em.Call(args, {}, einsum_linear(*args), linear(*args)))
    found = em.search(linear, calls, failing(calls), same)
    assert found is not None and found.name == "op:batch_summed:linear:W-batch-summed", found
