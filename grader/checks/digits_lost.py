"""The LayerNorm shift property's far trial (x + 1e7) failed: which loss of digits gives the
student's values on every call it made, a variance taken in one pass (mean(x**2) - mean(x)**2) or
a computation in float32, each named in its own words; else the difference alone
(properties.layer_norm_shift_invariant)."""
from __future__ import annotations

import numpy as np

from .compare import as_array
from .property_calls import Verdict
from .property_named import NAMED, below_zero


def digits_lost(said: str, trials: list, answers: list) -> Verdict:
    """The shift property's far trial failed: named a one-pass variance when LayerNorm with its
    variance taken so returns the student's values on every call the property made (each trial's
    x and x + shift), or a float32 computation when LayerNorm computed so does, each in its own
    words (the spec's checklist tells float64 code to compute in float64), else the difference
    alone."""
    calls = [call for x, gamma, beta, shift in trials
             for call in ((x, gamma, beta), (x + shift, gamma, beta))]
    if any(all(_alike(answer, one_pass_layer_norm(*call, moments=moments))
               for answer, call in zip(answers, calls, strict=True)) for moments in MOMENTS):
        nan = any(np.isnan(as_array(answer)).any() for answer in answers)
        return Verdict(False, said, hint=below_zero(NAMED["layer_norm_one_pass_variance"], nan),
                       misconception="layer_norm_one_pass_variance", spec_hint=False, named=True)
    if all(_alike(answer, float32_layer_norm(*call))
           for answer, call in zip(answers, calls, strict=True)):
        return Verdict(False, said, hint=NAMED["layer_norm_float32"],
                       misconception="layer_norm_float32", spec_hint=False, named=True)
    return Verdict(False, said)


def float32_layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm computed in float32, x cast first (Keras' and JAX/Flax's default compute dtype,
    `np.asarray(x, dtype=np.float32)`), gamma and beta as given: far from zero the cast keeps
    no digit of what tells the tokens apart, and the mean taken there is off by whole units.
    Only a code that computes in float32 returns these values on every call of the property."""
    low = np.asarray(x, dtype=np.float32)
    centre, spread = low.mean(axis=-1, keepdims=True), low.var(axis=-1, keepdims=True)
    return (low - centre) / np.sqrt(spread + eps) * gamma + beta


def one_pass_layer_norm(x, gamma, beta, eps=1e-6, moments="mean"):
    """LayerNorm with its variance taken in one pass, mean(x**2) - mean(x)**2 (Triton's fused
    kernel, burn#5607; TensorRT's layerNorm plugin): the digits it loses far from zero are
    those of its sums, so `moments` says how its two means were added up (MOMENTS); a negative
    variance gives NaN. Only one reading at a time is held against every call the property
    made, so a code is named only where one of them gives all its values."""
    centre, square = MOMENTS[moments](x)  # names unlike the solution's: the bundle ships
    with np.errstate(invalid="ignore", divide="ignore"):  # this file, never a solution's line
        spread = square - centre * centre
        return (x - centre) / np.sqrt(spread + eps) * gamma + beta


def _in_order(values):
    """The sum over the last axis added left to right, as a Python loop adds it."""
    return np.add.accumulate(values, axis=-1)[..., -1:]


def _summed(values):
    return values.sum(axis=-1, keepdims=True)


MOMENTS = {  # the two means of a one-pass variance, (mean(x), mean(x * x)), as code adds them
    "mean": lambda x: (x.mean(axis=-1, keepdims=True), (x * x).mean(axis=-1, keepdims=True)),
    # each term scaled first, then added (TensorRT's cub::KeyValuePair of x/ld and x*x/ld)
    "scaled": lambda x: (_summed(x * (1 / x.shape[-1])), _summed(x * x * (1 / x.shape[-1]))),
    "summed-then-divided": lambda x: (_summed(x) / x.shape[-1], _summed(x * x) / x.shape[-1]),
    "loop": lambda x: (_in_order(x) / x.shape[-1], _in_order(x * x) / x.shape[-1]),
    "loop-scaled": lambda x: (_in_order(x * (1 / x.shape[-1])),
                              _in_order(x * x * (1 / x.shape[-1]))),
}


def _alike(got, want) -> bool:
    """Whether the student's `got` is `want` (float64, shape and NaNs included)."""
    got = as_array(got)
    if not (isinstance(got, np.ndarray) and got.dtype == np.float64 and got.shape == want.shape):
        return False
    return bool(np.allclose(got, want, rtol=1e-4, atol=1e-5, equal_nan=True))
