"""Observations that a failure elsewhere belies are not said, and an answer under a misspelt key
is pointed at (issue 38: never a wrong hint). Each submission is the solution with one snippet
replaced, graded end to end in a worker."""
from __future__ import annotations

import pytest
from buggy_submissions import build_submission

from grader.checks import SubmissionGrading
from grader.checks.results import CHECKLIST, MISTAKE, OBSERVATION
from grader.worker import StudentWorker

from conftest import SOLUTION, SUBMISSIONS

CLS_POSITION_TWICE = '''
"""[CLS] given its position twice: MAE's cls_token + pos_embed[:, :1] and then HF's
embeddings + position_embeddings."""
EXPECT = {"cls-and-positions": None}


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls = params["cls"] + params["pos"][0]
    return np.concatenate([cls[None, :], tokens], axis=0) + params["pos"]
'''



@pytest.fixture(scope="module")
def grade(catalogue, tmp_path_factory):
    def run(snippet: str = "", whole: str = "") -> dict:
        folder = tmp_path_factory.mktemp("snippet")
        (folder / "snippet.py").write_text(snippet)
        submission = build_submission(folder / "snippet.py", folder) if snippet else (
            folder / "vit_exercises.py")
        if whole:
            submission.write_text(whole)
        with StudentWorker(submission) as worker:
            grading = SubmissionGrading(worker, catalogue=catalogue)
            return {e.id: grading.exercise(e) for e in catalogue}
    return run


def test_a_square_only_claim_is_not_made_when_a_square_image_fails_on_another_check(grade):
    """The worked example passes only because its pos[0] is zero; the visible random check's
    failing image is 4 x 6; hidden square images fail too: "right when H == W" would be false."""
    results = grade(CLS_POSITION_TWICE)["cls-and-positions"]
    failed = [c for c in results.checks if not c.passed]
    assert failed and all(c.misconception != "only_square_images" for c in failed)
    assert not any("H == W" in (c.hint or "") for c in failed)
    assert any("row 0" in (c.hint or "") for c in failed)  # what is true is still said


def test_an_answer_under_a_misspelt_key_is_pointed_at(grade):
    solution = SOLUTION.read_text()
    line = 'ANSWERS["causal_mask"] = "bidirectional"'
    assert line in solution
    misspelt = solution.replace(line, 'ANSWERS["causal-mask"] = "bidirectional"')
    check = next(c for c in grade(whole=misspelt)["no-causal-mask"].checks
                 if "ANSWERS" in c.name)
    assert not check.passed and check.score == 0
    assert "'causal-mask'" in check.hint and "'causal_mask'" in check.hint


def test_a_mistake_a_later_check_names_is_tried_on_the_earlier_checks_too(grade):
    """nanoGPT's mask `tril(k=1)` with the output bias added before the projection: the pair is
    found on the hidden causal check; the visible causal check before it, whose own search did
    not find it, is explained again and names it too (Dependencies.explained_again)."""
    fixture = SUBMISSIONS / "buggy" / (
        "nanogpt_tril_k1_mask_sees_next_output_bias_before_projection.py")
    checks = grade(fixture.read_text())["no-causal-mask"].checks
    causal = [c for c in checks if c.name.startswith(("causal=True", "random sequences"))]
    assert len(causal) == 2 and not any(c.passed for c in causal)
    assert all(c.misconception and "op:diagonal" in c.misconception for c in causal), [
        c.misconception for c in causal]


HALF_POWER = '''
"""picoGPT's scale `head_dim ** -0.5` typed `d_h ** -1/2`: 1 / (2 d_h)."""
EXPECT = {"multi-head-attention": None}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    d_h = d // heads
    q, k, v = (x @ p[f"W{n}"] + p[f"b{n}"] for n in "qkv")
    mask = (1 - np.tri(T)) * -1e10 if causal else 0.0
    outs = []
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        scores = q[:, cols] @ k[:, cols].T * d_h ** -1/2 + mask
        outs.append(softmax(scores, axis=-1) @ v[:, cols])
    return np.hstack(outs) @ p["Wo"] + p["bo"]
'''


def test_a_cause_that_fits_one_checks_head_width_only_is_not_named(grade):
    """Where d_h = 4, 1 / (2 d_h) is 1 / sqrt(64), lucidrains' fixed head width: a check whose
    cases all have d_h = 4 cannot tell them apart, but the function's other checks (d_h = 16)
    can; the cause that holds on them all is named on every check."""
    results = grade(HALF_POWER)
    named = {c.misconception for e in ("multi-head-attention", "no-causal-mask")
             for c in results[e].checks if not c.passed and c.misconception}
    assert named and not any("fixed_head_width" in n for n in named), named
    assert any("half_power" in n for n in named), named


EDGE_PADDED = '''
"""patchify padding an image P does not tile by repeating its edge (np.pad's mode='edge'):
no zero padding, so not told it pads with zeros."""
EXPECT = {"patchify": None}


def patchify(image, P):
    image = _as_hwc(image)
    H, W, _ = image.shape
    image = np.pad(image, ((0, -H % P), (0, -W % P), (0, 0)), mode="edge")
    H, W, C = image.shape
    grid = image.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4)
    return grid.reshape(-1, P * P * C)
'''


def test_an_image_padded_to_tile_is_said_only_when_zeros_pad_it(grade):
    """timm's dynamic_img_pad returns the patches of the image zero-padded to a multiple of P;
    an edge-padded image's patches differ on a random image: nothing said of padding there."""
    zeros = grade(EDGE_PADDED.replace(', mode="edge"', ""))["patchify"]
    told = {c.name: c.misconception for c in zeros.checks if not c.passed}
    assert told and set(told.values()) == {PADDED}, told  # named: the rewrite reproduces it
    assert all(c.hint_kind == MISTAKE for c in zeros.checks if not c.passed)
    edge = grade(EDGE_PADDED)["patchify"]
    random = next(c for c in edge.checks if c.name == "random images that do not tile")
    assert not random.passed and random.misconception not in ("pads_to_tile", PADDED)


PADDED = "op:padded:patchify:image-padded-to-tile"


PADDED_AT = '''
"""patchify zero-padding an image P does not tile to a multiple of P, SPLIT (before, after)."""
EXPECT = {"patchify": None}


def patchify(image, P):
    image = _as_hwc(image)
    H, W, _ = image.shape
    split = lambda pad: SPLIT
    image = np.pad(image, (split(-H % P), split(-W % P), (0, 0)))
    H, W, C = image.shape
    grid = image.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4)
    return grid.reshape(-1, P * P * C)
'''


@pytest.mark.parametrize(("split", "detail", "place"), [
    ("(pad // 2, pad - pad // 2)", "evenly-", "evenly on both sides"),
    ("(pad - pad // 2, pad // 2)", "evenly-first-", "evenly on both sides, the odd"),
    ("(pad, 0)", "top-left-", "at the top and left"),
    ("(0, pad)", "", "at the bottom and right")])
