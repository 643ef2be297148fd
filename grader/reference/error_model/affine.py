"""An operator on a normaliser's learned scale and shift: both left out at once, the standardised
values returned as they are (`affine_dropped`). Ports of a normaliser written without its
learned parameters do so (torch's `nn.LayerNorm(d, elementwise_affine=False)`, Flax's
`nn.LayerNorm(use_scale=False, use_bias=False)`, a JAX from-scratch decoder's `layer_norm(x,
gamma, beta)` that returns `(x - mean) / jnp.sqrt(var + eps)`, gamma and beta taken but never
read; the "simple layer normalization" of many tutorials). The reference writes the pair as
`x_hat * gamma + beta`; `operators.term` drops either alone, so without this a second mistake in
the same function made the pair a group of three edits, which the search does not build. Only
in the checked function's own return, and only where both are parameters of it without a
default: few sites. An operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

from .change import Change, Context, callee, code, is_result, returned, where


def _required(function: ast.FunctionDef) -> set[str]:
    """The names `function` takes without a default (its positional parameters before them)."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    return {a.arg for a in positional[:len(positional) - len(arguments.defaults)]}


def affine_dropped(context: Context, node: ast.AST) -> Iterator[Change]:
    """`x_hat * gamma + beta` returned as `x_hat`: the scale and the shift, two parameters of
    the checked function, both left out (a normaliser without elementwise affine)."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
            and isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.Mult)
            and isinstance(node.right, ast.Name) and isinstance(node.left.right, ast.Name)
            and is_result(context, node)):
        return
    scale, shift = node.left.right.id, node.right.id
    if scale == shift or not {scale, shift} <= _required(context.instance.node):
        return
    yield Change("affine-dropped",
                 f"In {where(context)}, the learned scale and shift are never applied: "
                 f"`{code(node.left.left)}` is returned as it is, where the model solution's "
                 f"`{code(node)}` multiplies it by `{scale}` and adds `{shift}` (a "
                 "normaliser without its elementwise affine, as torch's "
                 "`elementwise_affine=False` makes it). Finish with "
                 f"`* {scale} + {shift}`.",
                 lambda n: n.left.left)


def _passed(context: Context, call: ast.AST, names: tuple[str, ...]) -> list[str] | None:
    """The arguments the caller's `call` passes for the helper's parameters `names`, as the
    lecture writes them (`params['ln_g']`), or None where one is not passed."""
    if not isinstance(call, ast.Call):
        return None
    function = context.instance.node
    positional = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    given = dict(zip(positional, call.args, strict=False))
    given.update({k.arg: k.value for k in call.keywords if k.arg})
    return None if any(n not in given for n in names) else [code(given[n]) for n in names]


def affine_not_passed(context: Context, node: ast.AST) -> Iterator[Change]:
    """A normaliser the checked function calls (its direct helper, `layer_norm(x, ln_g, ln_b)`)
    used without its learned scale and shift: the caller normalises with a parameterless
    helper of its own, the parameters it was given never read. Ports of a classifier head
    written `layer_norm(cls) @ W_head` with a `layer_norm(x, eps)` that has no gain or bias do
    so (numpy ViT exercises' `classification_head`, torch's `F.layer_norm(x, (d,))` with no
    weight or bias, Flax's `nn.LayerNorm(use_scale=False, use_bias=False)` as a final norm).
    Only at the return of a helper the checked function calls itself, where both are
    parameters of it without a default, and the caller passes both: one site per such call."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
            and context.instance.path.count("/") == 1
            and isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.Mult)
            and isinstance(node.right, ast.Name) and isinstance(node.left.right, ast.Name)
            and id(node) in returned(context.instance.node)):
        return
    scale, shift = node.left.right.id, node.right.id
    if scale == shift or not {scale, shift} <= _required(context.instance.node):
        return
    call = ast.parse(context.instance.call).body[0]
    call = call.value if isinstance(call, ast.Expr) else None
    passed = _passed(context, call, (scale, shift))
    if passed is None:
        return
    yield Change("affine-not-passed",
                 f"In {where(context)}, the normalisation is used without its learned scale "
                 f"and shift: the normalised values go on as they are, where the model solution's "
                 f"multiplies them by `{passed[0]}` and adds `{passed[1]}` (a LayerNorm with "
                 f"no parameters, as torch's `elementwise_affine=False` makes it). Pass them "
                 f"to `{callee(call)}` there, or multiply by `{passed[0]}` and add "
                 f"`{passed[1]}` after your normalisation.",
                 lambda n: n.left.left)


OPERATORS = {"affine_dropped": affine_dropped,  # tried after masks.OPERATORS
             "affine_not_passed": affine_not_passed}
