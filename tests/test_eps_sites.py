"""An epsilon changed at ONE call of a composed function (error_model/call_eps.py), a
LayerNorm's statistics over axis 0 of a [d x T] layout (error_model/leading_axes.py), and two
rewrites of one whole function searched as a pair (error_model/pairs.stacked): blind rounds
66 and 67's b66_05, b66_06 and b67_02."""
from __future__ import annotations

import numpy as np

from grader.checks.compare import Compare, agrees
from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.reference.encoder import mlp
from grader.reference.error_model.pairs import stacked

RNG = np.random.default_rng(38)
LOOSE = Compare("allclose", rtol=1e-4, atol=1e-5)
layer_norm, self_attention = REFERENCE["layer_norm"], REFERENCE["self_attention"]


def same(value, target) -> bool:
    return agrees(value, target, LOOSE, equal_nan=True)


def block_params(d=8, rng=RNG):
    shapes = {"Wq": (d, d), "Wk": (d, d), "Wv": (d, d), "Wo": (d, d), "W1": (d, 2 * d),
              "b1": (2 * d,), "W2": (2 * d, d)}
    p = {n: rng.normal(size=shapes.get(n, (d,))) * 0.5
         for n in ("Wq", "bq", "Wk", "bk", "Wv", "bv", "Wo", "bo", "W1", "b1", "W2", "b2")}
    p |= {"ln1_g": 1 + 0.1 * rng.normal(size=d), "ln1_b": 0.1 * rng.normal(size=d),
          "ln2_g": 1 + 0.1 * rng.normal(size=d), "ln2_b": 0.1 * rng.normal(size=d)}
    return p


def block_with(eps1, eps2):
    """A pre-LN block whose two LayerNorms take their own eps (a Keras or torch port)."""
    def encoder_block(x, p, heads):
        x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"], eps1), p, heads)
        return x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"], eps2), p)
    return encoder_block


def block_calls(student):
    """Blocks on tiny tokens (the first LayerNorm's eps shows), on ordinary ones, and on tiny
    ones with an attention of tiny outputs (the second's shows too)."""
    p = block_params()
    quiet = {**p, "Wo": p["Wo"] * 1e-3, "bo": p["bo"] * 1e-3}
    cases = [(RNG.normal(size=(5, 8)) * 1e-3, p, 2), (RNG.normal(size=(4, 8)), p, 2),
             (RNG.normal(size=(3, 8)) * 1e-3, quiet, 1)]
    return [em.Call(a, {}, student(*a), REFERENCE["encoder_block"](*a)) for a in cases]


def failing(calls) -> int:
    return next(i for i, c in enumerate(calls) if not same(c.got, c.expected))


def test_an_eps_at_one_layernorm_of_a_block_is_named_at_that_call():
    """Keras' default 1e-3 at the second LayerNorm (b66_05), torch's 1e-5 at the first: each
    named at its own call, with the value and which LayerNorm it is."""
    for eps1, eps2, name, which in (
            (1e-6, 1e-3, "layer_norm_2_eps=0.001", "the second LayerNorm (with `p['ln2_g']`"),
            (1e-5, 1e-6, "layer_norm_eps=1e-05", "the first LayerNorm (with `p['ln1_g']`")):
        calls = block_calls(block_with(eps1, eps2))
        found = em.search(REFERENCE["encoder_block"], calls, failing(calls), same,
                          opaque=frozenset({"self_attention"}))
        assert found is not None and found.name == f"op:call_eps:encoder_block:{name}", found
        value = f"{max(eps1, eps2):g}"
        assert f"at {which}" in found.sentence and f"eps is {value};" in found.sentence, \
            found.sentence
        assert "the student API's is 1e-06" in found.sentence


def test_an_eps_changed_at_every_layernorm_is_not_told_as_one_calls():
    """The same eps at both LayerNorms is no one call's: told as the block's eps."""
    calls = block_calls(block_with(1e-3, 1e-3))
    found = em.search(REFERENCE["encoder_block"], calls, failing(calls), same,
                      opaque=frozenset({"self_attention"}))
    assert found is not None and found.name == "op:constant:encoder_block:eps=0.001", found


def test_call_eps_edits_only_the_checked_functions_own_calls_of_a_helper_using_it():
    """A block's own `eps` is passed on to its LayerNorms (told at them), and a caller's
    helpers' calls are told by their own checks: only the checked function's calls that pass
    a name, to a helper whose steps read the epsilon."""
    names = {e.name for e in em.model(REFERENCE["encoder_block"])[1] if e.operator == "call_eps"}
    assert {"op:call_eps:encoder_block:layer_norm_eps=1e-05",
            "op:call_eps:encoder_block:layer_norm_2_eps=0.001"} <= names
    forward = {e.name for e in em.model(REFERENCE["vit_forward"])[1] if e.operator == "call_eps"}
    assert forward == set(), forward  # its final LayerNorm's default: operators.constant's


def swapped_layer_norm(x, gamma, beta, eps=1e-6):
    """A [d x T] port: statistics over axis 0 after swapping the last two axes (b66_06)."""
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        return swapped_layer_norm(x[None], gamma, beta, eps)[0]
    h = np.swapaxes(x, -1, -2)
    mean = h.mean(axis=0)
    var = ((h - mean) ** 2).mean(axis=0)
    out = (h - mean) / np.sqrt(var + eps) * np.reshape(gamma, (-1, 1)) + np.reshape(beta, (-1, 1))
    return np.swapaxes(out, -1, -2)