def test_an_image_padded_to_tile_is_named_with_where_its_zeros_go(grade, split, detail, place):
    """Blind round 66's b66_14 (vintage-models' PatchConverter) pads evenly on both sides, the
    odd row or column after: only observed ("zero-padded to a multiple of P"), where timm's
    bottom-and-right padding was named. Each place is its own rewrite, named where the cases
    and the probe sizes tell it (refusals.named_refusal): the sentence says where the zeros go."""
    results = grade(PADDED_AT.replace("SPLIT", split))["patchify"]
    failed = [c for c in results.checks if not c.passed]
    assert failed and {c.misconception for c in failed} == {
        f"op:padded:patchify:image-padded-{detail}to-tile"}, [
        (c.name, c.misconception, c.hint) for c in failed]
    assert all(c.hint_kind == MISTAKE and f"zero-padded {place}" in c.hint for c in failed)


HALF_WIDTH_SCALE = '''
"""self_attention scaling each head's scores by (d // heads // 2) ** -0.5, sqrt(d_h // 2) where
sqrt(d_h) belongs: a departure ~10x float16's, the same way as float16 q, k and v move it."""
EXPECT = {}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    dh = d // heads
    scale = (d // heads // 2) ** -0.5
    outs = []
    for h in range(heads):
        cols = slice(h * dh, (h + 1) * dh)
        q = x @ p["Wq"][:, cols] + p["bq"][cols]
        k = x @ p["Wk"][:, cols] + p["bk"][cols]
        v = x @ p["Wv"][:, cols] + p["bv"][cols]
        scores = q @ k.T * scale
        if causal:
            scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
        outs.append(softmax(scores, axis=-1) @ v)
    return np.concatenate(outs, axis=-1) @ p["Wo"] + p["bo"]
'''


def test_a_wrong_scale_is_not_told_it_computed_in_float16(grade):
    """float16 is named where the student's values are nearer its rewrite than the reference
    on every call (trial.explained): a wrong scale moves them the same way, ~10x farther; it is
    named only where the departure is a rounding's size (trial.ROUNDING_SIZE)."""
    results = grade(HALF_WIDTH_SCALE)
    failed = [c for e in ("multi-head-attention", "no-causal-mask")
              for c in results[e].checks if not c.passed]
    assert failed and not any("steps_in" in (c.misconception or "") or "float16" in (c.hint or "")
                              for c in failed), [(c.name, c.misconception) for c in failed]


def test_where_the_zeros_go_is_said_only_where_the_cases_tell(grade):
    """Blind round 66's b66_14 pads evenly on both sides (vintage-models' patchify) and was told
    "zero-padded at the bottom and right" from a case one pixel short, where both places give the
    same: no check says a place the code does not pad at."""
    evenly = EDGE_PADDED.replace("(0, -H % P), (0, -W % P)",
                                 "(-H % P // 2, -H % P - -H % P // 2), "
                                 "(-W % P // 2, -W % P - -W % P // 2)")
    results = grade(evenly.replace(', mode="edge"', ""))["patchify"]
    hints = [c.hint or "" for c in results.checks if not c.passed]
    assert hints and not any("bottom and right" in h or "top and left" in h for h in hints), hints


BATCHED = '''
"""patchify that takes a 4-D array as a batch (MAE's NCHW patchify, ported): each image's
patches, one image after the other."""
EXPECT = {"patchify": "op:batched:patchify:4d-as-batch"}


def patchify(image, P):
    images = np.asarray(image)
    if images.ndim == 2:
        images = images[:, :, None]
    if images.ndim == 3:
        images = images[None]
    n, H, W, C = images.shape
    num_patches(H, W, P)
    grid = images.reshape(n, H // P, P, W // P, P, C).transpose(0, 1, 3, 2, 4, 5)
    return grid.reshape(-1, P * P * C)
'''


def test_a_4d_array_taken_as_a_batch_is_said_so(grade):
    """The errors check's 4-D array: the value is each image's patches, one after the other;
    every other check passes."""
    result = grade(BATCHED)["patchify"]
    told = {c.name: c.misconception for c in result.checks if not c.passed}
    assert told == {"errors": "op:batched:patchify:4d-as-batch"}, told


SEVERAL_HEADS_DISTORTED = '''
"""Right with one head; with several, every output bent by a tanh no rewrite of the lecture's
code makes: only observable, as 'right with one head'."""
EXPECT = {"multi-head-attention": None}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape[-2:]
    if d % heads:
        raise ValueError(f"{heads} heads do not divide the width {d}")
    d_h = d // heads
    q, k, v = (x @ p[w] + p[b] for w, b in (("Wq", "bq"), ("Wk", "bk"), ("Wv", "bv")))
    out = np.zeros_like(q)
    for h in range(heads):
        s = slice(h * d_h, (h + 1) * d_h)
        scores = q[..., s] @ np.swapaxes(k[..., s], -1, -2) / np.sqrt(d_h)
        if causal:
            scores = np.where(np.tri(T, dtype=bool), scores, -np.inf)
        out[..., s] = softmax(scores, axis=-1) @ v[..., s]
    if heads > 1:
        out = out + 0.1 * np.tanh(3 * out)
    return out @ p["Wo"] + p["bo"]
'''


def test_a_generalisation_weighs_the_functions_other_checks(grade):
    """The visible check with several heads has no one-head case of its own; the one-head
    check of the same function passed in this submission, so it is told 'right with one head'
    (mistakes.Memory), as the hidden check is."""
    told = {c.name: c.misconception
            for c in grade(SEVERAL_HEADS_DISTORTED)["multi-head-attention"].checks
            if not c.passed}
    assert set(told.values()) == {"only_one_head"}, told
    assert "several head counts (contiguous head split, 1/sqrt(d_h) scale)" in told


HEIGHT_ONLY_CEILING = '''
"""num_patches testing the height only, and counting a partial patch at the right edge: no
rewrite of the tiling test alone gives its let-through values, and no pair of one with the
count by area does."""
EXPECT = {"patch-count": None}


def num_patches(H, W, P):
    if H % P:
        raise ValueError("P does not tile the height")
    return (H // P) * -(-W // P)
'''

BITWISE_OR = '''
"""num_patches with `|` for `or` (a chained comparison): named as that, never as a width-only
test, which a 30 x 30 image with P = 16 tells apart (this code returns 1 there)."""
EXPECT = {"patch-count": "op:tiling:num_patches:bitwise-or"}


def num_patches(H, W, P):
    if H % P != 0 | W % P != 0:
        raise ValueError("image_size must be divisible by patch_size")
    return (H // P) * (W // P)
'''


def test_a_tiling_test_is_named_only_where_its_rewrite_gives_every_value(grade):
    """A tiling test's rewrite names a mistake only when it reproduces every case, the values
    let through included, and what the code returns on the sizes its sentences speak of
    (refusals.PROBES): a 30 x 30 image tells `|` for `or` from a width-only test."""
    ceiling = grade(HEIGHT_ONLY_CEILING)["patch-count"]
    told = {c.misconception for c in ceiling.checks if not c.passed}
    assert told and not any((m or "").startswith("op:tiling") for m in told), told
    chained = grade(BITWISE_OR)["patch-count"]
    told = {c.misconception for c in chained.checks if not c.passed}
    assert told == {"op:tiling:num_patches:bitwise-or"}, told


