"""A step given the parameters of the step of the same kind just after it: `layer_norm(x,
p['ln1_g'], p['ln1_b'])` given ln2's gain and shift, `linear(x, p['Wq'], p['bq'])` given the
keys' (issue 38's "a parameter used in place of another"). names.py's `step_parameters` reads
the step before it (a line copied down and not edited); this is the same slip the other way (a
line copied up, or one norm module kept for both and named after the second), told from where
it applied: which step, whose parameters, its own.

Applies where names.py's does: a call whose parameters are read from one dict (`p[...]`, two
keys or more), and a later call of the same function in the same function, with as many keys,
each one character apart from this call's at one common position (`ln1_g`/`ln2_g`,
`ln1_b`/`ln2_b`; `change.one_apart`: never a weight for a bias).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import (
    Change,
    Context,
    callee,
    code,
    key_of,
    key_position,
    slug,
    step_keys,
    step_named,
    steps_like,
    where,
)


def _owner(node: ast.Call) -> str | None:
    """The one dict the call's keyed arguments are read from (`p`), else None."""
    owners = {code(a.value) for a in node.args if key_of(a) is not None}
    return owners.pop() if len(owners) == 1 else None


def _with_keys(node: ast.Call, keys: list[str]) -> ast.Call:
    """The call with its keyed arguments reading `keys`, in order."""
    new, given = copy.copy(node), iter(keys)
    new.args = [ast.Subscript(a.value, ast.Constant(next(given)), ast.Load())
                if key_of(a) is not None else a for a in node.args]
    return new


def later_step_parameters(context: Context, node: ast.AST) -> Iterator[Change]:
    """The step given every parameter of the step of its kind just after it."""
    read = step_keys(node)
    owner = _owner(node) if len(read) >= 2 else None
    if owner is None:
        return
    steps = [n for n in steps_like(context, node) if _owner(n) == owner]
    later = steps[steps.index(node) + 1:] if node in steps else []
    if not later:
        return
    later, theirs = later[0], step_keys(later[0])
    if key_position(read, theirs) is None:
        return
    step, _ = step_named(callee(node), node)
    shown = ", ".join(f"`{owner}[{k!r}]`" for k in theirs)
    own = ", ".join(f"`{owner}[{k!r}]`" for k in read)
    yield Change(f"{read[0]}-as-{theirs[0]}-in-{slug(callee(node))}",
                 f"In {where(context)}, {step} is given {shown}, the parameters of the next "
                 f"step of its kind, `{code(later)}`, where its own belong ({own}).",
                 lambda n, theirs=theirs: _with_keys(n, theirs))


OPERATORS = {"later_step_parameters": later_step_parameters}