def layer_norm_calls(student, shapes):
    out = []
    for shape in shapes:
        d = shape[-1]
        args = (RNG.normal(size=shape), RNG.normal(size=d), RNG.normal(size=d))
        out.append(em.Call(args, {}, student(*args), layer_norm(*args)))
    return out


def test_statistics_over_axis_0_of_a_swapped_layout_are_named_where_a_batch_shows_them():
    calls = layer_norm_calls(swapped_layer_norm, [(4, 6), (3, 4, 5), (2, 3, 6), (6,)])
    found = em.search(layer_norm, calls, failing(calls), same)
    assert found is not None and found.name == "op:batch_axis:layer_norm:batch-axis", found
    assert "for a batch (B, T, d) axis 0 is the batch" in found.sentence


def test_statistics_over_the_tokens_everywhere_are_not_the_swapped_layouts():
    """Axis 0 on a (T, d) input too (over the tokens): not the [d x T] port's mistake."""
    def over_tokens(x, gamma, beta, eps=1e-6):
        mean, var = x.mean(axis=0, keepdims=True), x.var(axis=0, keepdims=True)
        return (x - mean) / np.sqrt(var + eps) * gamma + beta

    calls = layer_norm_calls(over_tokens, [(4, 6), (3, 4, 5), (5, 5)])
    found = em.search(layer_norm, calls, failing(calls), same)
    assert found is None or "batch-axis" not in found.name, found


def kernel_layer_norm(x, gamma, beta, eps=1e-6):
    """A CUDA kernel's row walk with its hard-coded 1e-5 (b67_02): `eps` never used."""
    x = np.asarray(x, dtype=float)
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        row = x[i]
        m = row.sum() / x.shape[-1]
        s = 1.0 / np.sqrt(((row - m) ** 2).sum() / x.shape[-1] + 1e-5)
        out[i] = s * (row - m) * gamma + beta
    return out


def test_two_rewrites_of_one_whole_function_are_searched_as_a_pair():
    """eps fixed at 1e-5 and a row loop's sums: both rewrite the whole function (one place);
    applied one after the other they reproduce every call, and are named together."""
    shapes = [(3, 4, 2), (4, 6), (3, 3, 5), (5, 7)]
    calls = []
    for i, shape in enumerate(shapes):
        args = (RNG.normal(size=shape) * 0.01, np.ones(shape[-1]), np.zeros(shape[-1]))
        kwargs = {"eps": 0.1} if i % 2 else {}
        calls.append(em.Call(args, kwargs, kernel_layer_norm(*args, **kwargs),
                             layer_norm(*args, **kwargs)))
    found = em.search(layer_norm, calls, 0, same)
    assert found is not None and found.name == (
        "op:default:layer_norm:eps-as-1e-05+op:row_sums:layer_norm:row-sums"), found
    assert found.sentence.startswith("2 mistakes at once: (1) In `layer_norm`, `eps` is fixed "
                                     "at 1e-05")


def test_only_whole_function_rewrites_of_two_operators_stack_at_one_place():
    _, edits = em.model(layer_norm)
    by = {e.name: e for e in edits}
    fixed, rows = by["op:default:layer_norm:eps-as-1e-05"], by["op:row_sums:layer_norm:row-sums"]
    assert fixed.site == rows.site and stacked(fixed, rows)
    assert not stacked(fixed, by["op:default:layer_norm:eps-as-1e-12"])  # one operator twice
    inner = [e for e in edits if e.site.index > 0]
    twins = [(a, b) for a in inner for b in inner if a.site == b.site
             and a.operator != b.operator]
    assert twins and not any(stacked(a, b) for a, b in twins)


def test_an_eps_at_one_call_and_the_functions_own_are_one_reading_where_others_hide():
    """Where the other LayerNorm's eps does not show, the block's eps and the first call's
    cannot be told apart: said as the block's (constants.same_eps), one name."""
    from grader.reference.error_model.constants import same_eps

    _, edits = em.model(REFERENCE["encoder_block"])
    by = {e.name: e for e in edits}
    whole = by["op:constant:encoder_block:eps=1e-05"]
    assert same_eps(by["op:call_eps:encoder_block:layer_norm_eps=1e-05"], whole)
    assert same_eps(whole, by["op:call_eps:encoder_block:layer_norm_2_eps=1e-05"])
    assert not same_eps(by["op:call_eps:encoder_block:layer_norm_eps=0.001"], whole)
    assert not same_eps(by["op:call_eps:encoder_block:layer_norm_eps=1e-05"],
                        by["op:call_eps:encoder_block:layer_norm_2_eps=1e-05"])


def test_a_step_the_lecture_does_not_name_is_quoted_without_an_ordinal(monkeypatch):
    """A course's helper (no lecture name for its step) is told by the model solution's quote
    of that call, which tells the calls apart itself: "the second model solution's step" is
    no English."""
    from grader.reference.error_model import change
    from grader.reference.error_model.tree import build

    monkeypatch.delitem(change.STEP_NAMES, "layer_norm")
    told = {e.detail: e.sentence for e in em.edits(build(REFERENCE["encoder_block"]))
            if e.operator == "call_eps"}
    sentence = told["layer_norm_2_eps=0.001"]
    assert sentence.startswith("In `encoder_block`, at the model solution's step `layer_norm(x, "
                               "p['ln2_g'], p['ln2_b'], eps)` alone, eps is 0.001;"), sentence
