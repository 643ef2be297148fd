"""A mask's kept and hidden parts swapped, the hidden ones filled with a large finite number: a
mask of the HIDDEN keys (`np.triu(np.ones((T, T)), 1)`, 1 at the later tokens: PyTorch's
convention, `nn.MultiheadAttention`'s boolean `attn_mask`, True where a key may not be seen)
given to a rule that reads 1 as "keep" and fills where it is 0 (the UvA deep-learning
tutorials' `scaled_dot_product`, `jnp.where(mask == 0, -9e15, attn_logits)` in Flax,
`attn_logits.masked_fill(mask == 0, -9e15)` in PyTorch; a Flax linen MultiHeadAttention built
on it). Each query then sees only the later tokens, never itself or the earlier ones, and the
last query, with every key hidden, weighs them all alike (a finite fill: no NaN, where
`names.py`'s `mask_inverted`, the condition inverted with -inf kept, gives a NaN row). Only at
the reference's `np.where(mask, scores, -np.inf)` (one site). An operator as in operators.py
(`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, code, where
from .names import hides_with_minus_infinity

FILL = -1e9  # any fill this large hides a key as -inf does where a row keeps one


def mask_swapped(context: Context, node: ast.AST) -> Iterator[Change]:
    """`np.where(mask, scores, -np.inf)` as `np.where(mask, -1e9, scores)`: the scores the mask
    keeps are the ones hidden, by a finite number, and the ones it hides are kept."""
    if not hides_with_minus_infinity(node):
        return

    def swapped(n: ast.Call) -> ast.Call:
        new = copy.copy(n)
        new.args = [n.args[0], ast.Constant(FILL), copy.deepcopy(n.args[1])]
        return new

    mask, kept = code(node.args[0]), code(node.args[1])
    yield Change("kept-and-hidden-swapped-finite-fill",
                 f"In {where(context)}, the mask hides the scores it should keep and keeps the "
                 f"ones it should hide, `np.where({mask}, -1e9, {kept})` in effect, where "
                 f"`{code(node)}` belongs, as when a mask that marks the hidden keys (`np.triu("
                 "np.ones((T, T)), 1)`, 1 at the later tokens, PyTorch's convention) meets a "
                 "rule that reads 1 as \"keep\" (`np.where(mask == 0, -9e15, scores)`). Each "
                 "query then sees only the later tokens, never itself or the earlier ones, and "
                 "the last query, with every key hidden, weighs all of them alike. Token i must "
                 "see keys 0..i: with a rule that fills where the mask is 0, that mask is "
                 "`np.tril(np.ones((T, T)))`.",
                 swapped)


OPERATORS = {"mask_swapped": mask_swapped}  # tried after sinusoids.OPERATORS
