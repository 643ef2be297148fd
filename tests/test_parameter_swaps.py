"""A parameter read where another of the same step's kind belongs (issue 38's "a parameter used
in place of another"): a step given the parameters of the next step of its kind
(error_model/later_steps.py: the first LayerNorm given ln2's gain and shift, the queries the
keys' weights), and a post-LN block (error_model/post_norm_block.py: every norm after its
residual sum, one edit) paired with either reading (blind round 69's b69_08: one norm module
kept for both norms). Each named where it reproduces every call; a swap that changes nothing
on the calls (both norms given equal parameters) is not told."""
from __future__ import annotations

import numpy as np

from grader.checks.compare import Compare, agrees
from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.reference.attention import self_attention
from grader.reference.layers import gelu, layer_norm

BLOCK = REFERENCE["encoder_block"]
CLOSE = Compare("allclose", rtol=1e-4, atol=1e-4)
SHAPES = {"ln1_g": "d", "ln1_b": "d", "ln2_g": "d", "ln2_b": "d", "Wq": "dd", "bq": "d",
          "Wk": "dd", "bk": "d", "Wv": "dd", "bv": "d", "Wo": "dd", "bo": "d", "W1": "dm",
          "b1": "m", "W2": "md", "b2": "d"}


def same(value, target) -> bool:
    return agrees(value, target, CLOSE, equal_nan=True)


def block_case(tokens: int, d: int, heads: int, seed: int, equal_norms: bool = False):
    """(x, p, heads) with every parameter random; ln2's a copy of ln1's where `equal_norms`."""
    rng = np.random.default_rng(seed)
    sizes = {"d": d, "m": 2 * d}
    p = {k: rng.standard_normal(tuple(sizes[c] for c in s)) * 0.3 for k, s in SHAPES.items()}
    if equal_norms:
        p["ln2_g"], p["ln2_b"] = p["ln1_g"].copy(), p["ln1_b"].copy()
    return rng.standard_normal((tokens, d)), p, heads


CASES = [block_case(3, 4, 2, 1), block_case(5, 8, 2, 2), block_case(2, 6, 3, 3)]


def mlp(x, p):
    return gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]


def found_for(student, cases=CASES):
    calls = [em.Call(args, {}, student(*args), BLOCK(*args)) for args in cases]
    found = em.search(BLOCK, calls, 0, same)
    if found is not None:  # what is named reproduces every call
        rewritten = em.rewrite(BLOCK, found.name)
        assert all(same(rewritten(*c.args), c.got) for c in calls), found.name
    return found


def second_norm_for_both(x, p, heads):  # pre-LN, one norm kept and named after the second
    x = x + self_attention(layer_norm(x, p["ln2_g"], p["ln2_b"]), p, heads)
    return x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)


def queries_from_keys(x, p, heads):  # the key projection's line copied up for the queries
    given = dict(p, Wq=p["Wk"], bq=p["bk"])
    return BLOCK(x, given, heads)


def post_ln(x, p, heads, first="ln1", second="ln2"):
    x = layer_norm(x + self_attention(x, p, heads), p[f"{first}_g"], p[f"{first}_b"])
    return layer_norm(x + mlp(x, p), p[f"{second}_g"], p[f"{second}_b"])


def test_a_step_given_the_next_steps_parameters_is_named_from_where_it_applied():
    found = found_for(second_norm_for_both)
    assert found is not None
    assert found.name == "op:later_step_parameters:encoder_block:ln1_g-as-ln2_g-in-layer_norm"
    assert found.sentence.startswith(
        "In `encoder_block`, the LayerNorm (with `p['ln1_g']` and `p['ln1_b']`) is given "
        "`p['ln2_g']`, `p['ln2_b']`, the parameters of the next step of its kind"), found.sentence

    found = found_for(queries_from_keys)
    assert found is not None
    assert found.name == ("op:later_step_parameters:encoder_block/self_attention:"
                          "Wq-as-Wk-in-linear"), found.name
    assert "the query projection (`... @ p['Wq'] + p['bq']`) is given `p['Wk']`, `p['bk']`" \
        in found.sentence, found.sentence


def test_a_post_ln_block_with_one_norms_parameters_in_both_is_named_as_a_pair():
    """b69_08's block, written both ways round: post-LN with ln1's parameters in both norms, and
    with ln2's; the parts are told in the code's order, each from where it applied."""
    found = found_for(lambda x, p, heads: post_ln(x, p, heads, "ln1", "ln1"))
    assert found is not None and found.name == (
        "op:step_parameters:encoder_block:ln2_g-as-ln1_g-in-layer_norm"
        "+op:post_norm_block:encoder_block:every-norm-after-residual"), found
    assert "every LayerNorm comes after its residual sum (post-LN" in found.sentence
    found = found_for(lambda x, p, heads: post_ln(x, p, heads, "ln2", "ln2"))
    assert found is not None and found.name == (
        "op:post_norm_block:encoder_block:every-norm-after-residual"
        "+op:later_step_parameters:encoder_block:ln1_g-as-ln2_g-in-layer_norm"), found


def test_a_swap_the_calls_cannot_see_is_not_told():
    """Where each call gives both norms the same parameters, reading ln1's for ln2's changes
    nothing: a post-LN block that reads ln1's in both is named post-LN only, no swap."""
    equal = [block_case(3, 4, 2, 11, True), block_case(5, 8, 2, 12, True)]
    found = found_for(lambda x, p, heads: post_ln(x, p, heads, "ln1", "ln1"), equal)
    assert found is not None
    assert found.name == "op:post_norm_block:encoder_block:every-norm-after-residual", found
    assert "ln1_g'], p['ln1_b']: the parameters" not in found.sentence
    assert found_for(second_norm_for_both, equal) is None  # right on every call: nothing


def test_every_norm_moved_is_offered_only_where_two_norms_precede_their_branches():
    """A function with one pre-norm residual step (or none) gets no post-LN block edit."""
    singles = em.model(BLOCK)[1]
    assert [e.detail for e in singles if e.operator == "post_norm_block"] == [
        "every-norm-after-residual"]
    for function in ("self_attention", "layer_norm", "embed_image"):
        assert not any(e.operator == "post_norm_block"
                       for e in em.model(REFERENCE[function])[1]), function
