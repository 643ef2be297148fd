"""A small constant said as the student's own literal where the calls only bound it.

The error model says a small constant it cannot place exactly as a range of values
("In `layer_norm`, eps is a value below about 1e-09 (0 and every power of ten up to 1e-10 give
these outputs, 1e-09 does not: they cannot tell which)": error_model/constants.py, blind round
57's b57_09, told "eps is 1e-12" for its `eps=1e-10`). Where the function the sentence places it
in writes one number for that name, and that number lies in the range (so it gives the outputs
too), the range is said as the student's number and its code: "eps is 1e-10 (`eps=1e-10` in
your code)". The name is the reference's, or the parameter the student writes in its place
(spelled.py's renaming); the number is a parameter's default, a keyword argument or an
assignment of a literal. Nothing here runs student code or imports the reference.
"""
from __future__ import annotations

import ast
import re
import textwrap

from .quotes import PLACED, Source

_NUMBER = r"(?:0|\d(?:\.\d+)?e-\d+|0\.\d+)"
RANGE = re.compile(rf"(?P<stem>`?[A-Za-z_]\w*`?) is (?P<fixed>fixed at )?a value "
                   rf"(?:below about (?P<below>{_NUMBER})|between about (?P<low>{_NUMBER}) and "
                   rf"(?P<high>{_NUMBER})) \([^()]*\)")


def literals(text: str | None, names: set[str]) -> dict[float, str]:
    """{value: the code that writes it} for each number the function's code binds to one of
    `names`: a parameter's default, a keyword argument, an assignment."""
    source = textwrap.dedent(text or "")
    try:
        tree = ast.parse(source)
    except Exception:  # noqa: BLE001 - a def that does not parse on its own
        return {}
    out: dict[float, str] = {}

    def number(node: ast.AST) -> float | None:
        value = node.value if isinstance(node, ast.Constant) else None
        return float(value) if type(value) in (int, float) else None

    for node in ast.walk(tree):
        pairs = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            positional = [*args.posonlyargs, *args.args]
            pairs += zip(positional[len(positional) - len(args.defaults):], args.defaults,
                         strict=True)
            pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)
                      if d is not None]
            pairs = [(a.arg, d) for a, d in pairs]
        elif isinstance(node, ast.Call):
            pairs = [(k.arg, k.value) for k in node.keywords if k.arg]
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            pairs = [(node.targets[0].id, node.value)]
        for name, value_node in pairs:
            value = number(value_node)
            if name in names and value is not None:
                written = ast.get_source_segment(source, value_node) or repr(value)
                out.setdefault(value, f"{name}={written}" if not isinstance(node, ast.Assign)
                               else f"{name} = {written}")
    return out


def theirs(hint: str | None, source: Source | None, renamed=None) -> str | None:
    """`hint` with each range of a small constant said as the student's number, where the
    function it is placed in writes exactly one number for that name and it lies in the range;
    `renamed(function)`: {the reference's name: the student's} (spelled.py)."""
    if source is None or not hint or " is " not in hint:
        return hint
    out, at = [], 0
    for match in RANGE.finditer(hint):
        placed = [m.group(1) for m in PLACED.finditer(hint[:match.start()])]
        if not placed:
            continue
        function, stem = placed[-1], match["stem"].strip("`")
        names = {stem} | ({(renamed(function) or {}).get(stem, stem)} if renamed else set())
        found = literals(source.function_text(function), names)
        low = float(match["low"] or 0.0)
        high = float(match["below"] or match["high"])
        inside = {v: code for v, code in found.items() if low < v < high
                  or (v == 0.0 and match["below"])}
        if len(found) != 1 or len(inside) != 1:
            continue
        value, code = next(iter(inside.items()))
        out += [hint[at:match.start()],
                f"{match['stem']} is {match['fixed'] or ''}{value:g} (`{code}` in your code)"]
        at = match.end()
    out.append(hint[at:])
    return "".join(out)
