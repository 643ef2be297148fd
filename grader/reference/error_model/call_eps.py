"""A small constant given to ONE call of a helper changed at that call only: a block's second
LayerNorm left at Keras' default epsilon (`layers.LayerNormalization()`, 1e-3) where its first
says 1e-6 (blind round 66's b66_05). `operators.constant` changes a literal a call writes, or a
default it leaves (in that call's own instance of the helper, tree.py), and
`names.parameter_default` an eps fixed for the whole function; here the helper's parameter with
a small float default (an epsilon) is given each of `operators.EPSILONS` at one call that passes
it by a name (the block's own `eps`). The sentence says which call (the second LayerNorm, by the
parameters it is given) and the value, which constants.py then says only as far as the calls
tell it. An operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, literal, step_named, where, whose
from .operators import EPS_STATED, EPSILONS
from .tree import PREFIX

LARGEST = 1e-2  # a default above this is no epsilon
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def _defaults(function: ast.FunctionDef) -> list[tuple[str, int | None, object]]:
    """(name, positional index or None, default value) of each parameter with a literal
    default, positional then keyword-only."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    out = [(a.arg, positional.index(a), literal(d)) for a, d in zip(
        positional[len(positional) - len(arguments.defaults):], arguments.defaults, strict=True)]
    out += [(a.arg, None, literal(d)) for a, d in zip(
        arguments.kwonlyargs, arguments.kw_defaults, strict=True) if d is not None]
    return out


def _epsilon(value) -> bool:
    return type(value) is float and 0 < value <= LARGEST


def _given(node: ast.Call, name: str, index: int | None) -> tuple[ast.AST | None, bool]:
    """(what the call passes for the parameter, or None: its default; whether the call passes
    anything the parameter could be: a `*args`/`**kwargs` call is left alone)."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(
            k.arg is None for k in node.keywords):
        return None, False
    for key in node.keywords:
        if key.arg == name:
            return key.value, True
    if index is not None and index < len(node.args):
        return node.args[index], True
    return None, True


def _used(function: ast.FunctionDef, name: str) -> bool:
    """Whether `function`'s own steps read the parameter `name`, not only pass it on to a
    helper's call (a block's `eps`, which its LayerNorms use: told at those calls)."""
    passed = {id(a) for c in ast.walk(function) if isinstance(c, ast.Call)
              and isinstance(c.func, ast.Name) and c.func.id.startswith(PREFIX)
              for a in (*c.args, *(k.value for k in c.keywords))}
    return any(isinstance(n, ast.Name) and n.id == name and id(n) not in passed
               for n in ast.walk(function))


def _value(context: Context, given: ast.AST | None):
    """The value the reference's call gives the parameter where it passes a name (the block's
    `eps`): the caller's own parameter's literal default; None: unknown or not passed (a
    literal is `operators.constant`'s, and so is a default the call leaves: it edits the
    helper's default in that call's own instance, tree.py)."""
    if isinstance(given, ast.Name):
        own = {name: value for name, _, value in _defaults(context.instance.node)}
        return own.get(given.id)
    return None


def _set(node: ast.Call, name: str, index: int | None, new: float) -> ast.Call:
    """`node` with the parameter given `new`, where the call gave it (positionally or by
    keyword), else as a keyword."""
    call = copy.copy(node)
    call.args, call.keywords = list(node.args), [k for k in node.keywords if k.arg != name]
    if index is not None and index < len(node.args):
        call.args[index] = ast.Constant(new)
    else:
        call.keywords.append(ast.keyword(name, ast.Constant(new)))
    return call


def _which(context: Context, node: ast.Call) -> tuple[str, str]:
    """The call's step by the lecture's name and its parameters, with its place among the
    function's calls of the same helper when there are several ("the second LayerNorm (with
    `p['ln2_g']` and `p['ln2_b']`)"; a step the lecture does not name is quoted, no ordinal),
    and " alone" then (the others keep theirs)."""
    child = context.instance.children[node.func.id]
    step, _ = step_named(child.name, node)
    siblings = [c for c in context.instance.children.values() if c.function is child.function]
    at = siblings.index(child)
    if len(siblings) > 1 and at < len(ORDINALS) and step.startswith("the ") and \
            not step.startswith("the model solution's"):  # a course's step: its quote tells
        step = f"the {ORDINALS[at]} {step.removeprefix('the ')}"
    return step, " alone" if len(siblings) > 1 else ""


def call_eps(context: Context, node: ast.AST) -> Iterator[Change]:
    """An epsilon one call of a helper is given, as another of EPSILONS at that call alone:
    a call the checked function makes (its helpers' are told by their own checks), to a helper
    whose own steps use it."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id.startswith(PREFIX) and node.func.id in context.instance.children
            and "/" not in context.instance.path):
        return
    callee = context.instance.children[node.func.id].node
    for name, index, default in _defaults(callee):
        if not _epsilon(default) or not _used(callee, name):
            continue
        given, plain = _given(node, name, index)
        value = _value(context, given) if plain else None
        if not _epsilon(value):
            continue
        which, alone = _which(context, node)
        label = node.func.id.removeprefix(PREFIX)
        for new in (e for e in EPSILONS if e != value):
            yield Change(f"{label}_{name}={new:g}",
                         f"In {where(context)}, at {which}{alone}, {name} is {new:g}; "
                         f"{whose(context, EPS_STATED)} is {value:g} there.",
                         lambda n, name=name, index=index, new=new: _set(n, name, index, new))


OPERATORS = {"call_eps": call_eps}
