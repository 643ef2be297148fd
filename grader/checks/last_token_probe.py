"""Whether token 0 sees a change of the last token that no normalisation of the rows hides.

`no_causal_mask_by_default` fails when a random new last row x[-1] leaves token 0's output
unchanged; "token 0 cannot see the last token: GPT's causal mask" is true only if no change of
x[-1] reaches token 0. A LayerNorm on x inside self_attention maps each row of a d=2 input to
about (1, -1) or (-1, 1), so half the random new rows look the same after it, with no mask at all
(blind round 76's b76_08). The probe here sets x[-1] to its mean minus 10 times its differences
from that mean: a row that every shift and positive scale of the rows still tells apart.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .property_calls import PropertyContext, StudentCallFailed, Verdict


def reversed_last_row(x: np.ndarray) -> np.ndarray:
    """x (T, d) with x[-1] reflected about its mean and scaled by 10 (a change that no
    shift-and-positive-scale of a row, as LayerNorm, hides; x[-1] constant: + 10 * arange)."""
    probe = np.array(x, dtype=np.float64)
    row = probe[-1]
    centred = row - row.mean()
    if np.allclose(centred, 0):
        centred = -np.arange(len(row), dtype=np.float64)
    probe[-1] = row.mean() - 10 * centred
    return probe


def last_token_seen(ctx: PropertyContext, function: str, trials: list[tuple], answers,
                    same: Callable, message: str) -> Verdict | None:
    """An observation (no mask named) when token 0's output changes in some trial: under the
    trial's own change of x[-1] (answers[2 j + 1] against answers[2 j]) or under
    `reversed_last_row`. None when it changes in none (a mask is then what the outputs show), or
    when a call fails. `trials` hold (x (T, d), changed x, p, heads)."""
    seen = any(not same(np.asarray(answers[2 * j + 1])[0], np.asarray(answers[2 * j])[0])
               for j in range(len(trials)))
    how = "in another trial, a new x[-1]"
    if not seen:
        how = "x[-1] reflected about its mean and scaled by 10"
        try:
            probed = ctx.student.each(function, [(reversed_last_row(x), p, heads)
                                                 for x, _, p, heads in trials])
            seen = any(not same(np.asarray(probed[j])[0], np.asarray(answers[2 * j])[0])
                       for j in range(len(trials)))
        except (StudentCallFailed, IndexError, TypeError, ValueError):
            return None
    if not seen:
        return None
    return Verdict(False, f"{message}; {how} did change token 0's output", hint=(
                       f"The output of token 0 did not change when the last token x[-1] did, "
                       f"though other changes of x[-1] changed it: token 0 sees the last token, "
                       f"and some step of your `{function}` gives the same result for different "
                       f"last rows. Compare each step with the model solution on these calls: the "
                       f"checks of multi-head-attention say more."), spec_hint=False)
