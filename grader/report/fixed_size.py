"""An array built once for a fixed size, sliced to a sequence's length: the broadcast it raises
for a longer sequence, named (blind round 71's b71_08: a causal mask `tril` of a module-level
`block_size = 8`, sliced `tril[:T, :T]` in the attention, raises ValueError for T > 8).

The check's failing call raised a broadcast ValueError ("operands could not be broadcast
together with shapes (8,8) (9,9)") at a line of the student's function that slices a name to
one bound on every axis (`tril[:T, :T]`); the function neither takes that name nor builds it:
an enclosing scope (the module, or an enclosing function) assigns it once, or it is a parameter's
default, from literal numbers and names bound once to one (`block_size = 8`), all the one size
N the broadcast names for the sliced operand; a longer operand gives the length L > N. Then the
check's calls, as first graded (checks/calls_seen.py), must bear it out along one axis of one
array argument of size L in the failing call: every call of length <= N right, every call that
was not right of length > N and raised the same error at the same line, and some call of length
<= N right. Only then is the hint replaced; anything else leaves it as it is. Nothing here runs
student code.
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace

from grader.checks.raised_here import innermost_frame
from grader.checks.results import FAILED, MISTAKE

from .parameters import parameters

FIXED_SIZE = "built_for_a_fixed_size"
TITLES = {FIXED_SIZE: "an array built once for a fixed length"}
_BROADCAST = re.compile(r"operands could not be broadcast together with (?:remapped )?shapes "
                        r"((?:\[[^\]]*\]|\([^)]*\)|\s)+)")
_SHAPE = re.compile(r"\(([^)]*)\)")


def fixed_size(check, source):
    """`check` (a CheckResult) with the hint of the module's docstring when all of it holds of
    `source` (report/quotes.Source) and its calls; None otherwise."""
    calls = check.calls_seen
    failing = next((c for c in calls if not c.right), None)
    if (check.status != FAILED or source is None or failing is None
            or failing.error_type != "ValueError"):
        return None
    shapes = _shapes(failing.error_message)
    frame = innermost_frame(failing.traceback)
    if not shapes or frame is None:
        return None
    _, line, function, code = frame
    found = _sliced(code)
    if found is None:
        return None
    name, bound, axes = found
    built = _built_once(source, function, line, code, name)
    if built is None:
        return None
    size, where = built
    if (size,) * axes not in shapes:
        return None
    longer = {n for shape in shapes for n in shape if n > size}
    if len(longer) != 1 or not _borne_out(calls, failing, size, longer.pop(), line, function):
        return None
    place = f" (line {where})" if where else ""
    hint = (f"`{name}` is built once for {size} tokens{place}: sequences longer than {size} do "
            f"not fit (ValueError where it is sliced to `{bound}`); build it from `{bound}` "
            f"inside `{function}`.")
    return replace(check, hint=hint, hint_kind=MISTAKE, misconception=FIXED_SIZE)


def _shapes(message: str) -> list[tuple[int, ...]]:
    """The operands' shapes a broadcast ValueError names ([] when it is another error)."""
    found = _BROADCAST.search(message or "")
    if found is None:
        return []
    shapes = []
    for inner in _SHAPE.findall(found[1]):
        parts = [p.strip() for p in inner.split(",") if p.strip()]
        if not all(p.isdigit() for p in parts):
            return []
        shapes.append(tuple(int(p) for p in parts))
    return shapes


def _sliced(code: str) -> tuple[str, str, int] | None:
    """(name, bound, number of axes) of the one `name[:bound, :bound]` (or `name[:bound]`) the
    line slices, every axis to the same bound from 0; None for none or several."""
    try:  # a statement, or the head of one (`if mask[:T].any():`)
        tree = ast.parse(code + " pass" if code.endswith(":") else code)
    except SyntaxError:
        return None
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if all(isinstance(p, ast.Slice) and p.lower is None and p.step is None
                   and p.upper is not None for p in parts):
                bounds = {ast.unparse(p.upper) for p in parts}
                if len(bounds) == 1:
                    found.add((node.value.id, bounds.pop(), len(parts)))
    return found.pop() if len(found) == 1 else None


def _built_once(source, function: str, line: int, code: str, name: str):
    """(its size, the line that builds it or None) of `name` where `function` (the def holding
    the raising line) neither takes nor binds it, and an enclosing scope builds it once from
    numbers alone (a parameter's default counts); None otherwise."""
    chunks = source.chunks
    for chunk in chunks:
        try:
            tree = ast.parse(chunk)
        except SyntaxError:
            continue
        lines = chunk.splitlines()
        for chain in _def_chains(tree, function):
            node = chain[-1]
            if not (node.lineno <= line <= node.end_lineno and line <= len(lines)
                    and lines[line - 1].strip() == code):
                continue
            built = _lookup(chain, name)
            if built is None:
                return None
            size, at = built
            return size, (at if len(chunks) == 1 else None)
    return None


