"""A table of rows added rolled by one row (error_model/rolled_rows.py): danbev/learning-ai's
notes give the patches `pos[0:N]` and [CLS], put first, `pos[N]` (blind round 66's b66_09); the
reverse roll too. Run in this process on the reference alone: no worker."""
from __future__ import annotations

import numpy as np

from grader.checks.compare import Compare, agrees
from grader.reference import REFERENCE
from grader.reference import error_model as em

RNG = np.random.default_rng(6609)
TIGHT = Compare("allclose", rtol=1e-5, atol=1e-6)
EMBED, PATCHES = REFERENCE["embed_image"], REFERENCE["linear_patch_embed"]
NAME = "op:rows_rolled:embed_image:params['pos']-rolled-"


def same(value, target) -> bool:
    return agrees(value, target, TIGHT, equal_nan=True)


def params(H=4, W=6, C=3, P=2, d=4):
    n = (H // P) * (W // P)
    return {"P": P, "W_e": RNG.normal(size=(P * P * C, d)), "b_e": RNG.normal(size=d),
            "cls": RNG.normal(size=d), "pos": RNG.normal(size=(n + 1, d))}


def calls(student):
    cases = [(RNG.normal(size=(4, 6, 3)), params()), (RNG.normal(size=(4, 4, 1)), params(4, 4, 1)),
             (RNG.normal(size=(6, 6, 3)), params(6, 6, 3, 3, 5))]
    return [em.Call(args, {}, student(*args), EMBED(*args)) for args in cases]


def cls_last_position(image, params):
    """b66_09's order: C_i = E_i + P_i for the patches, then [CLS] its own, the last, row."""
    E = PATCHES(image, params["W_e"], params["b_e"], params["P"])
    pos = params["pos"]
    return np.concatenate([(params["cls"] + pos[len(E)])[None, :], E + pos[:len(E)]], axis=0)


def rolled_up(image, params):
    """Another port's order: [CLS] given row 1, the patches rows 2..N and the last one row 0."""
    E = PATCHES(image, params["W_e"], params["b_e"], params["P"])
    return np.vstack([params["cls"], E]) + np.vstack([params["pos"][1:], params["pos"][:1]])


def test_cls_given_the_last_position_is_named_as_the_table_rolled_down_by_one_row():
    found = em.search(EMBED, calls(cls_last_position), 0, same)
    assert found is not None and found.name == NAME + "down", found
    assert "row 0 gets its last row, `params['pos'][-1]`, and row i its row i - 1" in (
        found.sentence), found.sentence
    assert "the patches get rows 0..N-1 and [CLS] row N" in found.sentence, found.sentence


def test_the_reverse_roll_is_named_as_itself():
    found = em.search(EMBED, calls(rolled_up), 0, same)
    assert found is not None and found.name == NAME + "up", found
    assert "row i gets its row i + 1 and the last row its row 0" in found.sentence


def test_a_right_order_and_one_row_late_are_not_told_rolled():
    assert em.search(EMBED, calls(EMBED), 0, same) is None

    def late(image, params):
        E = PATCHES(image, params["W_e"], params["b_e"], params["P"])
        return np.vstack([params["cls"] + params["pos"][:1], E + params["pos"][:-1]])

    found = em.search(EMBED, calls(late), 0, same)
    assert found is not None and "one-row-late" in found.name, found
