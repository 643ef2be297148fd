"""What a rewrite's values are weighed with (the error model's search, __init__.py): the
student's values under the check's comparison (`agree`), or both holding no value where the
reference's does (`empty_alike`, `reproduced`), how far one is from another (`distance`), fresh
copies of a call's inputs (`fresh`), the size of a call (`elements`), whether calls show a
parameter named right (`named_right`: a default's claim) or passed against a branch
(`passed_against`: a condition's claim), whether a raise's message is the student's
(`same_message`).
"""
from __future__ import annotations

import re

import numpy as np

# numpy's refusal of a reshape: the array's size and the shape asked for
RESHAPE = re.compile(r"cannot reshape array of size (\d+) into shape \(([\d, ]*)\)")


def agree(same, value, target) -> bool:
    """`same(value, target)`, False where the comparison cannot take the rewrite's value (a
    tuple where a count belongs)."""
    try:
        return bool(same(value, target))
    except (TypeError, ValueError):
        return False


def empty_alike(value, got, expected) -> bool:
    """Whether a rewrite's `value` and the student's `got` are both arrays of no element, where
    the reference's `expected` is a refusal (None) or holds elements: "no patch" is one answer
    whatever the empty array's shape or dtype (a loop's `np.array([])` is (0,), the reference's
    rows (0, P*P*C)); where `expected` is empty too, its shape is all it says, and counts."""
    return (isinstance(value, np.ndarray) and isinstance(got, np.ndarray) and value.size == 0
            and got.size == 0 and not (isinstance(expected, np.ndarray) and expected.size == 0))


def reproduced(same, value, got, expected) -> bool:
    """Whether a rewrite's `value` is the student's `got` under the check's comparison `same`
    (`agree`), or both hold no value where the reference's `expected` does (`empty_alike`)."""
    return agree(same, value, got) or empty_alike(value, got, expected)


def distance(value, got) -> float | None:
    try:
        a, b = np.asarray(value, dtype=float), np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return None
    if a.shape != b.shape or a.size == 0:
        return None
    with np.errstate(all="ignore"):
        gaps, sizes = np.abs(a - b), np.abs(b)
        kept = np.isfinite(gaps) & np.isfinite(sizes)
        if not kept.any():
            return None
        return float(gaps[kept].mean()) / (float(sizes[kept].mean()) or 1.0)


def fresh(value):
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, (list, tuple)):
        return type(value)(fresh(v) for v in value)
    if isinstance(value, dict):
        return {k: fresh(v) for k, v in value.items()}
    return value


def recorded(variable, rewritten, calls) -> list:
    """What the rewritten function appends to the list `variable` (a ContextVar its rewrite
    reads) while it runs on each of `calls`: the sizes or modes it met, where only some calls
    tell two of an operator's readings apart. A call that raises records what it met before."""
    seen: list = []
    token = variable.set(seen)
    try:
        for call in calls:
            try:
                rewritten(*fresh(call.args), **fresh(call.kwargs))
            except Exception:  # noqa: BLE001, S112  (a raise reads what it met before it)
                continue
    finally:
        variable.reset(token)
    return seen


def sizes_shown(variable, rewritten, calls, same, raised: tuple = ()) -> bool:
    """Whether the calls on which a rewrite's size-dependent edit shows (its value not the
    reference's, or a raise of a type in `raised`) read two different sizes, as the edit appends
    them to the list `variable` (a ContextVar) while it runs: on one size the calls cannot tell
    a formula of the size from a constant of that value (fixed.py, scales.py)."""
    shown = set()
    for call in calls:
        read: list = []
        token = variable.set(read)
        try:
            value = rewritten(*fresh(call.args), **fresh(call.kwargs))
        except raised:
            value = None
        except Exception:  # noqa: BLE001, S112 - another raise shows no size
            continue
        finally:
            variable.reset(token)
        if value is None or not agree(same, call.expected, value):
            shown.update(int(size) for size in read)
    return len(shown) >= 2


def elements(value) -> int:
    if isinstance(value, np.ndarray):
        return value.size
    if isinstance(value, (list, tuple)):
        return sum(elements(v) for v in value)
    if isinstance(value, dict):
        return sum(elements(v) for v in value.values())
    return 1


def named_right(name: str, position: int, function, calls: list, same) -> bool:
    """Whether one of `calls` names the parameter (`axis=1`, or last of its positional
    arguments) where leaving it out gives another value, and the student's value is right
    there: else the calls cannot tell a default from the parameter ignored altogether (the
    axis hard-coded), and the sentence's "a call that names it is right" is not known."""
    for call in calls:
        if name in call.kwargs:
            args, kwargs = call.args, {k: v for k, v in call.kwargs.items() if k != name}
        elif len(call.args) == position + 1:
            args, kwargs = call.args[:position], call.kwargs
        else:
            continue
        if not agree(same, call.expected, call.got):
            continue
        try:
            left_out = function(*fresh(args), **fresh(kwargs))
        except Exception:  # noqa: BLE001 - the default refuses the input: another value
            return True
        if not agree(same, call.expected, left_out):
            return True
    return False


def passed_against(read: tuple, function, calls: list, same) -> bool:
    """Whether one of `calls` passes a parameter `read` names ((name, position) pairs: `causal`
    given by keyword, or positionally) where the rewritten `function`, its branch taken always,
    is not the reference's value: a value that should not take the branch, so "whatever `causal`
    says" is seen. Where no call passes it, the calls cannot tell the branch always taken from
    the parameter's default flipped (MATLAB's `CausalMask = true`): neither is said."""
    for call in calls:
        if not any(name in call.kwargs or len(call.args) > position for name, position in read):
            continue
        try:
            value = function(*fresh(call.args), **fresh(call.kwargs))
        except Exception:  # noqa: BLE001 - the branch refuses what the reference takes
            return True
        if not agree(same, call.expected, value):
            return True
    return False


def same_message(raised: str, message: str) -> bool:
    """Whether a rewrite's exception message `raised` is the student's `message`: the same text,
    or numpy's refusal of one reshape written in another layout: an array of the same size asked
    into the same sizes in another order, axes of size 1 aside (MAE's and lightly's patchify cut
    a channels-first batch, `imgs.reshape(N, C, h, p, w, p)`, where the reference cuts the
    channels-last image, `image.reshape(h, p, w, p, C)`: a side counted wrongly asks for the
    same wrong sizes in both)."""
    if raised == message:
        return True
    ours, theirs = RESHAPE.fullmatch(raised), RESHAPE.fullmatch(message)
    if ours is None or theirs is None or ours[1] != theirs[1]:
        return False

    def sizes(shape: str) -> list[int]:
        return sorted(n for n in map(int, filter(None, re.split(r"[, ]+", shape))) if n != 1)

    return sizes(ours[2]) == sizes(theirs[2])
