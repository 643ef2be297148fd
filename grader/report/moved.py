"""A linear step left out of one function that the student's code makes in a caller instead.

A port of code whose attention module has no output projection applies it in the block that
calls the attention (lukemelas' PyTorch-Pretrained-ViT: `Block.proj`; blind round 59's b59_02,
`h = self_attention(...)` then `h = h @ p["Wo"] + p["bo"]` in `encoder_block`). The error model
names what the checked function alone leaves out ("In `self_attention`, the output projection
(`... @ p['Wo'] + p['bo']`) is left out: ..."), and the student, told to add it, would apply it
twice. So, where a hint names such a step and exactly one statement of another function of the
submission applies that very map (`@ W + b`, compared on tokens as quotes.py compares) to what
the named function returns (a call of it in the statement, or a name an earlier statement of
that function bound from such a call), the hint says that statement too, the student's own line:
move it. Nothing here runs student code.
"""
from __future__ import annotations

import ast
import re

from .quotes import PLACED, Code, Source

# the error model's sentence of a linear step left out (error_model/change.step_named)
_LEFT_OUT = re.compile(r"\(`\.\.\. @ (?P<map>[^`]+ \+ [^`]+)`\) is left out: [^.]*\.")
_LONGEST = 80  # characters of the student's statement quoted at most


def moved(hint: str | None, source: Source | None) -> str | None:
    """`hint` with, after each linear step it says is left out of a function, the one statement
    of the student's code that applies that step to the function's result elsewhere (the
    module's docstring); as it is otherwise."""
    if not hint or source is None or " is left out: " not in hint:
        return hint
    out, at = [], 0
    for match in _LEFT_OUT.finditer(hint):
        places = PLACED.findall(hint, at, match.start())
        said = (_applied_elsewhere(source, places[-1], "@ " + match.group("map"))
                if places else None)
        out.append(hint[at:match.end()])
        if said is not None:
            out.append(said)
        at = match.end()
    return "".join(out) + hint[at:]


def _applied_elsewhere(source: Source, function: str, step: str) -> str | None:
    found = [(node.name, chunk, s) for chunk, node in source.definitions()
             if node.name != function for s in _applying(node, function, step, chunk)]
    if len(found) != 1:  # none, or several: which one is meant is not known
        return None
    caller, chunk, statement = found[0]
    text = " ".join((ast.get_source_segment(chunk, statement) or "").split())
    if not text or len(text) > _LONGEST:
        return None
    line = f"line {statement.lineno}: " if len(source.chunks) == 1 else ""
    return (f" Your `{caller}` applies it to what `{function}` returns ({line}`{text}`): move "
            f"it into `{function}`, which is checked on its own (added there and kept here, it "
            f"would be applied twice).")


def _applying(caller: ast.FunctionDef, function: str, step: str, chunk: str) -> list[ast.stmt]:
    """The simple statements of `caller`'s body (in order, not nested) that apply `step` to what
    `function` returns."""
    bound: set[str] = set()  # names bound from a call of `function`
    found = []
    for statement in caller.body:
        if not isinstance(statement, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Return
                          | ast.Expr) or statement.value is None:
            continue
        value = statement.value
        calls = _calls(value, function)
        reads = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)} & bound
        if any(_calls(n.left.left, function) or {m.id for m in ast.walk(n.left.left)
                                                   if isinstance(m, ast.Name)} & bound
               for n in ast.walk(value)
               if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add)
               and isinstance(n.left, ast.BinOp) and isinstance(n.left.op, ast.MatMult)
               and Code(ast.get_source_segment(chunk, n) or "").holds(step)):
            found.append(statement)  # `<its result> @ W + b`
        targets = (statement.targets if isinstance(statement, ast.Assign)
                   else [getattr(statement, "target", None)])
        names = {t.id for t in targets if isinstance(t, ast.Name)}
        bound = (bound | names) if calls or reads else bound - names
    return found


def _calls(node: ast.AST, function: str) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == function
               for n in ast.walk(node))
