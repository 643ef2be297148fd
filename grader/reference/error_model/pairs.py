"""The pairs the error model's search tries when no single rewrite reproduces the student's
outputs (`search` in __init__.py), and in which order: two singles whose changes add up to the
student's value (`summed_pairs`), a single that leaves the student's NaN or inf where they are
(`nonfinite_alike`) with every other one, a single closest to the student's value with every
other one, two edits of one operator in one function or of two PARTNERS operators, and a single
that raises the student's very exception (`raised_alike`) with every other one
(`pairs_to_try`)."""

from __future__ import annotations

import numpy as np

from .evidence import agree, same_message
from .modules import PARTNERS
from .runs import run
from .tree import Edit, Instance
from .trial import Raised

ANCHORS = 2             # the singles closest to the student's outputs, each paired with the rest
CLOSER = 0.5            # ... when it takes the reference at least halfway to them
SIBLINGS = 30           # pairs of two edits of one operator in one function, per failed check
SIBLING_OPERATORS = ("axis", "term", "keepdims", "kept_by_index", "parameter", "residual_scaled",
                     "steps", "later_axes", "all_but_first")  # ... for these operators; and
PARTNERED = frozenset().union(*PARTNERS)  # two PARTNERS (modules.py) together, both told
ROUNDING = 1e-12     # a distance this small: the failing call's value wherever both are finite
SUMS = 8             # pairs whose two changes, added, give the student's value: tried first
SUMMED = 64          # ... of the closest sums, the ones the check's comparison is asked about


def raised_alike(root: Instance, scored: list, call, copies: bool) -> list[Edit]:
    """The singles (at most ANCHORS) that raise the student's very exception on the failing
    call, its message too, but miss a later call: a raise that exact places one mistake, and a
    second one shows where the code returned (a mask that indexes the heads raises, values left
    unprojected show without it)."""
    if not isinstance(call.got, Raised):
        return []
    out = []
    for _, edit in (item for item in scored if item[0] == 0.0):
        ran = run(root, [edit], call, copies)
        if ran is not None and not ran[0] and type(ran[1]).__name__ == call.got.type \
                and same_message(str(ran[1]), call.got.message):  # a reshape's sizes in
            # another order too: MAE's channels-first `reshape(3, h, p, w, p)` of a side wrong
            out.append(edit)
    return out[:ANCHORS]


def nonfinite_alike(root: Instance, scored: list, call, copies: bool) -> list[Edit]:
    """The singles (at most ANCHORS, nearest first) whose value on the failing call is NaN or
    inf exactly where the student's is, where the student's has such entries and the expected
    value has none there: a NaN row is no distance (`evidence.distance` leaves it out), so the
    mistake that makes it (a causal mask inverted, the last query left with no key) is no anchor
    when a second mistake moves every other row (q, k and v without their biases)."""
    try:
        got = np.asarray(call.got, dtype=float)
        expected = np.asarray(call.expected, dtype=float)
    except (TypeError, ValueError):
        return []
    if got.shape != expected.shape or not (~np.isfinite(got) & np.isfinite(expected)).any():
        return []
    out = []
    for _, edit in sorted(scored, key=lambda item: item[0]):
        ran = run(root, [edit], call, copies)  # kept from the single's try (runs.py)
        if ran is None or not ran[0]:
            continue
        try:
            value = np.asarray(ran[1], dtype=float)
        except (TypeError, ValueError):
            continue
        if value.shape == got.shape and (np.isfinite(value) == np.isfinite(got)).all():
            out.append(edit)
            if len(out) == ANCHORS:
                break
    return out


def anchored(root: Instance, scored: list, call, copies: bool) -> tuple[list, list]:
    """(`raised_alike`'s singles, `nonfinite_alike`'s): the singles no distance ranks, each
    paired with every other one."""
    return raised_alike(root, scored, call, copies), nonfinite_alike(root, scored, call, copies)


