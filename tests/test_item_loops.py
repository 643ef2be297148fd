"""The readings of a loop over a list of parameter sets (vit_forward's blocks): item 0 applied a
fixed number of times (error_model/item_loops.py), and the operators of other modules the same
loop gets (item 0 at every step, the list reversed, its last or first item left out, the steps
not chained); each named where it reproduces every call, on code written in other styles
(indices, functools.reduce, enumerate, unrolled calls), none where the calls cannot tell two
apart."""
from __future__ import annotations

import functools

import numpy as np

from grader.checks.compare import Compare, agrees
from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.reference.layers import layer_norm

FORWARD = REFERENCE["vit_forward"]
VIT = Compare("allclose", rtol=2e-3, atol=2e-3)  # vit-forward.yaml's comparison


def same(value, target) -> bool:
    return agrees(value, target, VIT, equal_nan=True)


def vit(depth: int, seed: int):
    from grader.checks.inputs import evaluate

    image = np.random.default_rng(seed).standard_normal((8, 8, 3))
    return image, evaluate({"vit_params": {"image_size": 8, "patch_size": 4, "dim": 8,
                                           "depth": depth, "heads": 2, "mlp_dim": 16,
                                           "num_classes": 3}, "seed": seed + 1})


def head(x, params):
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]


def block(params):
    return lambda x, p: REFERENCE["encoder_block"](x, p, params["heads"])


def first_block_four_times(image, params):  # b68_07: one encoder called 4 times, unrolled
    x, encoder = REFERENCE["embed_image"](image, params), params["blocks"][0]
    x = block(params)(block(params)(x, encoder), encoder)
    return head(block(params)(block(params)(x, encoder), encoder), params)


def first_block_each_step(image, params):  # indices, item 0 read at each
    x, blocks = REFERENCE["embed_image"](image, params), params["blocks"]
    for _ in range(len(blocks)):
        x = REFERENCE["encoder_block"](x, blocks[0], params["heads"])
    return head(x, params)


def blocks_reversed(image, params):  # functools.reduce over the list read backwards
    x = functools.reduce(block(params), params["blocks"][::-1],
                         REFERENCE["embed_image"](image, params))
    return head(x, params)


def last_block_skipped(image, params):  # range(len(blocks) - 1)
    x = REFERENCE["embed_image"](image, params)
    for i in range(len(params["blocks"]) - 1):
        x = REFERENCE["encoder_block"](x, params["blocks"][i], params["heads"])
    return head(x, params)


def first_block_skipped(image, params):  # enumerate from 1
    x = REFERENCE["embed_image"](image, params)
    for _, p in enumerate(params["blocks"][1:], start=1):
        x = REFERENCE["encoder_block"](x, p, params["heads"])
    return head(x, params)


CASES = [vit(1, 11), vit(2, 13), vit(3, 15), vit(2, 17)]


def calls(student, cases=CASES):
    return [em.Call(args, {}, student(*args), FORWARD(*args)) for args in cases]


def blocks_not_chained(image, params):  # each block from the embedded tokens, the last kept
    tokens = REFERENCE["embed_image"](image, params)
    out = [REFERENCE["encoder_block"](tokens, p, params["heads"]) for p in params["blocks"]]
    return head(out[-1], params)


READINGS = (
    (first_block_four_times, "first_fixed_times", "block-0-4-times",
     "`params['blocks'][0]` is applied 4 times, whatever the number of items in "
     "`params['blocks']`: the loop `for block in params['blocks']` applies each block once, in "
     "order, `params['blocks'][i]` (block i) at step i"),
    (first_block_each_step, "loop", "block-first", "uses the first one, `params['blocks'][0]`"),
    (blocks_reversed, "reversed", "block-reversed", "from its last element to its first"),
    (last_block_skipped, "loop_short", "block-last-left-out", "never reaches the last one"),
    (first_block_skipped, "loop_short", "block-first-left-out", "never reaches the first one"),
    (blocks_not_chained, "unchained", "x-not-carried", "reads `x` as it was before the loop"))