def test_the_search_leaves_a_tiling_test_to_the_refusal_check_and_its_probes(grade, monkeypatch):
    """The error model's search never names a rewrite of the tiling test (modules.NAMED_ELSEWHERE):
    only `refusals.named_refusal` does, after the student's code answered the probe sizes the
    check's cases may lack. With that step left out, nothing names the `|` for `or`."""
    from grader.checks.kinds import call
    monkeypatch.setattr(call, "named_refusal", lambda result, *args, **kwargs: result)
    told = {c.misconception for c in grade(BITWISE_OR)["patch-count"].checks if not c.passed}
    assert told and not any((m or "").startswith("op:tiling") for m in told), told


NO_TILING_TEST = '''
"""num_patches with no tiling test at all and a square image assumed (emla2805's
`(image_size // patch_size) ** 2`): both named, on the sizes that do not tile."""
EXPECT = {"patch-count": "op:tiling:num_patches:none+op:sibling:num_patches:W-as-H"}


def num_patches(H, W, P):
    return (H // P) ** 2
'''


def test_code_with_no_tiling_test_is_not_told_its_tiling_test_tests_nothing(grade):
    """The named mistake for a missing test says a size P does not tile is let through; it does
    not quote the reference's `check_tiling(...)` as a test the file has (blind round 32's
    b32_08), nor say "it refuses no size" (round 54's b54_01 refused an image with no whole
    patch: sliding_window_view's own error)."""
    failed = [c for c in grade(NO_TILING_TEST)["patch-count"].checks if not c.passed]
    named = [c for c in failed if "op:tiling:num_patches:none" in (c.misconception or "")]
    assert named, [c.misconception for c in failed]
    for check in named:
        assert "there is no tiling test: a size P does not tile (30 x 32 with P = 16) gets " \
               "a count." in check.hint, check.hint
        assert "refuses no size" not in check.hint and "check_tiling" not in check.hint

GRAY_AND_FOUR_CHANNELS_REFUSED = '''
"""patchify refusing gray images and 4-channel ones (RGBA) alike, right on 1 to 3 channels: no
guard of error_model/guards.py refuses exactly those (gray-refused lets RGBA through, rgb-only
refuses one and two channels), so no refusal is named."""
EXPECT = {"patchify": None}


def patchify(image, P):
    image = np.asarray(image)
    if image.ndim != 3 or image.shape[2] > 3:
        raise ValueError("an image is (H, W, C) with C <= 3")
    H, W, C = image.shape
    num_patches(H, W, P)
    grid = image.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4)
    return grid.reshape(-1, P * P * C)
'''

LAST_AXIS_ONLY_IN_3D = '''
"""softmax refusing an axis but the last of a 3-D input only, right along every axis of a 2-D
one: the last-axis-only guard would refuse axis 0 of a 2-D input too, so it is not named."""
EXPECT = {"stable-softmax": None}


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    if x.ndim > 2 and axis % x.ndim != x.ndim - 1:
        raise ValueError("3-D inputs: last axis only")
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
'''

GRAY_REFUSED = '''
"""patchify written for (H, W, C) arrays, raising TypeError for a gray image (one that P does
not tile too, where the lecture's raises ValueError): its refusal is named by what it refuses,
whatever its exception."""
EXPECT = {"patchify": "op:guarded:patchify:gray-refused"}


def patchify(image, P):
    image = np.asarray(image)
    if image.ndim == 2:
        raise TypeError("expected an (H, W, C) image")
    H, W, C = image.shape  # numpy's ValueError for a 4-D array, as the lecture's
    num_patches(H, W, P)
    grid = image.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4)
    return grid.reshape(-1, P * P * C)
'''


def test_a_refusal_is_named_only_by_a_guard_that_refuses_exactly_what_the_code_refuses(grade):
    """`refusals.named_refusal` names a guard of error_model/guards.py only when it raises on
    exactly the calls the code raised on, the probes that vary what it tests included (every
    channel count, every axis), any exception where the reference returns a value: a code that
    refuses more or less than the guard gets no guard named, one that refuses exactly it is."""
    for snippet, exercise in ((GRAY_AND_FOUR_CHANNELS_REFUSED, "patchify"),
                              (LAST_AXIS_ONLY_IN_3D, "stable-softmax")):
        told = {c.misconception for c in grade(snippet)[exercise].checks if not c.passed}
        assert told and not any((m or "").startswith("op:guarded") for m in told), told
    told = {c.misconception for c in grade(GRAY_REFUSED)["patchify"].checks if not c.passed}
    assert "op:guarded:patchify:gray-refused" in told, told


ONE_AXIS_REFUSED_AXIS_IGNORED = '''
"""softmax refusing a 1-D vector (its own Exception) and taking the last axis whatever `axis`
says, right on 4-D input along the last axis: not Keras 1's "not 2D or 3D" guard, which refuses
4-D arrays too (the probes try one), so that guard is not named."""
EXPECT = {"stable-softmax": None}


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        raise Exception("softmax needs a batch")
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)
'''


def test_a_guard_is_paired_with_the_one_value_mistake_only_where_it_refuses_exactly(grade):
    """Keras 1's softmax (b35_04) refuses every array but 2-D and 3-D ones with a plain
    Exception and takes the last axis whatever `axis` says: the guard and the parameter read as
    its default, as a pair, reproduce every call, the 1-D and 4-D probes included. A code that
    refuses 1-D arrays only, its axis ignored as well, returns values on the 4-D probes: the
    guard is not named there."""
    keras = (SUBMISSIONS / "buggy" / "keras1_softmax_axis_ignored_refuses_not_2d_or_3d.py")
    told = {c.misconception for c in grade(keras.read_text())["stable-softmax"].checks
            if not c.passed}
    assert ("op:guarded:softmax:two-or-three-axes-only+op:default:softmax:axis-as-default"
            in told), told
    told = {c.misconception for c in grade(ONE_AXIS_REFUSED_AXIS_IGNORED)["stable-softmax"].checks
            if not c.passed}
    assert told and not any("two-or-three-axes-only" in (m or "") for m in told), told


ONE_MATRIX_ONLY = '''
"""softmax written for one (rows, cols) score matrix (blind round 56's b56_03): `rows, cols =
x.shape` raises for 1-D and 3-D input, and the rows are normalised whatever `axis` says."""
EXPECT = {"stable-softmax": None}


def softmax(x, axis=-1):
    rows, cols = x.shape
    e = np.exp(x - x.max(axis=1).reshape(rows, 1))
    return e / e.sum(axis=1).reshape(rows, 1)
'''

ROWS_OF_ANY_ARRAY = '''
"""softmax over axis 1 whatever the shape, `x.max(axis=1)[:, None]`: a 1-D vector raises, a 3-D
array returns its middle axis normalised. Not refusing every array but a 2-D one."""
EXPECT = {"stable-softmax": None}


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=1)[:, None])
    return e / e.sum(axis=1)[:, None]
'''


