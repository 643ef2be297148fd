"""Two arguments of a model solution's step given the other way round, said in the student's terms
where their code has no such step.

The error model says a swap of two of a step's arguments through the reference's call: "In
`self_attention`, `attention(q, k, v, mask)` is given `k` and `q` the other way round:
`attention(k, q, v, mask)`" (error_model/order.arguments_swapped), and quotes.attributed makes
the call "the model solution's `attention(q, k, v, mask)`". Where the student's function (with
the submission's helpers it calls) calls a function of that name, the sentence is theirs and
stays. Where it calls none, it read as if their code called the model solution's helper: blind
round 75's b75_12 computes each head's scores as `k @ q.T` in a `single_head_attention` of its
own. So, before the quotes are attributed (spelled.finished), such a sentence is said by what
the values show, with no call of theirs named:

- queries and keys swapped in `attention`: the scores are K Q^T where Q K^T belongs, with the
  student's line that computes them where exactly one statement of the function and its helpers
  multiplies by a transposed array and none calls einsum or tensordot (the scores' line for
  sure), else no line;
- any other swap: the values are those of the model solution's step given the two the other way
  round, said as the model solution's step.

Nothing here runs student code; without a source the sentence stays as it is.
"""
from __future__ import annotations

import ast
import re
import textwrap

from .helper_place import value_statements
from .quotes import Source
from .steps import shown
from .syntax import called_name

SAID = re.compile(r"In `(?P<function>[^\W\d]\w*)`(?P<place> \([^()]*(?:\([^()]*\)[^()]*)*\))?, "
                  r"`(?P<call>(?P<callee>[^\W\d]\w*)\([^`]*\))` is given `(?P<b>\w+)` and "
                  r"`(?P<a>\w+)` the other way round: `(?P<swapped>[^`]+)`\.")
TRANSPOSES = frozenset({"T", "mT", "transpose", "swapaxes", "moveaxis", "permute_dims",
                        "matrix_transpose"})
PRODUCTS = frozenset({"matmul", "dot"})
CONTRACTIONS = frozenset({"einsum", "tensordot", "inner"})  # a product the test cannot read


def swapped_arguments(hint: str | None, source: Source | None) -> str | None:
    """`hint` with each swap of a step's arguments said in the student's terms where the
    function it places calls no function of the step's name (the module's docstring)."""
    if not hint or source is None or "the other way round: `" not in hint:
        return hint
    return SAID.sub(lambda m: _said(m, source), hint)


def _said(match: re.Match, source: Source) -> str:
    function, callee = match.group("function"), match.group("callee")
    if source.function_text(function) is None or source.holds(f"{callee}(", function):
        return match.group()  # theirs (or not known): the sentence as it is
    a, b, place = match.group("a"), match.group("b"), match.group("place") or ""
    if callee == "attention" and (a, b) == ("q", "k"):
        line = scores_line(source, function)
        at = f" (at your line `{line[1]}`{_in(line[0], function)})" if line else ""
        return (f"In `{function}`{place}, the attention scores are computed as K Q^T, the keys "
                f"times the transposed queries{at}, where Q K^T belongs: entry (i, j) pairs key "
                f"i with query j, where it should pair query i with key j.")
    return (f"In `{function}`{place}, `{a}` and `{b}` play each other's part: the values are "
            f"those of the model solution's step `{match.group('call')}` given them the other "
            f"way round, `{match.group('swapped')}`.")


def _in(helper: str, function: str) -> str:
    return "" if helper == function else f" in your `{helper}`"


def scores_line(source: Source, function: str) -> tuple[str, str] | None:
    """(the function, the statement) of the one statement of `function` and of the
    submission's helpers it calls that multiplies by a transposed array (`k @ q.T`,
    `np.matmul(k, np.swapaxes(q, -1, -2))`), where none of them calls einsum or tensordot;
    else None."""
    found = []
    for name in source.called(function):
        text = textwrap.dedent(source.function_text(name) or "")
        try:
            tree = ast.parse(text)
        except Exception:  # noqa: BLE001 - hostile text: SyntaxError, ValueError, RecursionError
            return None
        if any(_callee(n) in CONTRACTIONS for n in ast.walk(tree)):
            return None
        helper = tree.body[0] if tree.body else None
        if not isinstance(helper, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in value_statements(helper):
            if any(_transposed_product(n) for n in ast.walk(node.value)):
                found.append((name, shown(text, node)))
    return found[0] if len(found) == 1 else None


def _callee(node: ast.AST) -> str | None:
    if not isinstance(node, ast.Call):
        return None
    return called_name(node.func)


def _transposed(node: ast.AST) -> bool:
    """Whether `node` is an array transposed: `q.T`, `q.transpose(...)`, `np.swapaxes(q, ...)`."""
    if isinstance(node, ast.Attribute) and node.attr in ("T", "mT"):
        return True
    return _callee(node) in TRANSPOSES


def _transposed_product(node: ast.AST) -> bool:
    """Whether `node` multiplies two arrays, one of them transposed (`a @ b.T`, `np.matmul(a,
    b.T)`, `a.dot(b.T)`)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        operands = [node.left, node.right]
    elif _callee(node) in PRODUCTS:
        operands = [*node.args, *([node.func.value] if isinstance(node.func, ast.Attribute)
                                  and len(node.args) == 1 else [])]
    else:
        return False
    return any(_transposed(o) for o in operands)
