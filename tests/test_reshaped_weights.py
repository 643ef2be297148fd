"""error_model/reshaped_weights.py: a weight reshaped to (out, in) where its transpose belongs,
then multiplied as the transpose (b65_11's `np.reshape(W_e, (out, in))` and
`einsum("ij,kj->ik")`), named at any weight a `linear` step multiplies by; a square weight's
reshape is its transpose, told as that."""
from __future__ import annotations

import numpy as np

from grader.checks.compare import Compare, agrees
from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.reference.error_model.reshaped_weights import reshaped_for_transpose

RNG = np.random.default_rng(6511)
TIGHT = Compare("allclose", rtol=1e-5, atol=1e-6)


def same(value, target) -> bool:
    return agrees(value, target, TIGHT, equal_nan=True)


def calls_of(function, student, cases):
    return [em.Call(args, {}, student(*args), function(*args)) for args in cases]


def scrambled(W):
    """What `W.reshape(out, in)` multiplied as an (out, in) weight gives: the weight used."""
    return np.asarray(W).reshape(W.shape[1], W.shape[0]).T


def test_the_patch_embeddings_weight_reshaped_for_its_transpose_is_named_in_its_own_words():
    embed = REFERENCE["linear_patch_embed"]
    cases = [(RNG.normal(size=(4, 6, 3)), RNG.normal(size=(12, 5)), RNG.normal(size=5), 2),
             (RNG.normal(size=(4, 4)), RNG.normal(size=(4, 3)), RNG.normal(size=3), 2)]

    def student(image, W_e, b_e, P):
        weight = np.reshape(W_e, (b_e.shape[0], W_e.shape[0]))  # (out_features, in_features)
        return np.einsum("ij,kj->ik", REFERENCE["patchify"](image, P), weight) + b_e

    found = em.search(embed, calls_of(embed, student, cases), 0, same)
    assert found.name == "op:reshaped_weight:linear_patch_embed/linear:W.reshaped-for-T", found
    assert "`W_e` is reshaped to (d, P*P*C) where its transpose belongs" in found.sentence
    assert "use `W_e.T`" in found.sentence


def test_the_mlps_weights_reshaped_for_their_transposes_are_named_at_both_at_once():
    block = REFERENCE["encoder_block"]
    d = 8
    p = {**{n: RNG.normal(size=(d, d) if n.startswith("W") else d)
            for n in ("Wq", "bq", "Wk", "bk", "Wv", "bv", "Wo", "bo")},
         "ln1_g": RNG.normal(size=d), "ln1_b": RNG.normal(size=d), "ln2_g": RNG.normal(size=d),
         "ln2_b": RNG.normal(size=d), "W1": RNG.normal(size=(d, 2 * d)),
         "b1": RNG.normal(size=2 * d), "W2": RNG.normal(size=(2 * d, d)), "b2": RNG.normal(size=d)}
    torch_style = {**p, "W1": scrambled(p["W1"]), "W2": scrambled(p["W2"])}
    cases = [(RNG.normal(size=(5, d)), p, 2), (RNG.normal(size=(3, d)), p, 1)]
    found = em.search(block, calls_of(block, lambda x, _, h: block(x, torch_style, h), cases),
                      0, same)
    assert found.name == "op:reshaped_weight:encoder_block/mlp/linear*:W.reshaped-for-T", found
    assert "each weight is reshaped to (out, in) where its transpose belongs" in found.sentence


def test_a_square_weights_reshape_is_its_transpose_and_told_as_that():
    """W_q (d, d) reshaped to (d, d) is W_q itself: the code is `x @ W_q.T`, which
    operators.transpose names; this operator holds only where a weight's sizes differ."""
    attend = REFERENCE["self_attention"]
    d = 8
    p = {n: RNG.normal(size=(d, d) if n.startswith("W") else d)
         for n in ("Wq", "bq", "Wk", "bk", "Wv", "bv", "Wo", "bo")}
    cases = [(RNG.normal(size=(5, d)), p, 2), (RNG.normal(size=(4, d)), p, 1)]
    student = {**p, "Wq": scrambled(p["Wq"])}
    found = em.search(attend, calls_of(attend, lambda x, _, h: attend(x, student, h), cases),
                      0, same)
    assert found is not None and "reshaped_weight" not in found.name, found
    assert "T-added" in found.name, found
    assert np.array_equal(reshaped_for_transpose(np.eye(3)[:, :1]), np.eye(3)[:, :1])
