"""The words of a transpose removed where its step then reshapes (operators.transpose): what
the student's code does, a reshape with no axes moved first, said in the student's terms where
the step is known (the heads merged), never the lecture's step quoted as if the student had
written it (blind round 49's "`x.swapaxes(-2, -3)` is used without its transpose: `x` as it
is" of an attention that merged its heads by a bare `reshape(-1, d)`).
"""
from __future__ import annotations

import ast

from grader.report.merge_order import MERGED_UNMOVED, UNMOVED_TAIL

from .change import Context, code, where

# What a step that moves axes and then reshapes does, in the student's terms (the reference's
# helper -> the sentence's subject and why the order matters): said without quoting the step.
REORDERED_STEPS = {
    "merge_heads": MERGED_UNMOVED,  # said from the values where the student moves axes
}


def _reshaped(context: Context, node: ast.AST) -> bool:
    """Whether `node` is what a `.reshape(...)` of the same step reads."""
    return any(isinstance(n, ast.Attribute) and n.attr == "reshape" and n.value is node
               for n in ast.walk(context.instance.node))


def untransposed(context: Context, node: ast.Call) -> str:
    """The sentence of a transpose removed: where the step reshapes what it moved, what the
    code then does (a reshape alone reads the entries in another order), not the lecture's
    step quoted as if the student had written it (round 49's "`x.swapaxes(-2, -3)` is used
    without its transpose" of a bare `reshape(-1, d)`)."""
    if not _reshaped(context, node):
        return (f"In {where(context)}, `{code(node)}` is used without its transpose: "
                f"`{code(node.func.value)}` as it is.")
    said = REORDERED_STEPS.get(context.instance.name)
    if said:
        return f"In `{context.root}`, {said}{UNMOVED_TAIL}"
    return (f"In `{context.root}`, `{code(node.func.value)}` is reshaped as it is, without "
            f"moving its axes first as `{code(node)}` does: a reshape alone does not move axes, "
            "so the entries land in other places.")
