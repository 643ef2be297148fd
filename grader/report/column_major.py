"""A patch order read column-major, said as the student's own line that makes it.

The error model names a transpose whose last axes are read backwards as "the order a column-major
flatten reads them" (error_model/order.axes_swapped, quotes.COLUMN_MAJOR), in the model
solution's terms: a transpose of its patch grid. A port of column-major code (Julia, MATLAB,
Fortran) makes that order otherwise: blind round 63's b63_07 flattened each patch in a nested
helper, `patch.reshape(-1, order="F")`, and was told of no line of its own nor of `order="F"`.
So, where a hint says that order of a function ("In `f`"), and exactly one call in `f`'s code or
in a helper it defines or calls (quotes.Source.called: not the student API's, checked on their
own) flattens column-major (a `reshape`, `flatten` or `ravel` given order 'F', or one of an array
transposed whole: `.T`, `.transpose()`, `np.transpose(a)`, or its last three axes or more
reversed), the hint says that call, where it is, and what to drop. None, or several (which one
is meant is not known): the hint as it is. Nothing here runs student code.
"""
from __future__ import annotations

import ast
import re

from .quotes import COLUMN_MAJOR, PLACED, Source
from .steps import own_statements

FLATTENS = frozenset({"reshape", "flatten", "ravel"})
NUMPY = frozenset({"np", "numpy"})
LONGEST = 80  # characters of the student's call quoted at most: a longer one is not said
F_FIX = "(numpy's default order, 'C', is row-major: the model solution's)"
T_FIX = "(without it the flatten is row-major, the model solution's order)"
_SPAN = re.compile(r"`[^`\n]+`")
_END = re.compile(r"\.(?=\s|$)")  # a sentence's end


def ordered(hint: str | None, source: Source | None) -> str | None:
    """`hint` with, after each sentence that says a function's order is a column-major
    flatten's, the one call of the student's that flattens so (the module's docstring); as it
    is otherwise."""
    if not hint or source is None or COLUMN_MAJOR not in hint:
        return hint
    blank = _SPAN.sub(lambda m: "x" * len(m.group()), hint)  # a quote's dots are no sentence's end
    out, at = [], 0
    for match in re.finditer(re.escape(COLUMN_MAJOR), hint):
        if match.start() < at:
            continue
        end = _END.search(blank, match.end())
        end = end.end() if end else len(hint)
        places = PLACED.findall(hint, at, match.start())
        out.append(hint[at:end])
        said = _said(source, places[-1]) if places else None
        if said is not None:
            out.append(said)
        at = end
    return "".join(out) + hint[at:]


def _said(source: Source, function: str) -> str | None:
    """" That order is made by `...` (line N, in your `g`, called by `f`): drop `...` (...)." for
    the one call of `function`'s code that flattens column-major; None without exactly one."""
    called = source.called(function)
    defined = {node.name: (chunk, node) for chunk, node in source.definitions()}
    found = [(name, chunk, call, fix) for name in called if name in defined
             for chunk, node in [defined[name]] for call in _calls(node)
             if (fix := _fix(call, chunk)) is not None]
    if len(found) != 1:
        return None
    name, chunk, call, fix = found[0]
    text = " ".join((ast.get_source_segment(chunk, call) or "").split())
    if not text or len(text) > LONGEST:
        return None
    place = [f"line {call.lineno}"] if len(source.chunks) == 1 else []  # a notebook: cells
    if name != function:
        chain, caller = [f"in your `{name}`"], called[name]
        while caller is not None:
            chain.append(f"called by `{caller}`")
            caller = called[caller]
        place.append(", ".join(chain))
    bracket = f" ({', '.join(place)})" if place else ""
    return f" That order is made by `{text}`{bracket}: {fix}."


def _calls(function: ast.FunctionDef) -> list[ast.Call]:
    """The calls in `function`'s own statements (not in a function it defines: that one is
    looked in where `function` calls it)."""
    return [node for statement in own_statements(function)
            for child in ast.iter_child_nodes(statement) if not isinstance(child, ast.stmt)
            for node in ast.walk(child) if isinstance(node, ast.Call)]


def _fix(call: ast.Call, chunk: str) -> str | None:
    """What to do about `call` where it flattens column-major ("drop `order="F"` (...)"), from
    its code in `chunk`; None where it does not (a row-major flatten, or no flatten)."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in FLATTENS):
        return None
    module = isinstance(func.value, ast.Name) and func.value.id in NUMPY  # np.ravel(a, 'F')

    def code(node: ast.AST) -> str:
        return ast.get_source_segment(chunk, node) or ast.unparse(node)

    for keyword in call.keywords:
        if keyword.arg == "order" and _is_f(keyword.value):
            return f"drop `{code(keyword)}` {F_FIX}"
    for argument in call.args[1 if module else 0:]:
        if _is_f(argument):
            return f"drop its `{code(argument)}` {F_FIX}"
    array = (call.args[0] if call.args else None) if module else func.value
    if isinstance(array, ast.Attribute) and array.attr == "T":
        return f"drop `.T` {T_FIX}"
    if not (isinstance(array, ast.Call) and isinstance(array.func, ast.Attribute)
            and array.func.attr == "transpose"):
        return None
    if isinstance(array.func.value, ast.Name) and array.func.value.id in NUMPY:
        if array.args and _reverses(array.args[1:], array.keywords):
            return f"drop the transpose: flatten `{code(array.args[0])}` itself {T_FIX}"
        return None
    if _reverses(array.args, array.keywords):
        whole, receiver = code(array), code(array.func.value)
        return f"drop `{whole[len(receiver):].strip()}` {T_FIX}" if whole.startswith(
            receiver) else f"drop the transpose {T_FIX}"
    return None


def _is_f(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in ("F", "f")


def _reverses(args: list[ast.expr], keywords: list[ast.keyword]) -> bool:
    """Whether a transpose given `args` (or `axes=`) reverses its array's last three axes or
    more and keeps the others in place: every axis when none is given."""
    given = args or [k.value for k in keywords if k.arg == "axes"]
    if len(given) == 1 and isinstance(given[0], ast.Tuple | ast.List):
        given = given[0].elts
    if not given:
        return not keywords
    if not all(isinstance(a, ast.Constant) and type(a.value) is int for a in given):
        return False
    axes = [a.value for a in given]
    kept = next((at for at, axis in enumerate(axes) if axis != at), len(axes))
    return len(axes) - kept >= 3 and axes[kept:] == list(range(len(axes) - 1, kept - 1, -1))
