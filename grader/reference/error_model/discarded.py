"""Operators on a residual whose branch's output is computed and never used: the stream added to
itself, `x + x`, where the lecture adds the branch's output to it, `x + mlp(layer_norm(x, ...))`.
A port of a Flax or Keras block whose dropout was given the stream instead of the branch's
output, `x = x + self.dropout(x, deterministic=...)` for `x = x + self.dropout(ffn_out, ...)`
(GabinAgbale/vit_jax's TransformerLayer, after the UvA DL tutorial's `x = x +
self.dropout(linear_out)`), with dropout off at inference: the block doubles its stream.

Only a residual in the checked function's own code (the block's sum, not a helper's), where
the step on one side of the `+` reads the name on the other side.
An operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, callee, code, where


def _residual_branch(node: ast.AST) -> tuple[ast.Name, ast.Call, str] | None:
    """(the stream, the branch, its side) of `x + f(..x..)` or `f(..x..) + x`, else None."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)):
        return None
    for side, other in (("right", node.left), ("left", node.right)):
        branch = getattr(node, side)
        if (isinstance(other, ast.Name) and isinstance(branch, ast.Call)
                and isinstance(branch.func, ast.Name)
                and any(isinstance(n, ast.Name) and n.id == other.id
                        for a in branch.args for n in ast.walk(a))):
            return other, branch, side
    return None


def branch_discarded(context: Context, node: ast.AST) -> Iterator[Change]:
    """`x + mlp(layer_norm(x, ...), p)` as `x + x`: the branch's output left unused."""
    found = None if "/" in context.instance.path else _residual_branch(node)
    if found is None:
        return
    stream, branch, side = found
    step = callee(branch)

    def doubled(n: ast.BinOp, side=side) -> ast.BinOp:
        new = copy.copy(n)
        setattr(new, side, copy.deepcopy(n.left if side == "right" else n.right))
        return new

    yield Change(f"{step}-branch-discarded-{stream.id}-doubled",
                 f"In {where(context)}, the residual `{code(node)}` is written `{stream.id} + "
                 f"{stream.id}`: the branch's output, `{step}(...)`, is never added (as a port "
                 f"of `x = x + dropout(x)` does, the dropout given the stream where the branch's "
                 f"output belongs), so `{stream.id}` is doubled. The lecture's residual adds the "
                 f"branch's output to `{stream.id}`.", doubled)

OPERATORS = {"branch_discarded": branch_discarded}
