"""An operator on a pre-LN residual's wiring: `x + f(norm(x))` written `norm(x) + f(x)`, the
normalisation on the residual's side and the branch given the raw stream. Ports that keep the
input under a second name before normalising, `h = x; x = self.attn_norm(x); x = self.attn(x);
x = h + x` (the PaddlePaddle ViT class notes' `Encoder.forward`, timm-style blocks rewritten
without `self.norm1(x)` inline), and mix the two names up read `h = self.attn(h)` for the branch
and add the normalised `x` back: the branch sees the un-normalised tokens, the residual carries
the normalised ones. Only in the checked function's own code, at a sum of a name and a call whose
first argument is a call on that name (a pre-LN residual, as `operators.residual_of_step`
finds it).
Operators as in operators.py.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, callee, code, residual_sides, slug, where


def _swapped(node: ast.BinOp, kept: str, branch: str) -> ast.BinOp:
    """`norm(x) + f(x, ...)` for `x + f(norm(x), ...)` (either side order kept)."""
    new = copy.copy(node)
    call = copy.deepcopy(getattr(node, branch))
    step = call.args[0]
    call.args = [copy.deepcopy(getattr(node, kept)), *call.args[1:]]
    setattr(new, kept, step)
    setattr(new, branch, call)
    return new


def norm_on_stream(context: Context, node: ast.AST) -> Iterator[Change]:
    """The normalisation of a pre-LN branch moved onto the residual: `norm(x) + f(x)`."""
    if "/" in context.instance.path:
        return
    for kept, branch, base, step in residual_sides(node):
        if "norm" in callee(step):
            name = base.id
            yield Change(f"{slug(callee(step))}-on-the-residual",
                         f"In {where(context)}, `{code(node)}` is computed as `{code(step)} + "
                         f"{callee(getattr(node, branch))}({name}, ...)`: the step reads the raw "
                         f"`{name}` and the residual adds back the normalised one (the two names "
                         f"of a port's `h = {name}; {name} = norm({name}); h = f(h); {name} = "
                         f"{name} + h` mixed up), where the lecture gives the step "
                         f"`{code(step)}` and adds `{name}` itself back.",
                         lambda n, kept=kept, branch=branch: _swapped(n, kept, branch))
            return


OPERATORS = {"norm_on_stream": norm_on_stream}
