"""A binary operator of the reference's code written as one a student confuses it with (issue
38; blind round 74's b74_15, a port of a ViT's `Patcher.py`: `assert height & patch_size == 0`
for the remainder test).

- `%` as `&`, bitwise and (the operator beside it, or the `x & 1` odd test carried over to any
  divisor): `H & P` keeps the bits H and P share, 0 or not whatever the remainder is; for P a
  power of two it reads one bit of H, so a remainder test written so is right for 224 with 16,
  refuses 48 with 16 (a multiple, with an odd quotient) and lets 20 with 8 through;
- `%` as `//`, floor division (the quotient tested where the remainder is meant): not 0 for
  every side at least P.

Python binds `&` before `==` and `!=` (C binds it after), so the student's `H & P == 0` is
`(H & P) == 0`: a rewrite keeps the reference's own tree and changes one operator, its `if side
% P:` read as `if side & P:`, which is that test; its quote is `ast.unparse`'s, brackets where
Python needs them.

`confusions(node)` lists the rewrites of one node; `confused` is the search's operator on the
tree's own code (the shipped reference's tree has no `%` today: its remainders are in the
validation helpers the tree never descends into, a course's own reference may have some);
`helper_rewrites(function)` confuses each operator of such a helper's code (`check_tiling`)
one place at a time, compiled, for tiling.py's test variants, which checks/kinds/refusals.py
names on the probe sizes; `spelled` quotes a rewritten place as its caller passes its sizes.

`//` and `/` are not confused here: the tree's `//` are counts and a grid's sides, whose float
readings counts.py (a float count), tiling.true_division and numpy's own TypeError (a float
in a reshape) already name, and each place would be one more single for every failed check
(vit_forward's search tries 712 of MAX_REWRITES' 720).

An operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .change import EFFECT, Change, Context, code, where
from .tree import Edit, Site, build, compile_with, nodes

# the reference's operator -> (its words, and each (detail, operator, words) it is confused with)
CONFUSED = {
    ast.Mod: ("the remainder", (
        ("remainder-as-bitwise-and", ast.BitAnd, "bitwise and"),
        ("remainder-as-floor-division", ast.FloorDiv, "floor division: the quotient"))),
}


def with_op(node: ast.BinOp, op: type) -> ast.BinOp:
    """`node` with its operator `op` (its operands shared)."""
    new = copy.copy(node)
    new.op = op()
    return new


def confusions(node: ast.AST) -> Iterator[tuple[str, ast.BinOp, type, str]]:
    """(detail, the rewritten node, its operator, that operator's words) for each operator a
    student confuses `node`'s with; none for any other node."""
    if not isinstance(node, ast.BinOp) or type(node.op) not in CONFUSED:
        return
    for detail, op, words in CONFUSED[type(node.op)][1]:
        yield detail, with_op(node, op), op, words


SYMBOLS = {ast.Mod: "%", ast.BitAnd: "&", ast.FloorDiv: "//"}


def quote(node: ast.AST) -> str:
    """`node` as code, each operand of a CONFUSED place or its rewrite in brackets where it is an
    expression of operators itself: `(i + 1) & n`, not `ast.unparse`'s `i + 1 & n`, which
    Python reads so but a reader may not."""
    if not (isinstance(node, ast.BinOp) and type(node.op) in SYMBOLS):
        return code(node)
    sides = [f"({code(side)})" if isinstance(side, (ast.BinOp, ast.BoolOp, ast.Compare,
                                                    ast.UnaryOp, ast.IfExp)) else code(side)
             for side in (node.left, node.right)]
    return f"{sides[0]} {SYMBOLS[type(node.op)]} {sides[1]}"


def old_words(node: ast.BinOp) -> str:
    """What the reference's operator computes, in words ("the remainder")."""
    return CONFUSED[type(node.op)][0]


def confused(context: Context, node: ast.AST) -> Iterator[Change]:
    """A binary operator of the function's own code confused with another (CONFUSED)."""
    for detail, new, op, words in confusions(node):
        yield Change(detail,
                     f"In {where(context)}, {EFFECT}`{quote(new)}` ({words}) is computed where "
                     f"the model solution takes {old_words(node)}, `{quote(node)}`.",
                     lambda n, op=op: with_op(n, op))


@dataclass(frozen=True)
class Rewrite:
    """One operator of a helper's code confused: the helper compiled so, and where."""
    detail: str                 # "remainder-as-bitwise-and" (".2" from the second place)
    function: Callable          # the helper with that one operator changed
    node: ast.BinOp             # the place as the helper writes it: `side % P`
    new: ast.BinOp              # as confused: `side & P`
    words: str                  # the new operator's words: "bitwise and"


def _in_messages(function: ast.FunctionDef) -> set[int]:
    """The ids of the nodes inside an f-string of `function` (a message's `{side % P}`: what
    it computes is no test)."""
    return {id(n) for s in ast.walk(function) if isinstance(s, ast.JoinedStr)
            for n in ast.walk(s)}


@functools.lru_cache(maxsize=32)
def _helper(function: Callable):
    """`function`'s instance alone (a validation helper's: `check_tiling`), built once: its
    places are found, rewritten and quoted on the one tree."""
    return build(function)


@functools.lru_cache(maxsize=32)
def helper_rewrites(function: Callable) -> tuple[Rewrite, ...]:
    """Each operator of `function`'s own code (a validation helper the tree leaves whole:
    `check_tiling`) confused as CONFUSED says, one place at a time, compiled; once per
    process."""
    root = _helper(function)
    if root is None:
        return ()
    skipped, found, seen = _in_messages(root.node), [], {}
    for index, (node, _, _, _) in enumerate(nodes(root.node)):
        if id(node) in skipped:
            continue
        for detail, new, op, words in confusions(node):
            seen[detail] = seen.get(detail, 0) + 1
            numbered = detail if seen[detail] == 1 else f"{detail}.{seen[detail]}"
            edit = Edit("confused", Site(root.path, index), numbered, "",
                        lambda n, op=op: with_op(n, op))
            found.append(Rewrite(numbered, compile_with(root, [edit]), node, new, words))
    return tuple(found)


class _Substituted(ast.NodeTransformer):
    """Every read of a name in `values` replaced by a copy of its value, all at once."""

    def __init__(self, values: dict[str, ast.AST]):
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.AST:
        value = self.values.get(node.id)
        return copy.deepcopy(value) if value is not None and isinstance(
            node.ctx, ast.Load) else node


def spelled(function: Callable, node: ast.AST, call: ast.Call | None = None) -> list[str]:
    """`node`, a place of `function`'s code, quoted once per value a loop around it gives a name
    it reads (`for side in (H, W): ... side % P`: `H % P`, `W % P`), the function's parameters
    as `call` passes them (its arguments' code); as it is where neither applies. `node` is a
    place of `helper_rewrites`' tree, or a rewrite of one (its operands are that tree's)."""
    tree = _helper(function)
    operands = {id(part) for part in (getattr(node, "left", node), getattr(node, "right", node))}
    forms = [node]
    for loop in ([] if tree is None else ast.walk(tree.node)):
        if (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)
                and isinstance(loop.iter, (ast.Tuple, ast.List))
                and any(id(n) in operands for n in ast.walk(loop))):
            forms = [_Substituted({loop.target.id: value}).visit(copy.deepcopy(form))
                     for form in forms for value in loop.iter.elts]
    if tree is not None and call is not None and not call.keywords:
        given = dict(zip((a.arg for a in tree.node.args.args), call.args, strict=False))
        forms = [_Substituted(given).visit(copy.deepcopy(form)) for form in forms]
    return [quote(form) for form in forms]


OPERATORS = {"confused_operator": confused}
