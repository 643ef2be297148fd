"""A sublayer that normalises its own input first: `x = layer_norm(x, 1, 0)` at the start of a
function whose input goes only into its projections (the attention's q, k, v, the MLP's first
layer), the lecture's LayerNorm with unit gain, no shift and its eps over the last axis. Newer
lucidrains vit-pytorch puts the norm inside `Attention` and `FeedForward` (`self.norm =
nn.LayerNorm(dim)`, then `x = self.norm(x)`), and a port keeps it there, where the lecture's
block applies its own LayerNorm (with its gain and shift) before the call: the input is
normalised twice (blind round 76's b76_08). The port's eps may be torch's 1e-5: each of
`operators.EPSILONS` is tried, the lecture's first, and the sentence states none.

Which functions: the checked function or a helper it calls itself (`near_checked`), whose first
parameter is read only as a projection's input (`linear(x, p['Wq'], p['bq'])`, a helper that
returns `x @ W + b`, or `x @ p['W']` written out) or for its shape, and never rebound: a norm in
front of such a function is a norm in front of its projections. A function that adds its input
back (a block's residual), normalises it itself, or reshapes it has other steps a norm would
change, and is left out. An operator as in operators.py (`f(context, node) -> iterator of
Change`).
"""
from __future__ import annotations

import ast
import functools
import inspect
from collections.abc import Callable, Iterator

from ..layers import layer_norm
from .change import Change, Context, code, key_of, near_checked, prepended, step_named, where
from .norms import moments
from .operators import EPSILONS
from .projections import affine_call
from .tree import PREFIX, Instance, nodes, own_function, source

SHAPE_READS = ("shape", "ndim", "dtype")  # reads a norm over the last axis leaves as they are
VIT_PYTORCH = ("a LayerNorm with no gain or shift, as newer lucidrains vit-pytorch puts one "
               "inside its Attention and FeedForward")


def _projects(instance: Instance, call: ast.AST, read: ast.Name) -> bool:
    """Whether `call` is a projection of the name `read`: an affine helper's call given it
    first (`linear(x, p['Wq'], p['bq'])`)."""
    return affine_call(instance, call) and call.args[0] is read


def projected_only(instance: Instance, name: str) -> bool:
    """Whether the instance's function reads `name` only as a projection's input or for its
    shape, at least once as a projection's, and never rebinds it."""
    projected = False
    for node, parent, _, _ in nodes(instance.node):
        if not (isinstance(node, ast.Name) and node.id == name):
            continue
        if not isinstance(node.ctx, ast.Load):
            return False
        if isinstance(parent, ast.Attribute) and parent.attr in SHAPE_READS:
            continue
        if _projects(instance, parent, node) or (
                isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.MatMult)
                and parent.left is node and key_of(parent.right) is not None):
            projected = True
            continue
        return False
    return projected


def sublayer(instance: Instance) -> bool:
    """Whether the instance's function takes its input (its first parameter) only into its
    projections (`projected_only`): a norm in front of it is this module's edit."""
    arguments = instance.node.args.args
    return bool(arguments) and projected_only(instance, arguments[0].arg)


def _normalises(function: Callable | None) -> bool:
    """Whether `function` is a LayerNorm: its own mean and variance over the last axis."""
    node = source(function) if function is not None else None
    return node is not None and len(moments(node)) >= 2


def _normed_argument(call: ast.Call, scope: Callable) -> ast.AST | None:
    """The first argument of `call` when it is a call of a LayerNorm `scope` can see."""
    first = call.args[0] if call.args else None
    if not (isinstance(first, ast.Call) and isinstance(first.func, ast.Name)):
        return None
    found = own_function(scope.__globals__.get(first.func.id), scope.__module__)
    return first if _normalises(found) else None


@functools.lru_cache(maxsize=64)
def normed_callers(function: Callable) -> tuple[tuple[str, str], ...]:
    """(caller, the normalised argument it passes) of each reference function that calls
    `function` with its input normalised first (`encoder_block`, `layer_norm(x, p['ln1_g'],
    p['ln1_b'], eps)`): the student API's functions and the function's own module's."""
    from grader.reference import REFERENCE  # the student API's own functions

    name, found = function.__name__, []
    candidates = {id(f): f for f in (*REFERENCE.values(), *function.__globals__.values())
                  if own_function(f, function.__module__) is not None and f is not function}
    for caller in candidates.values():
        if caller.__globals__.get(name) is not function:
            continue
        for node in ast.walk(source(caller) or ast.Pass()):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == name):
                normed = _normed_argument(node, caller)
                if normed is not None:
                    found.append((caller.__name__, code(normed)))
    return tuple(found)


def _sentence(context: Context, name: str) -> str:
    """What the student reads: their function normalises its input first, where the model
    solution's caller has normalised it already (quoted where the reference's code shows it)."""
    instance = context.instance
    if "/" not in instance.path:
        callers = normed_callers(instance.function)
        said = "" if not callers else (
            f"; its caller normalises it already (`{callers[0][0]}` passes it the model "
            f"solution's `{callers[0][1]}`), so in a block the input is normalised twice")
        return (f"In {where(context)}, its input `{name}` is normalised first, before anything "
                f"else ({VIT_PYTORCH}): the model solution's `{instance.name}` uses `{name}` as "
                f"it is given{said}.")
    call = ast.parse(instance.call, mode="eval").body
    step, _ = step_named(instance.name, call)
    normed = _normed_argument(call, context.function) if context.function else None
    said = "" if normed is None else (
        f": it is given `{code(normed)}`, normalised already, so it is normalised twice")
    again = "" if normed is None else " again"
    return (f"In {where(context)}, {step} normalises its input{again} first, before anything "
            f"else ({VIT_PYTORCH}){said}; the model solution's step uses its input as it is "
            "given.")


def _epsilons() -> list[float]:
    """The eps values tried: the lecture's LayerNorm's own default first (a port's norm may be
    torch's, 1e-5, or another library's: `operators.EPSILONS`). Tried as one edit each, at one
    place, `eps=` details, which the search says the first way where the calls cannot tell them
    apart (aliases.py); the sentence states no eps."""
    lecture = inspect.signature(layer_norm).parameters["eps"].default
    return [lecture, *(eps for eps in EPSILONS if eps != lecture)]


def input_normalised(context: Context, node: ast.AST) -> Iterator[Change]:
    """The function's input normalised first, `x = layer_norm(x, 1.0, 0.0, eps)`: a sublayer
    whose input goes only into its projections (`projected_only`)."""
    instance = context.instance
    if not (isinstance(node, ast.FunctionDef) and node is instance.node
            and near_checked(context) and sublayer(instance)):
        return
    name = node.args.args[0].arg
    bound, sentence = f"{PREFIX}plain_layer_norm", _sentence(context, name)
    for eps in _epsilons():
        first = ast.parse(f"{name} = {bound}({name}, 1.0, 0.0, {eps!r})").body[0]
        yield Change(f"eps={eps:g}", sentence, lambda n, first=first: prepended(n, first),
                     ((bound, layer_norm),))


OPERATORS = {"input_normalised": input_normalised}  # tried after confused_ops.OPERATORS
