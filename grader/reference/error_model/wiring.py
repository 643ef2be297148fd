"""An operator on a pre-LN residual's wiring: `x + f(norm(x))` written `norm(x) + f(x)`, the
normalisation on the residual's side and the branch given the raw stream. Ports that keep the
input under a second name before normalising, `h = x; x = self.attn_norm(x); x = self.attn(x);
x = h + x` (the PaddlePaddle ViT class notes' `Encoder.forward`, timm-style blocks rewritten
without `self.norm1(x)` inline), and mix the two names up read `h = self.attn(h)` for the branch
and add the normalised `x` back: the branch sees the un-normalised tokens, the residual carries
the normalised ones. Only in the checked function's own code, at a sum of a name and a call whose
first argument is a call on that name (a pre-LN residual, as `operators.residual_of_step`
finds it).

`norm_parallel`: two pre-LN residuals in a row, `x = x + f(norm1(x))` then `x + g(norm2(x))`,
wired as a "parallel" block that takes both norms of the block's input and adds the second to
the first branch where `x` belongs, `x = norm2(x) + f(norm1(x))`, then `x + g(x)` (a Flax NNX
ViT's TBlock, "order of layernorm based on palm, parallel formulation": `x = attn(ln1(in)); y =
ln2(in); x = x + y; z = ffn(x); z = z + x`): the block's input reaches no residual and the
second branch reads the sum un-normalised.
Operators as in operators.py.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, callee, code, is_checked_function, residual_sides, slug, where


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



def _moved(n: ast.FunctionDef, index: int) -> ast.FunctionDef | None:
    """The block with the second residual's norm taken of the input and added to the first
    branch where the input belongs, the second branch given the raw stream (None where an edit
    below took the two residuals away: the pair does not compose)."""
    new = copy.copy(n)
    first, second = copy.deepcopy(n.body[index]), copy.deepcopy(n.body[index + 1])
    one, two = _normed_residual(first), _normed_residual(second)
    if one is None or two is None or one[0] != two[0]:
        return None
    _, branch_one, _, _ = next(residual_sides(first.value))
    _, branch_two, base, step = next(residual_sides(second.value))
    setattr(first.value, "left" if branch_one == "right" else "right", copy.deepcopy(step))
    call = getattr(second.value, branch_two)
    call.args = [ast.Name(base.id, ast.Load()), *call.args[1:]]
    new.body = [*n.body[:index], first, second, *n.body[index + 2:]]
    return new


def _normed_residual(statement: ast.stmt) -> tuple | None:
    """(name, step) for `n = n + f(norm(n, ...))` or `return n + f(norm(n, ...))`."""
    if not (isinstance(statement, (ast.Assign, ast.Return)) and statement.value is not None):
        return None
    if isinstance(statement, ast.Assign) and not (
            len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name)):
        return None
    for _, _, base, step in residual_sides(statement.value):
        if "norm" in callee(step) and (isinstance(statement, ast.Return)
                                       or statement.targets[0].id == base.id):
            return base.id, step
    return None


def norm_parallel(context: Context, node: ast.AST) -> Iterator[Change]:
    """The second residual's norm taken of the block's input and added where `x` belongs in
    the first residual: `x = norm2(x) + f(norm1(x))`, then `x + g(x)`."""
    if not is_checked_function(context, node):
        return
    for index, (first, second) in enumerate(zip(node.body, node.body[1:], strict=False)):
        one, two = _normed_residual(first), _normed_residual(second)
        if (one is None or two is None or one[0] != two[0] or isinstance(first, ast.Return)
                or code(one[1]) == code(two[1])):
            continue
        (name, step_one), step = one, two[1]
        earlier = callee(getattr(first.value, next(residual_sides(first.value))[1]))
        later = callee(getattr(second.value, next(residual_sides(second.value))[1]))
        yield Change(f"{slug(callee(step))}-of-the-input-on-the-first-residual",
                     f"In {where(context)}, `{code(step)}` is taken of the block's input and "
                     f"added to the output of `{earlier}` where `{name}` belongs, and `{later}` "
                     f"is then given that sum un-normalised, `{name} + {later}({name}, ...)` (a "
                     f"\"parallel\" block's two norms of the input wired into its residuals): "
                     f"the block's input never reaches a residual. The lecture adds `{name}` "
                     f"itself back after each step and normalises inside each: `{name} = {name} "
                     f"+ {earlier}({code(step_one)}, ...)`, then `{name} + "
                     f"{later}({code(step)}, ...)`.",
                     lambda n, index=index: _moved(n, index))


OPERATORS = {"norm_on_stream": norm_on_stream, "norm_parallel": norm_parallel}
