"""The causes a property check names, each checked on every call it made, and what it says to
the student (a named mistake: properties.py returns it with `named=True`)."""
from __future__ import annotations

NAMED = {"causal_default_true": (
    "Your `self_attention` masks the later tokens when `causal` is left out: every call without "
    "it returned what causal=True returns, as when `causal=True` is the default in the "
    "signature, and with causal=False passed this property holds. The student API's default is "
    "causal=False: a call that leaves `causal` out must let every token see every token."),
    # only what the calls show: no source named (the code may come from any GPT port: blind
    # round 60's was gpt-fast, not minGPT) and no caller's habit (its own block may pass it)
    "layer_norm_float32": (
    "Your `layer_norm` computes in float32: on every call here it returned what LayerNorm "
    "returns with x cast to float32 first (Keras' and JAX's default compute dtype). Far from "
    "zero float32 rounds x + 1e7 to whole numbers, losing the digits that tell a token's "
    "values apart, so the normalised token is wrong. The model solution computes in the "
    "input's float64: drop the cast (or cast to np.float64)."),
    # said in its own words: the spec's checklist tells float64 code to compute in float64
    "layer_norm_one_pass_variance": (
    "Your `layer_norm` takes the variance in one pass, mean(x**2) - mean(x)**2 (E[x^2] - "
    "E[x]^2): on every call here it returned what LayerNorm with its variance taken so "
    "returns. Far from zero (x + 1e7) the two terms are huge and nearly equal, so their "
    "difference loses its digits, even in float64. "
    "Subtract the mean first: mean((x - mean)**2), or np.var.")}
# said only where the student's values hold a NaN (blind round 57's b57_12 was told it of a
# `math.sqrt`, which raises there instead): `below_zero`
LOST = "loses its digits, "
BELOW_ZERO = "loses its digits (and below zero its square root is NaN, as yours gave), "


def below_zero(hint: str, nan: bool) -> str:
    """The one-pass variance's hint, with what a negative variance gives where a value the
    student returned holds a NaN."""
    return hint.replace(LOST, BELOW_ZERO, 1) if nan else hint
