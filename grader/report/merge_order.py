"""The heads merged in another axis order, said from the values where the student's code moves axes.

The error model's rewrite that drops the move before the merging reshape (error_model/reshapes.py)
says "the heads' outputs are merged by a reshape without moving the head axis back first". Its
values are those of the merge without the move; but a student's code that does move axes before
its reshape, from another order, gives the same values: blind round 69's b69_06 stacks the heads
with `np.stack(..., axis=1)`, already (T, heads, d_h), and its `combine_heads` then transposes
them to (heads, T, d_h) before the reshape. Told that a move is missing, the student finds one.
So where the student's function (with the submission's helpers it calls) reshapes something an
axis move made (`.transpose`, `.swapaxes`, `np.moveaxis`, `np.rollaxis`, `.T`, directly or
through a name bound from one), the sentence says what the values show, the order in which the
heads' outputs reach the reshape, and the student's move, not a move left out. Nothing here runs
student code; a source that does not parse leaves the sentence as it is.
"""
from __future__ import annotations

import ast
import re
import textwrap

from .quotes import PLACED, Source

# the error model's words for the heads merged without the move (error_model/reshapes.py)
MERGED_UNMOVED = ("the heads' outputs are merged by a reshape without moving the head axis back "
                  "first: the (heads, T, d_h) array must become (T, heads, d_h) before it is "
                  "reshaped to (T, d), else each row of the result mixes the values of several "
                  "tokens")
UNMOVED_TAIL = " (a reshape alone does not move axes)."
MOVES = frozenset({"transpose", "swapaxes", "moveaxis", "rollaxis", "permute_dims",
                   "matrix_transpose"})
_LONGEST = 60  # characters of the student's move quoted at most


def merge_order(hint: str | None, source: Source | None) -> str | None:
    """`hint` with each "merged ... without moving the head axis back" said from the values
    where the named function's code reshapes what it moved (the module's docstring)."""
    said = MERGED_UNMOVED + UNMOVED_TAIL
    if not hint or source is None or said not in hint:
        return hint
    out, at = [], 0
    for match in re.finditer(re.escape(said), hint):
        places = PLACED.findall(hint, at, match.start())
        moves = moved_then_reshaped(source, places[-1]) if places else None
        out.append(hint[at:match.start()])
        out.append(_from_values(moves) if moves else match.group())
        at = match.end()
    return "".join(out) + hint[at:]


def _from_values(moves: list[tuple[str, str]]) -> str:
    """The sentence from the values; the student's move quoted (and its function, a helper's)
    where there is one."""
    (name, move), = set(moves) if len(set(moves)) == 1 else {("", "")}
    shown = (f" (`{move}`{f' in `{name}`' if name else ''})" if 0 < len(move) <= _LONGEST
             else "")
    return ("the heads' outputs reach the merge in another axis order: the reshape to (T, d) "
            "needs them (T, heads, d_h)-ordered, yours are (heads, T, d_h)-ordered when they are "
            "reshaped, so each row of the result mixes the values of several tokens. Your code "
            f"does move axes before it reshapes{shown}: look at the order the heads' outputs "
            "have before that move (how they are stacked or computed) and at what the move "
            "makes of it.")


def moved_then_reshaped(source: Source, function: str) -> list[tuple[str, str]]:
    """(the def, its code) of each of the student's axis moves whose result `function`'s code,
    or a helper of the submission's it calls, reshapes (the def "" when it is `function`'s
    own); [] when none or when the code does not parse."""
    found = []
    for name in source.called(function):
        text = textwrap.dedent(source.function_text(name) or "")
        try:
            tree = ast.parse(text)
        except SyntaxError:
            return []
        for definition in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
            own = "" if definition.name == function else definition.name
            found += [(own, " ".join((ast.get_source_segment(text, m) or "").split()))
                      for m in _reshaped_moves(definition)]
    return found


def _reshaped_moves(definition: ast.FunctionDef) -> list[ast.AST]:
    """The moves of `definition`'s own statements (not a nested def's) that a reshape reads,
    directly or through a name bound from the move (and not bound again since), in order."""
    bound: dict[str, ast.AST] = {}  # name -> the move it holds now
    found = []
    for statement in (n for s in definition.body for n in _own_nodes(s)
                      if isinstance(n, ast.stmt)):
        for node in _own_nodes(statement):
            read = _reshape_input(node)
            if read is not None and _is_move(read):
                found.append(read)
            elif isinstance(read, ast.Name) and read.id in bound:
                found.append(bound[read.id])
        if isinstance(statement, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = (statement.targets if isinstance(statement, ast.Assign)
                       else [statement.target])
            for name in (n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)):
                bound.pop(name, None)
            if isinstance(statement, ast.Assign) and len(targets) == 1 and \
                    isinstance(targets[0], ast.Name) and _is_move(statement.value):
                bound[targets[0].id] = statement.value
    return found


def _own_nodes(node: ast.AST):
    """`node` and what it holds, a nested function, class or lambda aside."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
        return
    yield node
    for child in ast.iter_child_nodes(node):
        yield from _own_nodes(child)


def _reshape_input(node: ast.AST) -> ast.AST | None:
    """What a reshape reads: `a` of `a.reshape(...)` or `np.reshape(a, ...)`; else None."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) or \
            node.func.attr != "reshape":
        return None
    receiver = node.func.value
    if isinstance(receiver, ast.Name) and receiver.id in ("np", "numpy", "jnp", "torch") and \
            node.args:
        return node.args[0]
    return receiver


def _is_move(node: ast.AST) -> bool:
    """Whether `node` moves axes: `a.transpose(...)`, `np.swapaxes(a, ...)`, `a.T`, ..."""
    if isinstance(node, ast.Attribute) and node.attr in ("T", "mT"):
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
        node.func.attr in MOVES
