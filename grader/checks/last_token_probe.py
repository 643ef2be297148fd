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


RANDOM_ROWS = 4  # new last rows tried on the failing trial's own call, beside the reflected one


def last_token_seen(ctx: PropertyContext, function: str, trials: list[tuple], answers,
                    same: Callable, message: str, failing: int = 0) -> Verdict | None:
    """An observation (no mask named) when token 0's output changes in some trial; None when it
    changes in none (a mask is then what the outputs show), or when a call fails. `trials` hold
    (x (T, d), changed x, p, heads); `failing` is the one whose change left token 0 unchanged.

    "Some step gives the same result for different last rows" is said only where the failing
    trial's own call shows it: with its x, p and heads, `reversed_last_row` or one of
    RANDOM_ROWS random new last rows changes token 0 (b76_08's LayerNorm on a d=2 input). A
    change seen only in another trial (another head count: b77_06's heads cut from the flat
    rows, head 0 never reading x[-1] unless there is one head) shows no such step: the
    observation alone is said there."""
    x, _, p, heads = trials[failing]
    calls = [(reversed_last_row(x_j), p_j, heads_j) for x_j, _, p_j, heads_j in trials]
    for _ in range(RANDOM_ROWS):  # the failing trial's call with other random last rows
        probe = np.array(x, dtype=np.float64)
        probe[-1] = ctx.rng.standard_normal(x.shape[1]) * 3
        calls.append((probe, p, heads))

    def changed(j: int, answer) -> bool:  # token 0's output unlike trial j's first answer
        return not same(np.asarray(answer)[0], np.asarray(answers[2 * j])[0])

    try:
        probed = ctx.student.each(function, calls)
        here = any(changed(failing, probed[j])
                   for j in (failing, *range(len(trials), len(calls))))
        there = [j for j in range(len(trials)) if j != failing and (
            changed(j, answers[2 * j + 1]) or changed(j, probed[j]))]
    except (StudentCallFailed, IndexError, TypeError, ValueError):
        return None
    if here:
        return Verdict(False, f"{message}; with the same x, p and heads, another new x[-1] did "
                              f"change token 0's output", hint=(
                           f"The output of token 0 did not change when the last token x[-1] did, "
                           f"though another change of x[-1] in the same call (the same x, p and "
                           f"heads) changed it: token 0 sees the last token, and some step of "
                           f"your `{function}` gives the same result for different last rows. "
                           f"Compare each step with the model solution on these calls: the "
                           f"checks of multi-head-attention say more."), spec_hint=False)
    if not there:
        return None
    seen = f"x of shape {trials[there[0]][0].shape}, heads={trials[there[0]][3]}"
    return Verdict(False, f"{message}; in another trial ({seen}), a change of x[-1] did change "
                          f"token 0's output", hint=(
                       f"With x of shape {x.shape} and heads={heads}, the output of token 0 did "
                       f"not change when the last token x[-1] did ({RANDOM_ROWS + 2} changes of "
                       f"x[-1] tried), though in another trial ({seen}) it did: every token "
                       f"should see every token when causal is False. The checks of "
                       f"multi-head-attention say more."), spec_hint=False)