def test_a_softmax_for_one_matrix_is_named_as_refusing_all_but_2d_and_ignoring_axis(grade):
    """Blind round 56 (b56_03): a softmax that raises for every array but a 2-D one (the probes
    try 1-D to 4-D along each axis) and works along the rows of a 2-D one whatever `axis` says:
    guards.py's "matrix-only" with `axis` taken as its default. Of the value mistakes alike
    behind that guard ("axis 1 unless 1-D", "rows, or the whole array"), only the default's
    words hold on 2-D calls (refusals._words_hold). A softmax over axis 1 that returns values for
    3-D input is not told the guard: its axis is named instead."""
    told = {c.misconception for c in grade(ONE_MATRIX_ONLY)["stable-softmax"].checks
            if not c.passed}
    assert "op:guarded:softmax:matrix-only+op:default:softmax:axis-as-default" in told, told
    assert not any("rows_or_whole" in (m or "") for m in told), told
    told = {c.misconception for c in grade(ROWS_OF_ANY_ARRAY)["stable-softmax"].checks
            if not c.passed}
    assert told and not any("matrix-only" in (m or "") for m in told), told
    assert "op:axis:softmax:max.axis=1+op:axis:softmax:sum.axis=1" in told, told
    told = {c.misconception for c in grade(ONE_AXIS_REFUSED_AXIS_IGNORED)["stable-softmax"].checks
            if not c.passed}
    assert not any("matrix-only" in (m or "") for m in told), told

GRAY_READ_CHANNEL_FIRST_BROADCAST = '''
"""conv_patch_embed giving a gray image its channel axis in front (torch's unsqueeze(0): (1, H,
W) read as H = 1, W = H, C = W) and summing each window by broadcasting: a kernel taller than
one row is refused (its own ValueError), a 1 x 1 kernel returns a value, a wrong one. The code
does not refuse gray images, so the gray-refused guard is not named (the probes try a 1 x 1
kernel on gray images of every width)."""
EXPECT = {"kernel-stride": None}


def conv_patch_embed(image, K, b, stride):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[None]
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    rows, columns = (H - k) // stride + 1, (W - k) // stride + 1
    out = np.zeros((rows, columns, K.shape[3]))
    for i in range(rows):
        for j in range(columns):
            window = image[i * stride:i * stride + k, j * stride:j * stride + k]
            out[i, j] = (window[..., None] * K).sum(axis=(0, 1, 2))
    return out + b
'''


def test_a_gray_image_refused_for_some_kernels_only_is_no_refusal(grade):
    """A code that raises on a gray image for a kernel taller than one row and returns a wrong
    value for a 1 x 1 kernel does not refuse gray images: `named_refusal`'s probes vary a
    convolution's kernel side with its image (the kernel's own and 1), so the guard that refuses
    every gray image is not named."""
    result = grade(GRAY_READ_CHANNEL_FIRST_BROADCAST)["kernel-stride"]
    told = {c.misconception for c in result.checks if not c.passed}
    assert told and "op:guarded:conv_patch_embed:gray-refused" not in told, told


def _failed(results, exercise: str, prefix: str):
    return next(c for c in results[exercise].checks if c.name.startswith(prefix) and not c.passed)


def test_a_hidden_failure_no_mistake_explains_gets_the_checklist(grade):
    """fast.ai's softmax indexes x as a 2-D array: it raises ValueError on a hidden 3-D case, and
    its hidden check said nothing but "your code raised ValueError" (issue 38). The hidden
    check's checklist says what the hidden cases vary; where a mistake is named, that stays."""
    fixture = SUBMISSIONS / "buggy" / (
        "fastai_logsumexp_softmax_2d_index_fused_qkv_split_per_head.py")
    check = _failed(grade(fixture.read_text()), "stable-softmax", "random shapes")
    assert check.hidden and "raised ValueError" in check.message
    assert check.hint_kind == CHECKLIST and "any `axis`" in check.hint
    other = SUBMISSIONS / "buggy" / "activation_zoo_elu_mlp_softmax_axis_zero_by_transpose.py"
    named = _failed(grade(other.read_text()), "stable-softmax", "random shapes")
    assert named.hint_kind == MISTAKE and "any `axis`" not in named.hint


def test_a_check_with_no_hint_points_at_the_exercise_that_tests_its_function_most(grade):
    """llama2.c's attention (W @ x per token, the in-place softmax's result dropped):
    no-causal-mask's causal=True check finds no mistake and said only expected/got, while
    multi-head-attention (five checks of `self_attention`, it two) names it: it points there.
    (The UDL book's softmax over the queries was this test's file until its causal check named
    its own pair.) multi-head-attention itself never points back at no-causal-mask
    (mmpretrain's cached attention: both fail with no mistake named)."""
    fixture = SUBMISSIONS / "buggy" / "llama2_c_matmul_transposed_softmax_in_place.py"
    results = grade(fixture.read_text())
    check = _failed(results, "no-causal-mask", "causal=True")
    assert check.hint_kind == OBSERVATION and "loses points in multi-head-attention" in check.hint
    assert all(c.passed or "loses points in" not in (c.hint or "")
               for c in results["multi-head-attention"].checks)
    other = SUBMISSIONS / "unnamed" / (
        "mmpretrain_attention_cached_per_width_answers_zipped_out_of_order.py")
    mha = grade(other.read_text())["multi-head-attention"].checks
    assert any(not c.passed for c in mha)
    assert not any("loses points in no-causal-mask" in (c.hint or "") for c in mha)


POSITIONS_BEFORE_CLS = '''
"""The patch tokens take the first N rows of `pos` before [CLS] is stacked on top: [CLS] gets no
position and patch i the row meant for token i; with num_patches floor-dividing, so that
cls-and-positions is graded around the grader's num_patches."""
EXPECT = {"cls-and-positions": None}


def num_patches(H, W, P):
    return (H // P) * (W // P)


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    n = tokens.shape[0]
    tokens = tokens + params["pos"][:n]
    return np.concatenate([params["cls"].reshape(1, -1), tokens])
'''

POSITIONS_ONE_ROW_LATE = '''
"""Every token but [CLS] takes the row of `pos` before its own ([CLS] keeps row 0), graded
around the grader's num_patches as above."""
EXPECT = {"cls-and-positions": None}


def num_patches(H, W, P):
    return (H // P) * (W // P)


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    tokens = np.concatenate([params["cls"].reshape(1, -1), tokens])
    late = np.concatenate([params["pos"][:1], params["pos"][:-1]])
    return tokens + late
'''


@pytest.mark.parametrize("own", [False, True])
def test_a_mistake_named_on_a_thin_check_holds_on_the_later_checks_too(grade, own):
    """The worked example's pos[0] is zero: there "one row late" and positions added before
    [CLS] is prepended give the same values, and it is explained first. Graded around the
    grader's num_patches, the later checks' cases (same stand-ins) are weighed once they ran
    (Dependencies.explained_again): every check names the cause that holds on them all. With
    num_patches right (`own`), the student's own code as it is, the same."""
    snippet = POSITIONS_BEFORE_CLS
    if own:
        snippet = snippet.replace("return (H // P) * (W // P)",
                                  "if H % P or W % P:\n        raise ValueError(P)\n"
                                  "    return (H // P) * (W // P)")
    checks = grade(snippet)["cls-and-positions"].checks
    failed = [c for c in checks if not c.passed]
    assert len(failed) == 3
    assert not any("one_row_late" in (c.misconception or "") for c in failed), [
        c.misconception for c in failed]
    assert all(c.hint_kind == MISTAKE and "before-vstack" in c.misconception
               for c in failed), [c.misconception for c in failed]


