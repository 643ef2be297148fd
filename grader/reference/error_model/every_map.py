"""Every linear map of a function followed by one activation that is not GELU, as one rewrite.

A Keras port builds its MLP as a loop of `Dense(units, activation=act)` layers (the Keras ViT
example's `mlp()`, shakes76/PatternFlow's with `activation=tanh`): the activation follows the
second linear map too, and it is often another one, `tanh(tanh(h @ W1 + b1) @ W2 + b2)`.
`operators.activation` swaps the activation at its one call, and `operators.activation_added`
puts the function's own activation (GELU) after another step; as a pair the two give
`gelu(tanh(...) @ W2 + b2)`, never tanh twice. `activation_every_map` is that port as one edit,
at the function's definition: each activation call `act(helper(...))` computes the new
activation, and every other call of that same helper (the MLP's second `linear`) goes through
it as well. The accepted GELUs (exact, tanh) and "no activation" are left out: the first two
after both maps are `activation_added`'s, none after either is `activation`'s `identity`.
Only in the checked function or a helper it calls itself (`change.near_checked`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .activations import ACTIVATIONS
from .change import Change, Context, callee, code, near_checked, where, whose
from .operators import ACTIVATION_CALLS
from .tree import PREFIX

OPERATOR = "activation_every_map"
SKIPPED = frozenset({"gelu", "gelu_tanh", "identity"})  # said by activation(_added) already


def _activated_helpers(context: Context) -> tuple[list[ast.Call], set[str]]:
    """(the activation calls `act(helper(...))` of the instance, the bound names of every call
    of those helpers' functions: `__em_linear` and `__em_linear_2` for the MLP)."""
    node, children = context.instance.node, context.instance.children
    activations = [n for n in ast.walk(node) if isinstance(n, ast.Call)
                   and isinstance(n.func, ast.Name) and n.func.id in ACTIVATION_CALLS
                   and len(n.args) == 1 and isinstance(n.args[0], ast.Call)
                   and isinstance(n.args[0].func, ast.Name) and n.args[0].func.id in children]
    functions = {children[a.args[0].func.id].function for a in activations}
    return activations, {bound for bound, child in children.items() if child.function in functions}


class _EveryMap(ast.NodeTransformer):
    """Each activation call computing `bound` instead, and each other call of `helpers` wrapped
    in `bound`; `wrapped` lists the wrapped calls."""

    def __init__(self, helpers: set[str], bound: str):
        self.helpers, self.bound, self.wrapped, self.swapped = helpers, bound, [], 0

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if (isinstance(node.func, ast.Name) and node.func.id in ACTIVATION_CALLS
                and len(node.args) == 1 and isinstance(node.args[0], ast.Call)
                and getattr(node.args[0].func, "id", None) in self.helpers):
            self.swapped += 1
            inner = copy.copy(node.args[0])
            inner.args = [self.visit(a) for a in inner.args]
            return ast.Call(ast.Name(self.bound, ast.Load()), [inner], [])
        node = self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in self.helpers:
            self.wrapped.append(node)
            return ast.Call(ast.Name(self.bound, ast.Load()), [node], [])
        return node


def _rewritten(function: ast.FunctionDef, helpers: set[str], bound: str) -> ast.AST | None:
    """`function` with every map followed by `bound`; None when a pair's other edit took away
    the activation or the other maps (the two do not compose)."""
    every = _EveryMap(helpers, bound)
    new = every.visit(copy.deepcopy(function))
    return new if every.swapped and every.wrapped else None


def activation_every_map(context: Context, node: ast.AST) -> Iterator[Change]:
    """Every linear map followed by one activation other than GELU, the last map too."""
    if not (isinstance(node, ast.FunctionDef) and node is context.instance.node
            and near_checked(context)):
        return
    activations, helpers = _activated_helpers(context)
    others = [n for n in ast.walk(node) if isinstance(n, ast.Call)
              and isinstance(n.func, ast.Name) and n.func.id in helpers
              and not any(n is a.args[0] for a in activations)]
    if not activations or not others:
        return
    first = activations[0].args[0]
    step = callee(first)
    shown = " and ".join(f"`{code(call)}`" for call in others)
    for name, (words, function) in ACTIVATIONS.items():
        if name in SKIPPED:
            continue
        bound = f"{PREFIX}every_{name}"
        yield Change(f"act={name}-after-every-map",
                     f"In {where(context)}, every `{step}` step is followed by {words}: {shown} "
                     f"as well as `{code(first)}` (as Keras `Dense` layers each built with "
                     f"that activation), where {whose(context)} activation is GELU (exact, "
                     "x * Phi(x); its tanh approximation is accepted), after the first "
                     f"`{step}` only, and nothing follows the last.",
                     lambda n, bound=bound: _rewritten(n, helpers, bound),
                     ((bound, function),))


OPERATORS = {OPERATOR: activation_every_map}
