"""A pre-LN block written post-LN at every branch at once: `x = x + attn(ln1(x))` and `return x +
mlp(ln2(x))` as `x = ln1(x + attn(x))` and `return ln2(x + mlp(x))` (the 2017 Transformer's
order, a port of a post-LN source). choices.py's `norm_after` moves one branch's norm; a post-LN
block moves them all, one mistake, so one edit: with a second mistake the search pairs it, where
three edits are never tried (blind round 69's b69_08: post-LN and the first LayerNorm's
parameters in both norms, as a source with a single `self.layer_norm` writes it; `PARTNERS`).

Applies to a function whose own body holds two pre-norm residual steps or more (`x = x +
step(norm(x, ...), ...)` or its `return`), each moved as `norm_after` moves it (its `replace`,
reused: one rule for where a norm sits after its sum). A plain post-LN block is the encoder's
misconception `encoder_post_ln` (misconceptions.py), matched before the search runs.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, code, where
from .choices import norm_after_residual


def _moves(context: Context, function: ast.FunctionDef) -> list[tuple[int, Change]]:
    """(index in the body, `norm_after`'s change) of each pre-norm residual statement."""
    return [(i, change) for i, statement in enumerate(function.body)
            for change in norm_after_residual(context, statement)]


def every_norm_after_residual(context: Context, node: ast.AST) -> Iterator[Change]:
    """Every pre-norm residual step of the function moved post-LN at once (two or more)."""
    if not (isinstance(node, ast.FunctionDef) and node is context.instance.node):
        return
    moves = _moves(context, node)
    if len(moves) < 2:
        return
    at = {i: change.replace for i, change in moves}

    def moved(n: ast.FunctionDef) -> ast.FunctionDef:
        new = copy.copy(n)
        new.body = [at[i](statement) if i in at else statement
                    for i, statement in enumerate(n.body)]
        return new

    after = [code(at[i](node.body[i]).value) for i, _ in moves]
    before = [code(node.body[i].value) for i, _ in moves]
    yield Change("every-norm-after-residual",
                 f"In {where(context)}, every LayerNorm comes after its residual sum (post-LN, "
                 f"the 2017 Transformer's order): `{'`, `'.join(after)}`. The lecture's block is "
                 f"pre-LN: each branch reads a LayerNorm of the stream and the residual adds its "
                 f"output to the un-normalised stream, `{'`, `'.join(before)}`.", moved)


OPERATORS = {"post_norm_block": every_norm_after_residual}
# the search pairs it with a step read with another step's parameters as it pairs two edits of
# one operator (pairs.py), whatever their distances: a post-LN port of a source that keeps one
# norm module (`self.layer_norm`) reads the first norm's gain and shift in both, and such a
# block's output, a LayerNorm's, lies as near a softmax of the reference's as to either part
PARTNERS = frozenset(frozenset({"post_norm_block", other})
                     for other in ("step_parameters", "later_step_parameters", "parameter"))