def test_a_mistake_that_holds_on_every_check_stays_named(grade):
    """Positions truly one row late: named on every check, the worked example included."""
    checks = grade(POSITIONS_ONE_ROW_LATE)["cls-and-positions"].checks
    failed = [c for c in checks if not c.passed]
    assert failed and all(c.hint_kind == MISTAKE and "one_row_late" in c.misconception
                          for c in failed), [c.misconception for c in failed]


AFFINE_FREE_NORMS = '''
"""encoder_block normalising without learned affine parameters (an adaLN-style block whose
modulation was cut out): `layer_norm(h, 1.0, 0.0)` at both LayerNorms."""
EXPECT = {"encoder-block": None}


def encoder_block(x, p, heads):
    attn_in = layer_norm(x, 1.0, 0.0)
    x = x + self_attention(attn_in, p, heads)
    mlp_in = layer_norm(x, 1.0, 0.0)
    hidden = gelu(mlp_in @ p["W1"] + p["b1"])
    return x + hidden @ p["W2"] + p["b2"]
'''


def test_one_slip_at_both_calls_of_layer_norm_is_named(grade):
    """Gain and shift left out of both LayerNorms of the block: one slip at 4 places
    (error_model/slips.py), where sibling pairs reach only one call's two."""
    failed = [c for c in grade(AFFINE_FREE_NORMS)["encoder-block"].checks if not c.passed]
    wanted = "+".join(f"op:term:encoder_block/layer_norm{n}:drop-{t}"
                      for n in ("", ".2") for t in ("beta", "gamma"))
    assert failed and all(c.misconception == wanted for c in failed), failed
    assert all(c.hint.startswith("One slip, at both of `encoder_block`'s calls of `layer_norm`")
               for c in failed)


FIXED_LAYER_SCALE = '''
"""encoder_block with each residual branch damped by a constant layer scale of one tenth
(InternViT's initial value, never learned here)."""
EXPECT = {"encoder-block": None}


def encoder_block(x, p, heads):
    x = x + 0.1 * self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = gelu(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"])
    return x + 0.1 * (h @ p["W2"] + p["b2"])
'''


def test_a_fixed_layer_scale_on_both_branches_is_named(grade):
    failed = [c for c in grade(FIXED_LAYER_SCALE)["encoder-block"].checks if not c.passed]
    wanted = ("op:residual_scaled:encoder_block:self_attention-branch-times-0.1"
              "+op:residual_scaled:encoder_block:mlp-branch-times-0.1")
    assert failed and all(c.misconception == wanted for c in failed), failed


EPS_FIXED_MOMENTS_OVER_AXIS_1 = '''
"""layer_norm written for one (T, d) sequence the way thinc's forward is: the moments taken over
axis 1 and a fixed 1e-8 added to the variance, the eps argument never read."""
EXPECT = {"layer-norm": None}


def layer_norm(x, gamma, beta, eps=1e-6):
    mu = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True) + 1e-08
    return (x - mu) * var ** (-0.5) * gamma + beta
'''


def test_an_epsilon_fixed_beside_moments_over_axis_1_is_named_where_it_shows(grade):
    """The visible check's (T, d) cases show the fixed epsilon only, the hidden check's batches
    the axis too: the visible check names the epsilon (its wider search, with the hidden
    check's failed batches, finds the three edits that include it: slips.with_twins); no
    check names a cause the code does not have."""
    failed = [c for c in grade(EPS_FIXED_MOMENTS_OVER_AXIS_1)["layer-norm"].checks
              if not c.passed]
    told = [c.misconception for c in failed]
    assert "op:default:layer_norm:eps-as-1e-08" in told, told
    assert all(m is None or m.startswith("op:") and "eps-as-1e-08" in m for m in told), told


def test_a_guard_is_tried_where_another_case_than_the_failed_one_raised(grade):
    """The numpy `convolve` helper: its visible check fails first on a value (the loops one
    short, the bias alone in the last row and column) and raises AssertionError on two other
    cases (`assert (H - k) % s == 0`). The guard is tried on the first case that raised, so the
    visible check names the pair as the hidden one (whose failed case raised) does."""
    fixture = SUBMISSIONS / "buggy" / "numpy_convolve_window_loops_one_short_stride_fit_asserted.py"
    checks = grade(fixture.read_text())["kernel-stride"].checks
    called = [c for c in checks if c.name.startswith(("conv_patch_embed for", "random kernels"))]
    assert len(called) == 2 and not any(c.passed for c in called)
    assert {c.misconception for c in called} == {
        "op:guarded:conv_patch_embed:windows-must-fit"
        "+op:window_range_bias_after:conv_patch_embed:windows-range-one-short-b-after"}


FLOORED_TOKENS_UNTESTED = '''
"""num_tokens with no tiling test, counting whole patches by flooring a true division,
`int(H / P) * int(W / P)`: an int on every size, the floored grid where P does not tile. Its
floored count is named, never paired with the true division (a fraction of a patch)."""
EXPECT = {"token-count": "tokens_floor_division"}


def num_tokens(H, W, P, cls_token=True):
    return int(H / P) * int(W / P) + (1 if cls_token else 0)
'''


def test_a_true_division_count_is_named_only_where_a_fraction_of_a_patch_came_back(grade):
    """tiling.py's `true_division` is tried only after a tiling test that lets a size through:
    round 45's FLOPs script (`(H / P) * (W / P)`, no test) gets the pair; a code that floors
    each side's quotient (an int, whole patches) gets its floored count, never the pair."""
    flops = SUBMISSIONS / "buggy" / "vit_flops_true_division_tokens_no_tiling_test.py"
    pair = ("op:tiling:num_tokens/num_patches:none"
            "+op:true_division:num_tokens/num_patches:count-by-true-division")
    told = {c.misconception for c in grade(flops.read_text())["token-count"].checks
            if not c.passed}
    assert pair in told, told
    told = {c.misconception for c in grade(FLOORED_TOKENS_UNTESTED)["token-count"].checks
            if not c.passed}
    assert told and not any("true_division" in (m or "") for m in told), told


BATCH_ONLY_REFUSED = '''
"""layer_norm with the statistics over axis 1 re-expanded as `[:, np.newaxis]`: a (d,) token
raises, a (B, T, d) batch does not (it normalises each sequence over T, a wrong value). The
code refuses a token but not a batch: the two-axes-only guard is not named."""
EXPECT = {"layer-norm": None}


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=-1)[..., np.newaxis]
    var = np.var(x, axis=1)[:, np.newaxis]
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
'''

