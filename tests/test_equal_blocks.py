"""The image cut into H // P by W // P equal blocks, not P x P patches, with no tiling test
(error_model/equal_blocks.py; issue 38): `np.split(image, H // P, axis=0)`, then each strip into
`W // P` parts (KiLJ4EdeN's img_to_patch `im2patch`, blind round 82's b82_06). Where P does not
tile the image but each side divides into that many parts (30 x 32 with P = 16: 1 x 2 blocks of
30 x 16) the blocks are returned and nothing raises, where was only an observation ("returned 2
patches of 1440 values each"). Named by `checks/kinds/refusals.py` with the missing test, only
where its rewrite reproduces every case the check ran and the probes, each raise by its type
(numpy's refusal of an unequal split is a ValueError, np.split into 0 parts a ZeroDivisionError);
never of code that floors the blocks instead, and a crop or a pad to tile keep their sentences."""
from __future__ import annotations

import numpy as np
import pytest
from one_function import graded_one

from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.reference.error_model.equal_blocks import with_blocks_example

NONE = "op:tiling:{at}:none"
BLOCKS = "op:equal_blocks:{at}:equal-blocks"
BY_ZERO = "op:equal_blocks:{at}:equal-blocks-zero-division"


def pair(at: str, cut: str = BLOCKS) -> str:
    return f"{NONE.format(at=at)}+{cut.format(at=at)}"


# the student's own code: each cuts into H // P by W // P equal parts, with no tiling test
ARRAY_SPLIT = '''
def patchify(image, P):
    img = np.asarray(image, dtype=float)
    if img.ndim == 2:
        img = img[:, :, None]
    if img.ndim != 3:
        raise ValueError("expected an (H, W) or (H, W, C) image")
    n_rows, n_cols = img.shape[0] // P, img.shape[1] // P
    if min(n_rows, n_cols) < 1:
        raise ValueError("the patch is larger than the image")
    tiles = [t for band in np.array_split(img, n_rows, axis=0)
             for t in np.array_split(band, n_cols, axis=1)]
    return np.stack([t.ravel() for t in tiles])
'''
VSPLIT = '''
def patchify(image, P):
    x = image if np.ndim(image) == 3 else np.asarray(image)[..., None]
    if x.ndim != 3:
        raise ValueError("one image, please")
    out = []
    for row in np.vsplit(x, x.shape[0] // P):
        out.extend(cell.reshape(-1) for cell in np.hsplit(row, x.shape[1] // P))
    return np.array(out)
'''
WIDTH_TESTED = VSPLIT.replace("    out = []\n", "    if x.shape[1] % P:\n"
                              "        raise ValueError('P must divide the width')\n"
                              "    out = []\n")  # the width tested, as Zero to Mastery's
# controls: blocks floored (no raise where the sides do not divide), a crop and a pad to tile
FLOORED = '''
def patchify(image, P):
    x = np.asarray(image)
    x = x[:, :, None] if x.ndim == 2 else x
    if x.ndim != 3:
        raise ValueError("one image, please")
    rows, cols = x.shape[0] // P, x.shape[1] // P
    if rows == 0 or cols == 0:
        raise ValueError("the patch is larger than the image")
    h, w = x.shape[0] // rows, x.shape[1] // cols
    return np.stack([x[i * h:(i + 1) * h, j * w:(j + 1) * w].reshape(-1)
                     for i in range(rows) for j in range(cols)])
'''
CROPPED = '''
def patchify(image, P):
    x = np.asarray(image)
    x = x[:, :, None] if x.ndim == 2 else x
    if x.ndim != 3:
        raise ValueError("one image, please")
    H, W, C = x.shape
    x = x[:H // P * P, :W // P * P]
    grid = x.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4)
    return grid.reshape(-1, P * P * C)
'''
PADDED = '''
def patchify(image, P):
    x = np.asarray(image)
    x = x[:, :, None] if x.ndim == 2 else x
    if x.ndim != 3:
        raise ValueError("one image, please")
    x = np.pad(x, ((0, -x.shape[0] % P), (0, -x.shape[1] % P), (0, 0)))
    H, W, C = x.shape
    grid = x.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4)
    return grid.reshape(-1, P * P * C)
'''
REFUSAL_CHECKS = ("errors", "random images that do not tile")


def refusal_checks(result) -> list:
    checks = [c for c in result.checks if c.name in REFUSAL_CHECKS]
    assert len(checks) == 2 and not any(c.passed for c in checks), [
        (c.name, c.passed, c.misconception, c.hint) for c in result.checks]
    return checks


def test_the_rewrite_cuts_equal_blocks_and_refuses_what_numpy_refuses():
    """Tiled sizes: the reference's patches. 30 x 32 with P = 16: 1 x 2 blocks of 30 x 16, in
    raster order, each flattened (p1, p2, c); 9 rows in 4 parts: numpy's ValueError; no whole
    patch: ValueError (a test or np.array_split), or np.split's ZeroDivisionError."""
    patchify = REFERENCE["patchify"]
    blocks, by_zero = (em.rewrite(patchify, pair("patchify", cut)) for cut in (BLOCKS, BY_ZERO))
    rng = np.random.default_rng(3)
    for shape, P in (((4, 6, 3), 2), ((8, 8), 4), ((16, 48, 3), 16)):
        image = rng.normal(size=shape)
        assert np.array_equal(blocks(image, P), patchify(image, P))
        assert np.array_equal(by_zero(image, P), patchify(image, P))
    image = rng.normal(size=(30, 32, 3))
    expected = np.stack([image[:, :16].reshape(-1), image[:, 16:].reshape(-1)])
    assert np.array_equal(blocks(image, 16), expected)
    with pytest.raises(ValueError):
        blocks(rng.normal(size=(9, 8, 3)), 2)
    with pytest.raises(ValueError):
        blocks(np.zeros((8, 2, 3)), 4)
    with pytest.raises(ZeroDivisionError):
        by_zero(np.zeros((8, 2, 3)), 4)
    with pytest.raises(ValueError):
        blocks(np.zeros((30, 32, 3)), 0)  # the reference's refusal of P itself is kept