def summed_pairs(root: Instance, scored: list, call, same, copies: bool
                 ) -> list[tuple[Edit, Edit]]:
    """The pairs (at most SUMS) of two scored singles at two places whose changes to the
    reference's value on the failing call, added, give the student's value under the check's
    comparison: two mistakes whose effects add up (a bias left out at the end and a step before
    it changed), each of which alone may lie farther from the student's value than the
    reference does, so that no distance ranks it among the anchors. Only values of the
    student's shape, finite; ranked by how far the sum is from the student's value. A sum is
    only a guess, tried as every pair is: a part that is not additive can sum exactly on one
    call (an activation of the result that zeroes logits all negative, beside any part that
    adds the student's logits), hence several."""
    got, expected = call.got, call.expected
    if isinstance(got, Raised):
        return []
    try:
        target = np.asarray(got, dtype=float) - np.asarray(expected, dtype=float)
    except (TypeError, ValueError):
        return []
    if not target.size or not np.isfinite(target).all():
        return []
    edits, changes = [], []
    for _, edit in scored:
        ran = run(root, [edit], call, copies)  # kept from the single's try (runs.py)
        if ran is None or not ran[0]:
            continue
        try:
            change = np.asarray(ran[1], dtype=float) - np.asarray(expected, dtype=float)
        except (TypeError, ValueError):
            continue
        if change.shape == target.shape and np.isfinite(change).all():
            edits.append(edit)
            changes.append(change.ravel())
    if len(edits) < 2:
        return []
    changes, target = np.array(changes), target.ravel()
    # |a + b - t|^2 for every pair, from the changes' dot products (n x n, not n x n x size)
    dots, towards = changes @ changes.T, changes @ target
    norms = np.diag(dots)
    gaps = norms[:, None] + norms[None, :] + 2 * dots - 2 * (towards[:, None] + towards[None, :])
    gaps += target @ target
    upper = np.triu_indices(len(edits), 1)
    base = np.asarray(expected, dtype=float)
    out = []
    for k in np.argsort(gaps[upper], kind="stable")[:SUMMED]:
        a, b = edits[upper[0][k]], edits[upper[1][k]]
        if a.site == b.site:
            continue
        value = (base.ravel() + changes[upper[0][k]] + changes[upper[1][k]]).reshape(base.shape)
        if agree(same, value, got):
            out.append((a, b))
            if len(out) == SUMS:
                break
    return out


def stacked(a: Edit, b: Edit) -> bool:
    """Whether two edits at one place make two mistakes there: two operators' rewrites of a
    whole function (its definition, the first node), applied one after the other (tree.py), as
    an eps parameter fixed at a library's value and the statistics a row loop takes (blind
    round 67's b67_02); two edits of one node elsewhere set one thing two ways."""
    return a.site == b.site and a.site.index == 0 and a.operator != b.operator


def pairs_to_try(scored: list[tuple[float, Edit]], start: float | None, silent: list[Edit] = (),
           raising: list[Edit] = (), every: tuple[Edit, ...] = (), summed=(), nonfinite=()):
    """The pairs to try, each once: first two singles whose changes add up to the student's
    value (`summed_pairs`); two edits of two PARTNERS operators (modules.py, whatever their
    distance: few, and the anchors' pairs with every single may fill the budget); a single
    that returns the failing call's value exactly
    (but not another call's), or wherever both are finite (ROUNDING), with each single that
    changes nothing on that call (a second mistake that shows only elsewhere: a merge of
    several heads, where the failing call has one; a finite fill where the first one hides a
    whole row); each of the (at most ANCHORS) singles that take the reference at least halfway
    to the student's value with every other single; then two edits of one operator in one function
    (the axis of both max and sum, gamma and beta both dropped), at most SIBLINGS of them; then
    each single that raises the student's very exception (`raising`) with every other one.
    Each single that leaves the student's NaN or inf where they are (`nonfinite`) is paired with
    every other single right after the partners: no distance ranks it."""
    scored = sorted(scored, key=lambda item: item[0])
    edits = [edit for _, edit in scored]
    anchors = [edit for distance, edit in scored[:ANCHORS]
               if start is not None and distance < CLOSER * start]
    exact = [edit for distance, edit in scored[:ANCHORS] if distance <= ROUNDING]
    tried = set()
    candidates = [(a, b) for a in exact for b in silent] + [(a, b) for a in anchors for b in edits]
    either = [*edits, *silent]  # one slip made twice: a part may change nothing alone
    siblings = [(a, b) for i, a in enumerate(either) for b in either[i + 1:]
                if a.site.path == b.site.path and a.operator == b.operator
                and a.operator in SIBLING_OPERATORS]
    mates = [edit for edit in every if edit.operator in PARTNERED]  # scored or not: a NaN
    partners = [(a, b) for i, a in enumerate(mates) for b in mates[i + 1:]  # row is no distance
                if a.site.path == b.site.path and {a.operator, b.operator} in PARTNERS]
    nonfinite_pairs = [(a, b) for a in nonfinite for b in edits]
    for a, b in ([*summed] + partners + nonfinite_pairs + candidates + siblings[:SIBLINGS]
                 + [(a, b) for a in raising for b in every]):
        key = frozenset((a.name, b.name))
        if (a.site != b.site or stacked(a, b)) and key not in tried:
            tried.add(key)
            yield a, b