MATRIX_ONLY = '''
"""layer_norm ported from a numpy `normalization(x)` for [N, m] rows or [N, C, H, W] images:
the 4-D branch's axes (0, 2, 3) raise AxisError on a (B, T, d) batch, `axis=1` on a (d,) token;
a (T, d) matrix is right."""
EXPECT = {"layer-norm": "op:guarded:layer_norm:two-axes-only"}


def layer_norm(x, gamma, beta, eps=1e-6):
    if x.ndim > 2:
        mean = np.mean(x, axis=(0, 2, 3))[:, np.newaxis, np.newaxis]
        var = np.var(x, axis=(0, 2, 3))[:, np.newaxis, np.newaxis]
    else:
        mean = np.mean(x, axis=1)[:, np.newaxis]
        var = np.var(x, axis=1)[:, np.newaxis]
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
'''


def test_a_normaliser_that_refuses_every_rank_but_two_is_told_so_and_no_other(grade):
    """guards.py's `two-axes-only`, weighed on `aspects.rank_probes` (a token, a sequence, a
    batch): named for code that refuses exactly the ranks but 2 (the b47_12 fixture names it
    with its eps too), never where a token raises and a batch returns a value."""
    told = {c.misconception for c in grade(BATCH_ONLY_REFUSED)["layer-norm"].checks
            if not c.passed}
    assert told and not any("two-axes-only" in (m or "") for m in told), told
    told = {c.misconception for c in grade(MATRIX_ONLY)["layer-norm"].checks if not c.passed}
    assert "op:guarded:layer_norm:two-axes-only" in told, told


UNFOLDED_CHANNELS_FIRST = '''
"""patchify through torch's `unfold` on a channels-first copy: no tiling test (the windows
floor), each patch flattened channels first (blind round 54's b54_01)."""
EXPECT = {"patchify": None}


def patchify(image, P):
    image = _as_hwc(image)
    x = image.transpose(2, 0, 1)
    windows = np.lib.stride_tricks.sliding_window_view(x, (P, P), axis=(1, 2))[:, ::P, ::P]
    return windows.transpose(1, 2, 0, 3, 4).reshape(-1, x.shape[0] * P * P)
'''
UNTESTED_KERNEL_IMAGE_DTYPE = '''
"""conv_patch_embed with no kernel test and its sums in a buffer of the image's dtype, the bias
added in place (MLBites' conv2d_forward, blind round 54's b54_05)."""
EXPECT = {"kernel-stride": None}


def conv_patch_embed(image, K, b, stride):
    x = _as_hwc(image)
    k, d = K.shape[0], K.shape[3]
    h, w = (x.shape[0] - k) // stride + 1, (x.shape[1] - k) // stride + 1
    out = np.zeros((max(h, 0), max(w, 0), d), dtype=x.dtype)
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            window = x[i * stride:i * stride + k, j * stride:j * stride + k]
            out[i, j] = np.tensordot(window, K, axes=3)
    out += b
    return out
'''


@pytest.mark.parametrize("snippet, exercise, check_name, told", [
    (UNFOLDED_CHANNELS_FIRST, "patchify", "errors",
     "op:tiling:patchify:none+op:cropped:patchify:image-cropped-to-tile"),
    (UNTESTED_KERNEL_IMAGE_DTYPE, "kernel-stride", "a kernel larger than the image",
     "op:kernel_untested:conv_patch_embed:kernel-untested")])
def test_a_refusal_check_is_told_only_the_mistakes_its_own_cases_show(
        grade, snippet, exercise, check_name, told):
    """Blind round 54: the refusal named on a check of blank images was told with a mistake only
    the function's other cases show (b54_01's channel order, b54_05's uint8 buffer on a check of
    float images): "3 mistakes at once", "2 mistakes at once". The name a check tells keeps only
    the parts its own cases need; the others are named where they show."""
    results = grade(snippet)[exercise]
    check = next(c for c in results.checks if c.name.startswith(check_name))
    assert not check.passed and check.hint_kind == MISTAKE
    assert check.misconception.removesuffix("-none-fitting-refused") == told, check.misconception
    assert "mistakes at once" not in check.hint, check.hint
    shown = {c.misconception or "" for c in results.checks if not c.passed}
    assert any("channels_first" in m or "image-dtype" in m for m in shown), shown



COLUMNS_FROM_H = '''
"""conv_patch_embed with its output columns counted from H (blind round 55's b55_11): a tall
image's windows run off its right edge (IndexError), a wide one's output loses columns."""
EXPECT = {"kernel-stride": None}


def conv_patch_embed(image, K, b, stride):
    x = _as_hwc(image)
    k, d = K.shape[0], K.shape[3]
    if k > x.shape[0] or k > x.shape[1]:
        raise ValueError("kernel larger than the image")
    n = (x.shape[0] - k) // stride + 1
    out = np.zeros((n, n, d))
    for c in range(x.shape[2]):
        for i in range(n):
            for j in range(n):
                for p in range(k):
                    for q in range(k):
                        out[i, j, :] += K[p, q, c, :] * x[stride * i + p, stride * j + q, c]
    return out + b
'''
TALL_ONLY = "    cases:\n" + "".join(  # a square image, then two tall ones
    f"      - args: [{{random: {image}, seed: {seed}}}, {{random: {kernel}, seed: {seed + 1}}}, "
    f"{{random: {kernel[-1]}, seed: {seed + 2}}}, {stride}]\n"
    for image, kernel, stride, seed in (([5, 5, 3], [3, 3, 3, 2], 1, 61),
                                        ([9, 6, 3], [3, 3, 3, 2], 1, 64),
                                        ([8, 4], [2, 2, 1, 3], 2, 67)))


def test_raises_is_said_of_a_hidden_class_only_where_no_check_returned_for_it(tmp_path):
    """A course whose hidden convolution check draws tall images only: b55_11's code raises
    IndexError on each of them, while the visible check's wide images return a wrong shape.
    "raises IndexError for a non-square image" would be false of those: every check's failing
    cases weigh, as they do on "right when H == W"."""
    from grader.checks.catalogue import load_exercises

    from conftest import EXERCISES
    spec = (EXERCISES / "kernel-stride.yaml").read_text()
    drawn = "    generate: {generator: conv_inputs, count: 12, seed: 472}\n"
    assert drawn in spec
    (tmp_path / "kernel-stride.yaml").write_text(spec.replace(drawn, TALL_ONLY))
    exercises, errors = load_exercises(tmp_path)
    assert not errors and len(exercises) == 1, errors
    (tmp_path / "snippet.py").write_text(COLUMNS_FROM_H)
    submission = build_submission(tmp_path / "snippet.py", tmp_path)
    with StudentWorker(submission) as worker:
        results = SubmissionGrading(worker, catalogue=exercises).exercise(exercises[0])
    hidden = next(c for c in results.checks if c.name == "random kernels, strides and images")
    visible = next(c for c in results.checks if c.name.startswith("conv_patch_embed for"))
    assert not hidden.passed and not visible.passed
    assert hidden.misconception == "only_square_images", (hidden.misconception, hidden.hint)
    assert "raises" not in hidden.hint and "wrong for a non-square image" in hidden.hint