def test_each_reading_of_the_block_loop_is_named_where_it_reproduces_every_call():
    for student, operator, detail, words in READINGS:
        ran = calls(student)
        found = em.search(FORWARD, ran, 2, same)
        assert found is not None, detail
        assert found.name == f"op:{operator}:vit_forward:{detail}", (detail, found.name)
        assert found.sentence.startswith("In `vit_forward`, ") and words in found.sentence, \
            found.sentence
        rewritten = em.rewrite(FORWARD, found.name)
        assert all(same(rewritten(*c.args), c.got) for c in ran), detail


def test_a_fixed_count_is_named_only_at_the_count_the_calls_show():
    """Block 0 three times is not four times; with calls of one depth only, "whatever the number
    of blocks" is not told: block 0 four times on four-block calls is block 0 at every step, and
    twice per block on two-block calls is named as no count."""
    def three_times(image, params):
        x = REFERENCE["embed_image"](image, params)
        for _ in range(3):
            x = REFERENCE["encoder_block"](x, params["blocks"][0], params["heads"])
        return head(x, params)

    def twice_per_block(image, params):
        x = REFERENCE["embed_image"](image, params)
        for _ in range(2 * len(params["blocks"])):
            x = REFERENCE["encoder_block"](x, params["blocks"][0], params["heads"])
        return head(x, params)

    assert em.search(FORWARD, calls(three_times), 2, same).name.endswith("block-0-3-times")
    four = [vit(4, 31), vit(4, 33)]
    assert em.search(FORWARD, calls(first_block_four_times, four), 0, same).name == \
        "op:loop:vit_forward:block-first"
    two = [vit(2, 35), vit(2, 37)]
    found = em.search(FORWARD, calls(twice_per_block, two), 0, same)
    assert found is None or "first_fixed_times" not in found.name, found


def test_a_course_functions_loop_over_its_weights_gets_them_too(tmp_path):
    from grader.checks.course import course_reference

    (tmp_path / "reference").mkdir()
    (tmp_path / "reference" / "stack.py").write_text(
        "import numpy as np\n\n\ndef layer(x, W):\n    return np.tanh(x @ W)\n\n\n"
        "def stack(x, weights):\n    for W in weights:\n        x = layer(x, W)\n    return x\n")
    function = course_reference(tmp_path).functions["stack"]
    rng = np.random.default_rng(5)
    cases = [(rng.normal(size=(3, 4)), [rng.normal(size=(4, 4)) for _ in range(n)])
             for n in (1, 2, 3)]

    def student(x, weights):
        for W in reversed(weights):
            x = np.tanh(x @ W)
        return x

    found = em.search(function, [em.Call(a, {}, student(*a), function(*a)) for a in cases], 1,
                      same)
    assert found is not None and found.name == "op:reversed:stack:W-reversed"

    def fixed(x, weights):  # the first layer three times
        for _ in range(3):
            x = np.tanh(x @ weights[0])
        return x

    found = em.search(function, [em.Call(a, {}, fixed(*a), function(*a)) for a in cases], 1,
                      same)
    assert found is not None and found.name == "op:first_fixed_times:stack:W-0-3-times"
    assert "`weights[0]` is applied 3 times, whatever the number of items in `weights`" in \
        found.sentence


def test_what_one_block_cases_cannot_tell_is_not_named():
    """With one block, both skips apply none: neither is named (the step the loop runs left
    out, which these calls cannot tell from them either, is the narrower claim: it is said,
    and left to the function's other checks to weigh, `chosen`)."""
    one = [vit(1, 21), vit(1, 23)]
    for student in (first_block_skipped, last_block_skipped):
        found = em.search(FORWARD, calls(student, one), 0, same)
        assert found is None or ("loop_short" not in found.name and found.chosen), found


def test_offered_only_on_a_loop_over_parameter_sets():
    """A loop over `range(...)` (indices) or one whose variable no call is given gets none."""
    singles = em.model(FORWARD)[1]
    assert [e.detail for e in singles if e.operator == "first_fixed_times"] == [
        f"block-0-{n}-times" for n in range(2, 13)]
    for function in ("conv_patch_embed", "self_attention", "encoder_block", "num_patches"):
        assert not any(e.operator == "first_fixed_times"
                       for e in em.model(REFERENCE[function])[1]), function