def _def_chains(tree: ast.Module, function: str) -> list[list[ast.AST]]:
    """[module, enclosing defs..., the def] of each def named `function`."""
    chains: list[list[ast.AST]] = []

    def visit(node: ast.AST, chain: list[ast.AST]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                if child.name == function:
                    chains.append([*chain, child])
                visit(child, [*chain, child])
            elif not isinstance(child, ast.ClassDef | ast.Lambda):
                visit(child, chain)
    visit(tree, [tree])
    return chains


def _lookup(chain: list[ast.AST], name: str) -> tuple[int, int] | None:
    """(size, line) of `name` as the innermost def of `chain` sees it: built once, from numbers
    alone, by an enclosing scope or as its own parameter's default; None otherwise."""
    own = chain[-1]
    default = _default(own, name)
    if default is not None:
        size = _size(default, chain[:-1])
        return None if size is None else (size, default.lineno)
    if name in _parameters(own) or _assigned(own, name):
        return None  # taken, or built here: from its arguments, maybe
    for depth in range(len(chain) - 2, -1, -1):
        scope = chain[depth]
        if name in _parameters(scope):
            return None
        values = _assigned(scope, name)
        if values:
            if len(values) != 1:
                return None
            size = _size(values[0], chain[:depth + 1])
            return None if size is None else (size, values[0].lineno)
    return None


def _parameters(node) -> list[str]:
    """Every name `node`'s parameters bind ([] for the module)."""
    return parameters(node, starred=True) if isinstance(
        node, ast.FunctionDef | ast.AsyncFunctionDef) else []


def _default(node, name: str):
    """The default of `node`'s parameter `name`, or None."""
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    a = node.args
    positional = [*a.posonlyargs, *a.args]
    pairs = list(zip(positional[len(positional) - len(a.defaults):], a.defaults, strict=True))
    pairs += [(p, d) for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is not None]
    return next((d for p, d in pairs if p.arg == name), None)


def _assigned(scope, name: str) -> list[ast.expr | None]:
    """The values `scope`'s own statements (not its nested defs') bind to `name`: None for a
    binding of another kind (`+=`, a loop, a tuple's target, `with ... as`)."""
    values: list[ast.expr | None] = []
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)):
            if node.targets[0].id == name:
                values.append(node.value)
            stack.append(node.value)
            continue
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            values.append(None)
        stack.extend(ast.iter_child_nodes(node))
    return values


def _size(value, scopes: list[ast.AST]) -> int | None:
    """The one number `value` (an array's construction) is built from: each literal int and each
    name bound once to one, not a keyword's (`k=1`, `dtype=bool`); a library's names
    (`np.tril`, `np.inf`: an attribute of an imported module) read nothing. None when it reads
    anything else (a parameter, a name bound to a call's result) or more than one number."""
    if value is None:
        return None
    modules = _imported(scopes[0])
    skip = {id(n) for call in ast.walk(value) if isinstance(call, ast.Call)
            for k in call.keywords for n in ast.walk(k.value)}
    numbers = set()
    for node in ast.walk(value):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Attribute):
            base = node
            while isinstance(base, ast.Attribute):
                base = base.value
            if not (isinstance(base, ast.Name) and base.id in modules):
                return None
            skip.update(id(n) for n in ast.walk(node))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            numbers.add(node.value)
        elif isinstance(node, ast.Name):
            number = _number(node.id, scopes)
            if number is None:
                return None
            numbers.add(number)
    return numbers.pop() if len(numbers) == 1 else None


def _imported(module: ast.AST) -> set[str]:
    """The names the module's own `import` statements bind (`np` of `import numpy as np`)."""
    return {(alias.asname or alias.name).split(".")[0] for node in ast.iter_child_nodes(module)
            if isinstance(node, ast.Import) for alias in node.names}


def _number(name: str, scopes: list[ast.AST]) -> int | None:
    """The literal int `name` is bound to, once, in the innermost of `scopes` that binds it."""
    for scope in reversed(scopes):
        if name in _parameters(scope):
            return None
        values = _assigned(scope, name)
        if values:
            only = values[0] if len(values) == 1 else None
            ok = isinstance(only, ast.Constant) and type(only.value) is int
            return only.value if ok else None
    return None


def _borne_out(calls, failing, size: int, longer: int, line: int, function: str) -> bool:
    """Whether, along one axis of one array argument that is `longer` in the failing call, every
    call of length <= `size` was right (one at least), and every call not right was longer and
    raised the failing call's ValueError at the same line."""
    for position, shape in failing.shapes:
        for axis, n in enumerate(shape):
            if n == longer and _split(calls, position, axis, size, line, function):
                return True
    return False


def _split(calls, position: int, axis: int, size: int, line: int, function: str) -> bool:
    fitting = 0
    for call in calls:
        shape = dict(call.shapes).get(position)
        if shape is None or len(shape) <= axis:
            return False
        if shape[axis] <= size:
            if not call.right:
                return False
            fitting += 1
        elif not call.right:
            frame = innermost_frame(call.traceback)
            if (call.error_type != "ValueError" or not _shapes(call.error_message)
                    or frame is None or frame[1:3] != (line, function)):
                return False
    return fitting > 0
