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

from .change import Change, Context, code, is_result, where


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
                 f"`{code(node.left.left)}` is returned as it is, where the lecture's "
                 f"`{code(node)}` multiplies it by `{scale}` and adds `{shift}` (a "
                 "normaliser without its elementwise affine, as torch's "
                 "`elementwise_affine=False` makes it). Finish with "
                 f"`* {scale} + {shift}`.",
                 lambda n: n.left.left)


OPERATORS = {"affine_dropped": affine_dropped}  # tried after masks.OPERATORS
