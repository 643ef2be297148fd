"""An operator on how attention cuts its heads, as heads.py's: q, k and v never split into heads
(blind round 79's b79_03, a port of a from-scratch `MultiHeadAttention` whose forward computes
`q @ k.T` on the whole (T, d) projections): one T x T attention over all d columns, whatever the
head count, its scores divided by sqrt(d // heads) (the head width the code computes and uses
for the scale only: right with one head), by sqrt(d) (the attention's own width, the listed
misconception attention_one_head's) or not scaled at all.

sequence.py's count_as_one gives one step the count 1, but one call at a time: the reference
splits q, k and v by three calls of `split_heads`, so the mistake would take three edits (the
search tries at most pairs), and its scale would be sqrt(d) only (the step scales by its input's
width). This operator makes the three calls one edit, with each of the three scales. Only where
the checked function is the one that splits: a caller is graded with its own stand-in. An
operator as in operators.py (`f(context, node) -> iterator of Change`); the new code calls
functions of this module and heads.py's `scaled_as_heads`, bound in the rewritten function's
globals.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, code, is_checked_function, where
from .heads import call_place, relaid, scaled_as_heads, split_and_merged
from .tree import PREFIX


def one_head(y, heads):
    """[..., T, d] -> [..., 1, T, d]: the projection as one head of every column, whatever
    `heads` is."""
    return np.asarray(y)[..., None, :, :]


def one_head_merged(z, heads):
    """The inverse of `one_head`: [..., 1, T, d] -> [..., T, d]."""
    return np.asarray(z)[..., 0, :, :]


def unscaled(q, heads):
    """`q` scaled so that a step dividing by sqrt(its width) divides by nothing."""
    q = np.asarray(q)
    return q * np.sqrt(q.shape[-1])


# detail suffix -> (the scale `attention`'s q is given first, what the scores are divided by,
# whether one head is then right: with one head, d_h = d)
SCALES = {"": ("scaled_as_heads", "divided by sqrt(d // {count}), the head width", True),
          "-scale-d": (None, "divided by sqrt(d), the whole width", True),
          "-unscaled": ("unscaled", "not scaled", False)}


def heads_never_split(context: Context, node: ast.AST) -> Iterator[Change]:
    """q, k and v never split into heads, the scores scaled by sqrt(d // heads), sqrt(d) or
    not at all (the module's docstring)."""
    if not is_checked_function(context, node) or (found := split_and_merged(node)) is None:
        return
    projections, (index, merge_call, _) = found
    merged_at = call_place(node.body[index], merge_call)
    count = code(projections[0][1].value.args[1])
    names = tuple((PREFIX + f.__name__, f) for f in (one_head, one_head_merged, unscaled,
                                                     scaled_as_heads))
    for suffix, (first, divided, right_with_one) in SCALES.items():
        yield Change(
            f"heads-never-split{suffix}",
            f"In {where(context)}, q, k and v are never split into heads: one T x T attention "
            f"runs over all d columns, its scores {divided.format(count=count)}, where each of "
            f"the `{count}` heads attends over its own d_h = d // {count} columns (head h the "
            f"contiguous columns h * d_h:(h + 1) * d_h, its own T x T scores divided by "
            f"sqrt(d_h)), the heads' outputs then side by side, head 0 first"
            + (" (right with one head only)." if right_with_one else "."),
            lambda n, first=first: relaid(n, projections, index, merged_at, "one_head",
                                          "one_head_merged", first=first), names)


OPERATORS = {"heads_uncut": heads_never_split}