PLACE_FROM_ROW_COUNT = '''
"""patchify with no tiling test (it crops), patch k's place taken as divmod(k, H // P): right on
square images that tile, ValueError for a non-square one."""
EXPECT = {"patchify": None}


def patchify(image, P):
    image = _as_hwc(image)
    H, W, C = image.shape
    n_rows, n_cols = H // P, W // P
    out = np.zeros((n_rows * n_cols, P * P * C))
    for k in range(n_rows * n_cols):
        r, c = divmod(k, n_rows)
        out[k] = image[r * P:(r + 1) * P, c * P:(c + 1) * P].reshape(-1)
    return out
'''


def test_a_square_image_that_should_be_refused_belies_right_when_h_equals_w(grade):
    """The hidden check of images that do not tile has a 5 x 5 image with P = 3, for which this
    code returns a patch where ValueError is due: "Your `patchify` is right when H == W" would
    be false of it. A failing refusal weighs against a generalisation as a wrong value does."""
    checks = grade(PLACE_FROM_ROW_COUNT)["patchify"].checks
    refusals = next(c for c in checks if c.name == "random images that do not tile")
    assert not refusals.passed
    failed = [c for c in checks if not c.passed]
    assert not any("H == W" in (c.hint or "") for c in failed), [c.hint for c in failed]
    assert all(c.misconception != "only_square_images" for c in failed)


@pytest.mark.parametrize("stem, needed", [
    ("neuroscribe_conv_patch_embed_column_offset_from_row_index", False),
    ("conv_tutorial_width_from_height", False),
    ("tf_dcgan_conv_same_padding_kernel_larger_than_image", True)])
def test_a_missing_kernel_test_is_said_only_where_the_calls_need_it(grade, stem, needed):
    """Blind round 56 (b56_08): a convolution whose windows run off the image raises numpy's
    ValueError on a tall image, a case asking for a value; `named_refusal` paired the kernel test
    dropped (numpy's own ValueError where no kernel fits) with the value mistake another check
    named, which alone, the reference's test kept, reproduces every call: "nothing tests that
    the kernel fits" of code that tests it (`if k > H or k > W: raise`; seven fixtures were told
    so). A test the calls need stays: TensorFlow's 'SAME' padding returns a value for a kernel
    larger than the image, which only the test dropped explains."""
    told = {c.misconception for c in grade(
        (SUBMISSIONS / "buggy" / f"{stem}.py").read_text())["kernel-stride"].checks
        if not c.passed}
    assert told, stem
    assert any("kernel_untested" in (m or "") for m in told) == needed, told


SCALED_ONLY_WHEN_CAUSAL = '''
"""self_attention scaled by 1/sqrt(d_h + heads - 1) (right with one head), and scaled only when
causal=True: no-causal-mask's one-head case is right, multi-head-attention's are not."""
EXPECT = {"multi-head-attention": None, "no-causal-mask": None}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    d_h = d // heads
    q, k, v = (x @ p[f"W{n}"] + p[f"b{n}"] for n in "qkv")
    outs = []
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        scores = q[:, cols] @ k[:, cols].T
        if causal:
            scores = scores / np.sqrt(d_h + heads - 1)
            scores = scores + np.triu(np.full((T, T), -1e9), 1)
        outs.append(softmax(scores, axis=-1) @ v[:, cols])
    return np.hstack(outs) @ p["Wo"] + p["bo"]
'''


def test_a_generalisation_weighs_the_checks_of_a_later_exercise(grade):
    """no-causal-mask (graded first) has one one-head case, which this code gets right, and
    fails with two heads: "right with one head" would be said there, but multi-head-attention's
    one-head check, graded after it, fails. Every check of the function weighs the claim."""
    results = grade(SCALED_ONLY_WHEN_CAUSAL)
    one_head = next(c for c in results["multi-head-attention"].checks if c.name == "one head")
    assert not one_head.passed
    failed = [c for c in results["no-causal-mask"].checks if not c.passed]
    assert failed and not any("one head" in (c.hint or "") for c in failed), [
        c.hint for c in failed]
    assert all(c.misconception != "only_one_head" for c in failed)


CROPPED_GRID_FROM_HEIGHT = '''
"""patchify with no tiling test (it crops to whole patches) and its grid counted n x n from H:
wrong for non-square images, and for a square one P does not tile (a 5 x 5 image with P = 3
returns a patch where ValueError is due)."""
EXPECT = {"patchify": None}


def patchify(image, P):
    image = _as_hwc(image)
    H, W, C = image.shape
    rows, cols = H // P, H // P
    image = image[:rows * P, :cols * P]
    grid = image.reshape(rows, P, cols, P, C).transpose(0, 2, 1, 3, 4)
    return grid.reshape(rows * cols, P * P * C)
'''


def test_a_named_mistake_says_right_only_when_h_equals_w_only_where_no_square_image_failed(grade):
    """The grid counted from H is named on the non-square cases, once with "(right only when
    H == W)"; the same code crops the hidden 5 x 5 image that P = 3 does not tile, so that claim
    is false of it there: the mistake stays named, without the claim."""
    checks = grade(CROPPED_GRID_FROM_HEIGHT)["patchify"].checks
    refusals = next(c for c in checks if c.name == "random images that do not tile")
    assert not refusals.passed
    named = [c for c in checks if not c.passed and c.hint_kind == MISTAKE]
    assert named and all("counted n x n from the height" in c.hint for c in named), [
        c.hint for c in named]
    assert not any("H == W" in (c.hint or "") for c in checks), [c.hint for c in checks]


def test_a_named_mistake_keeps_right_only_when_h_equals_w_where_every_square_image_passed(grade):
    """The same grid from H behind a tiling test: every square case passes, the claim holds."""
    guarded = CROPPED_GRID_FROM_HEIGHT.replace(
        "    rows, cols = H // P, H // P\n",
        "    num_patches(H, W, P)\n    rows, cols = H // P, H // P\n")
    checks = grade(guarded)["patchify"].checks
    named = [c for c in checks if not c.passed and c.hint_kind == MISTAKE]
    assert named and all("(right only when H == W)" in c.hint for c in named), [
        c.hint for c in checks]


SQUARE_KEYED_SIDES = '''
"""patchify whose patch counts come from a table keyed by H (KeyError for every non-square
image) and which takes a 4-D array's last three axes (returns patches where ValueError is due)."""
EXPECT = {"patchify": None}


def patchify(image, P):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    H, W, C = image.shape[-3:]
    num_patches(H, W, P)
    counts = {H: H // P}
    rows, cols = counts[H], counts[W]
    grid = image.reshape(-1, rows, P, cols, P, C)[0].transpose(0, 2, 1, 3, 4)
    return grid.reshape(rows * cols, P * P * C)
'''


def test_wrong_for_a_non_square_image_is_said_only_where_one_returned_a_wrong_value(grade):
    """Every non-square image that should give patches raises KeyError; the one failure that
    returned a value is a 4-D array's, where ValueError is due (no H x W image): "wrong for a
    4 x 6 image" would say the non-square images returned wrong patches."""
    checks = grade(SQUARE_KEYED_SIDES)["patchify"].checks
    told = [c for c in checks if c.misconception == "only_square_images"]
    assert told, [c.hint for c in checks]
    assert all("and raises KeyError for a " in c.hint and "wrong for" not in c.hint
               for c in told), [c.hint for c in told]


