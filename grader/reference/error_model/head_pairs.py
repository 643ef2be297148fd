"""An operator on how attention cuts its heads, as heads.py's: the split into heads and the merge
back swapping the wrong pair of axes, each the other's inverse (blind round 59's b59_11: a
batched port's `transpose(1, 2)` kept after the batch axis was dropped, so the (T, heads, d_h)
projections become (T, d_h, heads) and attention runs inside each token), or swapping no pair at
all (blind round 79's b79_07: BERT's `transpose_for_scores` ported without its permute, so the
(T, heads, d_h) projections attend across each token's heads). An operator as in
operators.py (`f(context, node) -> iterator of Change`); the new code calls functions of this
module, bound in the rewritten function's globals.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, code, is_checked_function, where
from .heads import call_place, relaid, split_and_merged
from .tree import PREFIX

# the pairs of trailing axes a split can swap where the lecture's (-2, -3) belongs, with the
# layout of each head-split projection then (the reshape gives (T, heads, d_h)), what attention
# then runs over, and the scale `attention` divides by (its input's last axis)
WRONG_PAIRS = {
    "last-two": ((-1, -2), "(T, d_h, heads)",
                 "`swapaxes(1, 2)` on it, as a batched code's `transpose(1, 2)` does once the "
                 "batch axis is dropped",
                 "within each token, its d_h head-width positions attending to one another "
                 "with the heads as their features (a d_h x d_h score matrix per token)",
                 "heads"),
    "outer": ((-1, -3), "(d_h, heads, T)", "`swapaxes(0, 2)` on it",
              "at each of the d_h head-width positions, the heads attending to one another "
              "with the tokens as their features (a heads x heads score matrix)", "T"),
}


def _pair_split(pair):
    def split(y, heads):
        y = np.asarray(y)
        *lead, T, d = y.shape
        return y.reshape(*lead, T, heads, d // heads).swapaxes(*pair)
    return split


def _pair_merge(pair):
    def merge(z, heads):
        z = np.asarray(z).swapaxes(*pair)  # back to [..., T, heads, d_h]
        *lead, T, count, d_h = z.shape
        return z.reshape(*lead, T, count * d_h)
    return merge


def _pair_width(pair):
    def scaled(q, heads):
        """`q` scaled so that a step dividing by sqrt(q's last axis) divides by sqrt(d_h), the
        head width, wherever the swap put it."""
        q = np.asarray(q)
        width = q.shape[-2] if pair == (-1, -2) else q.shape[-3]
        return q * np.sqrt(q.shape[-1] / width)
    return scaled


def split_swapped_last_two(y, heads):
    """[..., T, d] -> [..., T, d_h, heads]: reshaped to (T, heads, d_h), then its last two axes
    swapped where the lecture swaps the first two."""
    return _pair_split((-1, -2))(y, heads)


def merge_swapped_last_two(z, heads):
    """The inverse of `split_swapped_last_two`: [..., T, d_h, heads] -> [..., T, d]."""
    return _pair_merge((-1, -2))(z, heads)


def width_scaled_last_two(q, heads):
    """`q` [..., T, d_h, heads] scaled so that a step's 1/sqrt(heads) becomes 1/sqrt(d_h)."""
    return _pair_width((-1, -2))(q, heads)


def split_swapped_outer(y, heads):
    """[..., T, d] -> [..., d_h, heads, T]: reshaped to (T, heads, d_h), then its first and last
    axes swapped."""
    return _pair_split((-1, -3))(y, heads)


def merge_swapped_outer(z, heads):
    """The inverse of `split_swapped_outer`: [..., d_h, heads, T] -> [..., T, d]."""
    return _pair_merge((-1, -3))(z, heads)


def width_scaled_outer(q, heads):
    """`q` [..., d_h, heads, T] scaled so that a step's 1/sqrt(T) becomes 1/sqrt(d_h)."""
    return _pair_width((-1, -3))(q, heads)


def split_unmoved(y, heads):
    """[..., T, d] -> [..., T, heads, d_h]: reshaped into heads, the head axis never moved first
    (BERT's `transpose_for_scores` without its `permute(0, 2, 1, 3)`)."""
    y = np.asarray(y)
    *lead, T, d = y.shape
    return y.reshape(*lead, T, heads, d // heads)


def merge_unmoved(z, heads):
    """The inverse of `split_unmoved`: [..., T, heads, d_h] -> [..., T, d]."""
    z = np.asarray(z)
    *lead, T, count, d_h = z.shape
    return z.reshape(*lead, T, count * d_h)


def heads_triangle(mask, heads):
    """A causal triangle over the (heads, heads) scores of `split_unmoved`'s layout, as a mask
    built from the scores' own shape is (`np.triu(np.full((n, n), -1e9), k=1)`, n the scores'
    last axis); None stays None."""
    return None if mask is None else np.tri(heads, dtype=bool)


def heads_swapped_wrong_pair(context: Context, node: ast.AST) -> Iterator[Change]:
    """The split into heads and the merge back swapping the wrong pair of axes, each the
    other's inverse: (T, heads, d_h) swapped to (T, d_h, heads) where (heads, T, d_h) belongs (a
    batched port's `transpose(1, 2)` kept after the batch axis was dropped: blind round 59's
    b59_11, `_split_into_heads` and `_concatenate_heads`), or to (d_h, heads, T); scores divided
    by sqrt(d_h) (the head width passed to the step) or by the last axis' size (the step's own
    `q.shape[-1]`); or left (T, heads, d_h), no axis moved (BERT's `transpose_for_scores`
    without its permute), its causal triangle the (heads, heads) scores' own. Wrong with any
    head count. Only where the checked function is the one that
    splits: a caller's graded with its own stand-in."""
    if not is_checked_function(context, node) or (found := split_and_merged(node)) is None:
        return
    projections, (index, merge_call, _) = found
    merged_at = call_place(node.body[index], merge_call)
    count = code(projections[0][1].value.args[1])
    for key, ((_, _), layout, written, runs, last) in WRONG_PAIRS.items():
        split, merge = f"split_swapped_{key.replace('-', '_')}", \
            f"merge_swapped_{key.replace('-', '_')}"
        width = f"width_scaled_{key.replace('-', '_')}"
        names = tuple((PREFIX + f, globals()[f]) for f in (split, merge, width))
        for scale, first, said in (("", width, "sqrt(d_h)"),
                                   ("-scale-" + last.lower(), None,
                                    f"sqrt({last}), the size of the last axis")):
            yield Change(
                f"heads-split-and-merge-swap-{key}{scale}",
                f"In {where(context)}, the split into heads swaps the wrong pair of axes: each "
                f"projection, reshaped to (T, {count}, d_h), becomes {layout} ({written}) "
                f"instead of (heads, T, d_h), and the merge undoes that same swap; so attention "
                f"runs {runs}, not over the tokens, its scores divided by {said}. Swap the "
                f"first two axes, `swapaxes(0, 1)` (the head axis first), in the split and in "
                f"the merge.",
                lambda n, split=split, merge=merge, first=first: relaid(
                    n, projections, index, merged_at, split, merge, first=first), names)
    yield Change(
        "heads-split-and-merge-unmoved",
        f"In {where(context)}, the split into heads never moves the head axis first: each "
        f"projection is reshaped to (T, {count}, d_h) and left so (as code that ports BERT's "
        f"`transpose_for_scores` without its `permute` does), and the merge reshapes it "
        f"straight back; so the scores are computed per token across its heads ((T, {count}, "
        f"{count}): each token's heads attend to one another), not per head across the tokens "
        f"(({count}, T, T)), and with one head each token gets its own value. Move the head axis "
        f"first, `swapaxes(0, 1)`, after the reshape (and back before the merge's reshape).",
        lambda n: relaid(n, projections, index, merged_at, "split_unmoved", "merge_unmoved",
                         "heads_triangle"),
        tuple((PREFIX + f.__name__, f) for f in (split_unmoved, merge_unmoved, heads_triangle)))


OPERATORS = {"heads_wrong_pair": heads_swapped_wrong_pair}