def test_the_rewrite_holds_in_the_functions_built_on_patchify():
    """Inside linear_patch_embed the blocks are made as in patchify: its tiled values are the
    reference's, and an untiled image raises ValueError at the weights (blocks of H / (H // P)
    by W / (W // P) pixels are P x P only where P tiles the image), as the student's does."""
    embed = REFERENCE["linear_patch_embed"]
    rewritten = em.rewrite(embed, pair("linear_patch_embed/patchify"))
    rng = np.random.default_rng(4)
    W_e, b_e = rng.normal(size=(12, 5)), rng.normal(size=5)
    image = rng.normal(size=(4, 6, 3))
    assert np.allclose(rewritten(image, W_e, b_e, 2), embed(image, W_e, b_e, 2))
    for shape in ((6, 5, 3), (5, 6, 3), (5, 5, 3)):
        with pytest.raises(ValueError):
            rewritten(np.zeros(shape), W_e, b_e, 2)


@pytest.mark.parametrize("exercise", ["linear-patch-embed", "cls-and-positions"])
def test_the_functions_built_on_such_a_patchify_lose_no_points(catalogue, tmp_path, exercise):
    """linear_patch_embed and embed_image on the student's patchify: blocks not P x P never
    meet W_e's P*P*C rows, so every untiled image is refused (by the product) as the
    lecture's: full marks, no hint to give."""
    result = graded_one(catalogue, tmp_path, ARRAY_SPLIT, exercise)
    assert all(c.passed for c in result.checks), [(c.name, c.hint) for c in result.checks]


@pytest.mark.parametrize("code, cut", [(ARRAY_SPLIT, BLOCKS), (VSPLIT, BY_ZERO)],
                         ids=["array-split-own-test", "vsplit-hsplit"])
def test_equal_blocks_and_no_tiling_test_are_named_on_the_refusal_checks(
        catalogue, tmp_path, code, cut):
    result = graded_one(catalogue, tmp_path, code, "patchify")
    for check in refusal_checks(result):
        assert check.misconception == pair("patchify", cut), (check.name, check.hint)
        assert "there is no tiling test" in check.hint
        assert "equal blocks" in check.hint and "`np.split`" in check.hint
        assert "not P x P, and nothing raises (a 32 x 30 image with P = 16 gives 2 x 1 blocks " \
               "of 16 x 30)" in check.hint, check.hint
        assert ("ZeroDivisionError" in check.hint) == (cut == BY_ZERO)
    assert all(c.passed for c in result.checks if c.name not in REFUSAL_CHECKS)


def test_after_a_width_test_the_cut_says_nothing_of_images_with_no_whole_patch(
        catalogue, tmp_path):
    """A width-only test refuses every probe with no whole patch (8 x 2 with P = 4), so the
    cut's ValueError and np.split's ZeroDivisionError both reproduce the calls: the plain cut
    is named, which claims nothing of such images; its example is a size the test let
    through (30 x 32), not one it refused (32 x 30)."""
    result = graded_one(catalogue, tmp_path, WIDTH_TESTED, "patchify")
    failed = [c for c in result.checks if not c.passed]
    assert [c.name for c in failed] == ["errors"], [(c.name, c.hint) for c in failed]
    assert failed[0].misconception == "op:tiling:patchify:width-only+" + BLOCKS.format(
        at="patchify"), failed[0].hint
    assert "ZeroDivisionError" not in failed[0].hint
    assert "(a 30 x 32 image with P = 16 gives 1 x 2 blocks of 30 x 16)" in failed[0].hint


def test_blocks_floored_are_not_told_as_equal_blocks(catalogue, tmp_path):
    """Blocks of H // (H // P) rows, the rest dropped: no raise on 9 rows in 4 parts, where
    np.split refuses; the equal blocks would be a wrong cause."""
    result = graded_one(catalogue, tmp_path, FLOORED, "patchify")
    for check in refusal_checks(result):
        assert "equal_blocks" not in (check.misconception or ""), check.hint
        assert "equal blocks" not in (check.hint or "")


@pytest.mark.parametrize("code, named, said", [
    (CROPPED, "patchify_floor_crop", "cropp"),  # the spec's own misconception
    (PADDED, "op:padded:patchify:image-padded-to-tile", "the image is zero-padded")],
    ids=["crop", "pad"])
def test_a_crop_and_a_pad_to_tile_keep_their_sentences(catalogue, tmp_path, code, named, said):
    result = graded_one(catalogue, tmp_path, code, "patchify")
    for check in refusal_checks(result):
        assert check.misconception == named, (check.misconception, check.hint)
        assert said in check.hint.lower() and "equal blocks" not in check.hint


def test_the_example_is_a_size_the_code_returned_blocks_for():
    """The first size among those returned whose blocks are not P x P and whose sides divide
    into the counts; none where no such size was returned (a tiled one, one refused)."""
    hint = "the blocks are not P x P, and nothing raises. Test"
    assert with_blocks_example(hint, [(32, 32, 16), (30, 32, 16), (32, 30, 16)]) == (
        "the blocks are not P x P, and nothing raises (a 30 x 32 image with P = 16 gives 1 x 2 "
        "blocks of 30 x 16). Test")
    assert with_blocks_example(hint, [(32, 32, 16), (9, 8, 2)]) == hint  # 9 rows in 4 parts
    assert with_blocks_example("another sentence", [(30, 32, 16)]) == "another sentence"
