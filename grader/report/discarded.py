"""A named mistake that a step is missing, said as the student's own line where the student wrote
that step and threw its result away.

A port of PyTorch code may keep a call whose result is never assigned: PredRNN's
`reshape_patch` writes `a.permute(0, 1, 2, 4, 3, 5, 6)` on a line of its own (blind rounds 42
and 56: `a.transpose(0, 2, 1, 3, 4)`). numpy's `transpose`, `reshape`, `swapaxes`, `astype`,
`flatten` and `ravel` return a new array and change nothing in place, so the code goes on as if
the step were not there, and the error model names exactly that: the reference with the step
removed (`...:grid.transpose-removed`). Telling the student to add the step they already wrote
sends them looking for nothing; the fix is to assign it. So, where a check names such a mistake
(one alone) and the student's function (the one whose check named it) has exactly one bare
expression statement calling that method (`x.transpose(...)`, or `np.transpose(x, ...)`), the
hint says that line instead. A statement whose value is used (assigned, returned, passed on)
is no such line. The source is read as quotes.py reads it, never run.

Which error-model mistake a known-wrong variant is (`patchify_bare_reshape` is the transpose
removed) is read from the exercise's compiled data (compiled.INSTANCES), which the student bundle
has too, so that it and the full grader say the same; only where there is none (not compiled,
stale, or VITGRADE_NO_COMPILED) from the reference, where there is one.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from grader.checks import compiled, compiled_folder
from grader.checks.course import error_model_mistake

from .quotes import Source

NEW_ARRAY = frozenset({"transpose", "reshape", "swapaxes", "astype", "flatten", "ravel"})
NUMPY = ("np", "numpy")  # np.transpose(x, ...): the array is the first argument
_REMOVED = re.compile(r"\.([A-Za-z_]\w*)-removed$")  # operators.transpose's detail
_LONGEST = 80  # characters of the student's call quoted at most
MASKING = frozenset({"where", "masked_fill"})  # calls that return masked scores as a new array
NO_MASK = "no mask reaches the scores"  # a hint's words where the values are the unmasked ones
_QUOTED = re.compile(r"`([^\W\d]\w*)`")  # a quoted name: a function the hint names


def discarded(misconception: str | None, source: Source | None, spec: str | Path | None = None,
              folder: str | None = None) -> str | None:
    """The hint for a named mistake `misconception` that says a step is missing, where the
    student's own function has that step's result thrown away; None elsewhere. `spec`: the spec
    file of the check that named it (its compiled data says which mistake a variant is);
    `folder`: the exercises folder (a course's own variants)."""
    found = (_removed_step(mistake_named(misconception, spec, folder))
             if source is not None and misconception else None)
    if found is None:
        return None
    function, method = found
    statements = [(chunk, node) for chunk, node in _bare_calls(source, function)
                  if _method(node.value) == method]
    if len(statements) != 1:  # none, or several: which one is meant is not known
        return None
    chunk, node = statements[0]
    name = _array(node.value)
    call = " ".join((ast.get_source_segment(chunk, node.value) or "").split())
    if name is None or not call or len(call) > _LONGEST:
        return None
    line = f" on line {node.lineno}" if len(source.chunks) == 1 else ""
    written = f"np.{method}({name}, ...)" if _numpy(node.value) else f"{name}.{method}(...)"
    return (f"In `{function}`, `{call}`{line} returns a new array that is never used, so the "
            f"code after it runs as if it were not there: assign it (`{name} = {written}`).")


def unassigned_mask(hint: str | None, source: Source | None) -> str | None:
    """`hint`, where it says that no mask reaches the scores (NO_MASK: the values are the
    unmasked ones exactly, kinds/exact.py), with the student's own line that builds the masked
    scores and throws them away quoted after it (b66_07's `np.where(mask, -np.inf, scores)` on
    a line of its own, a port of torch's non-in-place `masked_fill`): only where the functions
    the hint names hold exactly one such line; else `hint` as it is."""
    if not hint or NO_MASK not in hint or source is None:
        return hint
    named = dict.fromkeys(m.group(1) for m in _QUOTED.finditer(hint))
    found = [(function, chunk, node) for function in named
             for chunk, node in _bare_calls(source, function) if _masking(node.value)]
    if len(found) != 1:  # none, or several: which one is meant is not known
        return hint
    function, chunk, node = found[0]
    name = _masked(node.value)
    call = " ".join((ast.get_source_segment(chunk, node.value) or "").split())
    if name is None or not call or len(call) > _LONGEST:
        return hint
    line = f" on line {node.lineno}" if len(source.chunks) == 1 else ""
    written = ("np.where(...)" if _numpy(node.value) else f"{name}.masked_fill(...)")
    return (f"{hint} In `{function}`, `{call}`{line} returns the masked scores as a new array "
            f"that is never used: assign it (`{name} = {written}`).")


def _masking(call: ast.Call) -> bool:
    """`np.where(cond, a, b)` or `x.masked_fill(mask, value)`: each returns a new array."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in MASKING:
        return False
    return len(call.args) == 3 and _numpy(call) if func.attr == "where" else len(call.args) == 2


def _masked(call: ast.Call) -> str | None:
    """The name of the scores a masking call fills: the one plain name among `np.where`'s two
    values (the other a fill), the array `masked_fill` is called on; else None."""
    if call.func.attr == "masked_fill":
        held = call.func.value
        return held.id if isinstance(held, ast.Name) else None
    names = [a.id for a in call.args[1:] if isinstance(a, ast.Name)]
    return names[0] if len(names) == 1 else None


def mistake_named(misconception: str, spec: str | Path | None = None,
                  folder: str | None = None) -> str | None:
    """The error model's mistake ("op:...") a named `misconception` is: itself when it is one,
    else the one the known-wrong variant is an instance of, from the compiled data of `spec`
    where there is some (the bundle's and the full grader's alike: an entry missing there is
    no mistake of the error model), else from the reference; None for any other."""
    if misconception.startswith("op:"):
        return misconception
    try:
        data = compiled_folder.cached(Path(spec)) if spec is not None else None
    except compiled.CompiledError:  # unreadable: graded from the reference, where there is one
        data = None
    if data is not None:
        try:
            found = data.lookup(compiled.INSTANCES, misconception)
        except compiled.CompiledError:
            return None
        return found if isinstance(found, str) else None
    return error_model_mistake(misconception, folder)


def _removed_step(mistake: str | None) -> tuple[str, str] | None:
    """(the student function whose check named it, the method removed) of the error model's
    mistake that one step is removed (`<operand>.<method>-removed`), else None."""
    mistake = mistake or ""
    parts = mistake.split(":")
    if len(parts) != 4 or "+" in mistake:
        return None
    found = _REMOVED.search(parts[3])
    if found is None or found.group(1) not in NEW_ARRAY:
        return None
    return parts[2].split("/")[0], found.group(1)


def _bare_calls(source: Source, function: str) -> list[tuple[str, ast.Expr]]:
    """(its chunk, the statement) of each expression statement that is a call, in the last
    definition of `function` the source makes (nested functions included)."""
    found: list[tuple[str, ast.Expr]] = []
    for chunk, node in source.definitions():
        if node.name == function:
            found = [(chunk, s) for s in ast.walk(node)
                     if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)]
    return found


def _numpy(call: ast.Call) -> bool:
    func = call.func
    return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id in NUMPY)


def _method(call: ast.Call) -> str | None:
    """`transpose` of `x.transpose(...)` and of `np.transpose(x, ...)`, else None."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in NEW_ARRAY:
        return None
    if _numpy(call):
        return func.attr if call.args else None
    return func.attr


def _array(call: ast.Call) -> str | None:
    """The name of the array the call is made on (`a` of `a.transpose(...)`, of
    `np.transpose(a, ...)`), None when it is no plain name."""
    held = call.args[0] if _numpy(call) else call.func.value
    return held.id if isinstance(held, ast.Name) else None
