"""The causal triangle one diagonal off (`operators.OPERATORS`' "diagonal"): `np.tri(T)` (token i
sees 0..i) as `k=-1` (not itself) or `k=1` (one later token too). Its sentence says what that
leaves each query, never the reference's k: a student's mask is their own call, with its own k
(blind round 55, b55_13: "k=-1 instead of k=0" read against the student's own
`np.triu(..., k=0)`, whose fix is k=1); report/offsets.py gives the offset in that call.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

from .change import Change, Context, callee, code, literal, where, with_keyword

# a triangle's k -> what it leaves each query, said without the reference's k: the student's
# call has its own (report/offsets.py gives the offset in it where the submission has one)
DIAGONAL = {("tri", -1): "so the mask also hides the diagonal: each position must see itself",
            ("tri", 1): "so each position also sees the next one, which the mask must hide",
            ("triu", 0): "so the mask also hides the diagonal: each position must see itself",
            ("triu", 2): "so each position also sees the next one, which the mask must hide"}


def diagonal(context: Context, node: ast.AST) -> Iterator[Change]:
    """A triangle one diagonal off, as `np.triu(..., k=0)` for the hidden `k=1` writes it."""
    if not (isinstance(node, ast.Call) and callee(node) in ("tri", "tril", "triu")):
        return
    given = next((k.value for k in node.keywords if k.arg == "k"), None)
    old = 0 if given is None else literal(given)
    if not isinstance(old, int):
        return
    kind = "triu" if callee(node) == "triu" else "tri"
    for new in (old - 1, old + 1):
        sees = {"tri": "the keys of each query end",
                "triu": "the hidden keys of each query start"}[kind]
        then = DIAGONAL.get((kind, new))
        yield Change(f"{callee(node)}.k={new}",
                     f"In {where(context)}, `{code(node)}` is one diagonal off: {sees} one "
                     f"{'earlier' if new < old else 'later'}{', ' + then if then else ''}.",
                     lambda n, new=new: with_keyword(n, "k", ast.Constant(new)))