CHANNELS_FROM_LAST_AXIS = '''
"""embed_image with its kernel's channels read from the image's last axis (a gray (H, W) image's
is W: ValueError), its flooring conv with no tiling test (a 6x6x3 image with P = 4 gets tokens
where ValueError is due): blind round 56's b56_10."""
EXPECT = {"cls-and-positions": None}


def embed_image(image, params):
    P = params["P"]
    channels = image.shape[-1]
    kernel = params["W_e"].reshape(P, P, channels, -1)
    x = conv_patch_embed(image, kernel, params["b_e"], P)
    h, w, c = x.shape
    x = np.reshape(x, (h * w, c))
    return np.concatenate([params["cls"][None, :], x], axis=0) + params["pos"]
'''


def test_a_belied_generalisation_keeps_the_raise_it_observed(grade):
    """"right for (H, W, C) images" is false of this code (it embeds a 3-D image P does not
    tile); "raises ValueError for a 2-D (H, W) image" is true (every gray image raised it), and
    is said alone; the checks that fail by that raise point to it."""
    checks = grade(CHANNELS_FROM_LAST_AXIS)["cls-and-positions"].checks
    refusals = next(c for c in checks if c.name == "patches that do not tile raise ValueError")
    assert not refusals.passed
    half = [c for c in checks if c.misconception == "raises_only_3d_images"]
    assert len(half) == 1 and half[0].hint_kind == OBSERVATION, [c.hint for c in checks]
    assert half[0].hint.startswith("Your `embed_image` raises ValueError for a 2-D (H, W) image")
    assert not any("right for" in (c.hint or "") for c in checks), [c.hint for c in checks]
    worked = next(c for c in checks if c.name.startswith("the worked example"))
    assert worked.hint_kind == OBSERVATION and half[0].name in worked.hint, worked.hint


def test_a_raise_a_generalisation_said_is_pointed_to_from_the_checks_it_explains(grade):
    """With a tiling test, the same code is right for every (H, W, C) image: the whole
    generalisation is said, with the raise it observed, and the worked example (a gray image that
    raised it) points to it (raised_seen.py reads the raise the generalisation kept)."""
    tiled = CHANNELS_FROM_LAST_AXIS.replace(
        '    P = params["P"]\n',
        '    P = params["P"]\n    num_patches(image.shape[0], image.shape[1], P)\n')
    checks = grade(tiled)["cls-and-positions"].checks
    said = [c for c in checks if c.misconception == "only_3d_images"]
    assert len(said) == 1 and said[0].raised == "ValueError", [c.hint for c in checks]
    assert said[0].hint.startswith("Your `embed_image` is right for (H, W, C) images, and raises "
                                   "ValueError for a 2-D (H, W) image")
    worked = next(c for c in checks if c.name.startswith("the worked example"))
    assert worked.hint_kind == OBSERVATION and said[0].name in worked.hint, worked.hint


CONV_ROUNDED_UP = '''
"""conv_patch_embed with its output size rounded up (TNN's ceil mode, blind round 61's b61_09):
where the stride leaves rows or columns over, the last window is cut short and numpy's
tensordot refuses it. The code has no test of exact fit."""
EXPECT = {"kernel-stride": "op:grid_rounded_up:conv_patch_embed:windows-grid-rounded-up"}


def conv_patch_embed(image, K, b, stride):
    x = np.asarray(image, dtype=float)
    x = x[..., None] if x.ndim == 2 else x
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel larger than the image")
    rows, columns = -(-(H - k) // stride) + 1, -(-(W - k) // stride) + 1
    out = np.zeros((rows, columns, K.shape[-1]))
    for i in range(rows):
        for j in range(columns):
            for c in range(C):
                window = x[i * stride:i * stride + k, j * stride:j * stride + k, c]
                out[i, j] += np.tensordot(window, K[:, :, c, :], axes=([0, 1], [0, 1]))
            out[i, j] += b
    return out
'''


@pytest.mark.parametrize("searched", [True, False])
def test_numpys_refusal_of_a_later_step_is_never_named_a_test_of_exact_fit(
        catalogue, tmp_path, monkeypatch, searched):
    """An output size rounded up raises numpy's ValueError ("shape-mismatch for sum") on the
    very images a test of exact fit refuses: the refusal named (kernel_fit.py's
    windows-fit-exactly, guards.py's windows-must-fit) only on a raise of the student's own.
    The ceil is named by the search; with the search giving nothing, no refusal is named."""
    from grader.checks.kinds import mistakes
    from grader.reference import error_model as em

    if not searched:
        monkeypatch.setattr(mistakes, "SEARCHED", {})
        monkeypatch.setattr(em, "search", lambda *args, **kwargs: None)
    chosen = [e for e in catalogue if e.id == "kernel-stride"]
    (tmp_path / "snippet.py").write_text(CONV_ROUNDED_UP)
    with StudentWorker(build_submission(tmp_path / "snippet.py", tmp_path)) as worker:
        result = SubmissionGrading(worker, catalogue=chosen).exercise(chosen[0])
    failed = [c for c in result.checks if not c.passed]
    assert failed
    for check in failed:
        assert "windows-fit-exactly" not in (check.misconception or "")
        assert "windows-must-fit" not in (check.misconception or "")
        assert "is refused" not in (check.hint or ""), check.hint
    named = {c.misconception for c in failed if c.hint_kind == MISTAKE}
    assert named == ({"op:grid_rounded_up:conv_patch_embed:windows-grid-rounded-up"}
                     if searched else set()), named


def test_a_padding_whose_place_no_call_tells_is_named_without_a_place():
    """b45_12's linear_patch_embed pads at the bottom and right, but its checks' refusal cases
    have zero weights: every place gives zeros, and "at the bottom and right" rested on nothing.
    Where several places reproduce the calls, the place-free edit is named in their stead; where
    one does, it alone (refusal_triples.placed)."""
    from grader.checks.kinds.refusal_triples import placed
    from grader.reference import REFERENCE, error_model
    from grader.reference.error_model.tiling import PADS, UNPLACED

    name = "op:padded:patchify:{}"
    every = [name.format(detail) for detail in PADS]
    assert placed(every, PADS, UNPLACED) == [name.format(UNPLACED)]
    one = [name.format("image-padded-to-tile"), name.format(UNPLACED)]
    assert placed(one, PADS, UNPLACED) == [name.format("image-padded-to-tile")]
    paired = [f"{n}+op:count_by_area:patchify:area" for n in every[:2] + [every[-1]]]
    assert placed(paired, PADS, UNPLACED) == [paired[-1]]
    sentence = error_model.sentence(REFERENCE["patchify"], name.format(UNPLACED))
    assert "zero-padded to a multiple of `P` before it is cut (where the zeros go, these " \
           "calls do not tell" in sentence and "bottom" not in sentence, sentence

