"""An accepted GELU with one binary operator typed as another (error_model/alternatives.py's
typos, issue 38): nanoGPT's `new_gelu` with `x + 0.044715 + x**3` (a `+` for the `*` of
`0.044715 * x**3`, blind round 80's b80_04). The variants are generated from the reference's own
activations, few, and tried by the search only where its other rewrites find nothing
(modules.LATE); an MLP with another mistake is never told a typo."""
from __future__ import annotations

import ast
import inspect
import math
import textwrap

import numpy as np
import pytest

from grader.checks.compare import Compare, agrees
from grader.checks.generators import generate_cases
from grader.checks.inputs import evaluate
from grader.reference import REFERENCE
from grader.reference import error_model as em
from grader.reference.erf import erfc
from grader.reference.error_model import alternatives
from grader.reference.error_model.activations import ACTIVATIONS
from grader.reference.layers import gelu

BLOCK = REFERENCE["encoder_block"]
LOOSE = Compare("allclose", rtol=2e-3, atol=2e-3)  # encoder-block's comparison
C = math.sqrt(2.0 / math.pi)
TYPO = "op:activation_typo:encoder_block/mlp:act="


def same(value, target) -> bool:
    return agrees(value, target, LOOSE, equal_nan=True)


def nanogpt_gelu(z):
    """Mountagha/fromZeroToHero's `new_gelu` as delivered: `x + 0.044715 + np.power(x, 3.0)`."""
    return 0.5 * z * (1.0 + np.tanh(C * (z + 0.044715 + np.power(z, 3.0))))


def student_block(act=gelu, b2=True, transposed=False):
    """The reference's encoder block with its MLP written out: `act`, the second bias left out
    (not `b2`), the second weight matrix transposed."""
    norm, attention = REFERENCE["layer_norm"], REFERENCE["self_attention"]

    def block(x, p, heads):
        x = x + attention(norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
        h = act(norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"])
        return x + h @ (p["W2"].T if transposed else p["W2"]) + (p["b2"] if b2 else 0.0)
    return block


def block_calls(student, square=False):
    """The encoder-block check's generated cases (or square MLPs, where a transposed W2 runs),
    the student's values and the reference's."""
    if square:
        rng = np.random.default_rng(5)
        cases = [((rng.standard_normal((5, 8)), evaluate(
            {"block_params": {"dim": 8, "mlp_dim": 8, "heads": 2}, "seed": seed}), 2), {})
            for seed in range(4)]
    else:
        cases = generate_cases("block_inputs", 12, 77, {})
    return [em.Call(args, kwargs, student(*args, **kwargs), BLOCK(*args, **kwargs))
            for args, kwargs in cases]


def test_the_typos_are_few_generated_from_the_references_gelus_and_new():
    """One binary operator of the exact or the tanh GELU typed as another: at most ten
    variants, of those two alone, none computing what an activation, a slip of
    `alternatives.variants` or another typo computes (to within APART on PROBE)."""
    typos = alternatives.typed_variants()
    assert 3 <= len(typos) <= 10, [t[1] for t in typos]
    assert {name for name, *_ in typos} <= set(alternatives.ALTERNATIVES)
    known = [alternatives.PROBE if f is None else f(alternatives.PROBE)
             for _, f in ACTIVATIONS.values()]
    known += [f(alternatives.PROBE) for *_, f in alternatives.variants()]
    values = [f(alternatives.PROBE) for *_, f in typos]
    for i, v in enumerate(values):
        assert not any(np.nanmax(np.abs(v - other)) <= alternatives.APART
                       for other in known + values[:i]), typos[i][1]
    said = [s for _, _, s, _ in typos]
    assert any("`0.044715 + x ** 3` where `0.044715 * x ** 3` belongs" in s for s in said), said


def test_each_typo_computes_what_its_words_say():
    """The words "`new` where `old` belongs" read back into the activation's formula (its one
    `old` replaced by `new`, bracketed) compute the variant's values; a quote cut short (the
    whole formula's, "...") begins as the formula does."""
    x = np.linspace(-5, 5, 101)
    for name, detail, said, variant in alternatives.typed_variants():
        function = ast.parse(textwrap.dedent(inspect.getsource(ACTIVATIONS[name][1])))
        formula = ast.unparse(next(n for n in ast.walk(function)
                                   if isinstance(n, ast.Return)).value)
        new, old = said.split(" with `", 1)[1].split("` belongs", 1)[0].split("` where `")
        if old.endswith("..."):
            assert formula.startswith(old[:-3]) and new != old, (detail, old)
            continue
        assert formula.count(old) == 1, (detail, old)
        typed = formula.replace(old, f"({new})")
        got = eval(typed, {"np": np, "math": math, "erfc": erfc, "x": x})  # noqa: S307
        assert np.allclose(got, variant(x), equal_nan=True), (detail, typed)


def test_nanogpts_plus_for_times_in_the_cubic_term_is_named():
    """b80_04's `new_gelu`: the search names the typo, quoting the lecture's term and the
    student's, on the encoder-block check's cases and comparison."""
    found = em.search(BLOCK, block_calls(student_block(nanogpt_gelu)), 0, same)
    assert found is not None and found.name.startswith(TYPO + "gelu_tanh."), found
    assert found.sentence.startswith("In `encoder_block` (at the model solution's step `mlp(")
    assert ("the activation is GELU's tanh approximation with `0.044715 + x ** 3` where "
            "`0.044715 * x ** 3` belongs (a `+` typed for a `*`)") in found.sentence


@pytest.mark.parametrize(("act", "quoted"), [
    (lambda z: 0.5 * z * (1.0 + np.tanh(C * (z * 0.044715 * z ** 3))),
     "`x * (0.044715 * x ** 3)` where `x + 0.044715 * x ** 3`"),
    (lambda z: 0.5 * z * (1.0 + np.tanh(C * (z + 0.044715 * z * 3))), "`x * 3` where `x ** 3`"),
    (lambda z: (0.5 + z) * erfc(-z / math.sqrt(2.0)), "`0.5 + x` where `0.5 * x`")],
    ids=["plus-as-times", "power-as-times", "exact-times-as-plus"])
def test_other_typos_of_either_gelu_are_named(act, quoted):
    """The rule is the operator, not one formula: other places of both GELUs."""
    found = em.search(BLOCK, block_calls(student_block(act)), 0, same)
    assert found is not None and found.name.startswith(TYPO), found
    assert quoted in found.sentence


@pytest.mark.parametrize(("student", "square"), [
    (student_block(b2=False), False),
    (student_block(ACTIVATIONS["relu"][1]), False),
    (student_block(transposed=True), True),
    (student_block(nanogpt_gelu, b2=False), False),
    (student_block(nanogpt_gelu, transposed=True), True),
    (student_block(lambda z: 0.5 * z * (1.0 + np.tanh(C + (z + 0.044715 + z ** 3)))), False)],
    ids=["bias-dropped", "relu", "w2-transposed", "typo-and-bias-dropped",
         "typo-and-w2-transposed", "two-typos"])
def test_an_mlp_with_another_mistake_is_never_told_a_typo(student, square):
    """A bias left out, ReLU, W2 transposed, alone or beside the typo, or two typos: no typo
    reproduces the values, none is told."""
    found = em.search(BLOCK, block_calls(student, square), 0, same)
    assert found is None or "activation_typo" not in found.name, found


def test_the_typos_are_tried_only_where_nothing_else_is_found(monkeypatch):
    """Cost: where a first-tier rewrite reproduces the values (ReLU), no typo is tried; where
    none does, each typo is tried once, alone, after the pairs, never in a pair."""
    tried = []
    attempt = em.attempt

    def recording(root, group, *args, **kwargs):
        tried.append([edit.operator for edit in group])
        return attempt(root, group, *args, **kwargs)

    monkeypatch.setattr(em, "attempt", recording)
    found = em.search(BLOCK, block_calls(student_block(ACTIVATIONS["relu"][1])), 0, same)
    assert found.name == "op:activation:encoder_block/mlp:act=relu"
    assert not any("activation_typo" in group for group in tried)
    tried.clear()
    em.search(BLOCK, block_calls(student_block(nanogpt_gelu)), 0, same)
    typos = [group for group in tried if "activation_typo" in group]
    assert typos and all(group == ["activation_typo"] for group in typos)
    assert len(typos) == len(alternatives.typed_variants())
    assert tried.index(typos[0]) > max(i for i, group in enumerate(tried) if len(group) > 1)


def test_the_first_tier_fits_the_budget_and_the_typos_stand_apart():
    """The singles the search tries first stay within MAX_REWRITES (vit_forward's whole tree);
    the typos are edits of the model, named and compiled like any other, outside that budget."""
    singles = em.model(REFERENCE["vit_forward"])[1]
    late = [e for e in singles if e.operator in em.modules.LATE]
    typos = [e for e in late if e.operator == "activation_typo"]
    assert 0 < len(typos) <= 10 and len(late) <= em.LATE_TRIES  # every late rewrite is tried
    assert len(singles) - len(late) <= em.MAX_REWRITES
    name = next(e.name for e in em.model(BLOCK)[1] if e.operator == "activation_typo"
                and e.name.endswith(".0.044715x3-times-as-plus"))
    cases = generate_cases("block_inputs", 3, 77, {})
    for args, kwargs in cases:
        assert np.allclose(em.rewrite(BLOCK, name)(*args, **kwargs),
                           student_block(nanogpt_gelu)(*args, **kwargs))
