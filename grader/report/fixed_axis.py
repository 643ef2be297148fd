"""An `axis` said "taken as its default" where the student's code reduces over another fixed axis.

The error model's `parameter_default` rewrite ("In `softmax`, `axis` is taken as its default,
-1, whatever is given": error_model/names.py) reproduces code that never reads `axis` and
reduces over a fixed axis of another number wherever the two agree: axis 1 is the last of a 2-D
input (blind round 72's b72_09, `z.max(axis = 1)`, whose other inputs raised). Its number is
then not the student's. So where the function the sentence places it in has `axis` as a
parameter, never reads it, and each of its reductions (REDUCTIONS, a module's function or an
array's method) is given a literal axis, the sentence says the axis those name: "`axis` is
never read: your code reduces over axis 1 (`z.max(axis = 1)`) whatever `axis` is given", or
"over fixed axes" where they name several. Where one names none, the default itself, or an
axis not written as a literal, the sentence is left as it is.

The error model's transpose trick over the last axis (error_model/broadcasts.py) says the step
it rewrites: "the sum ignores `axis` (it is always over the last axis ...)": the model
solution's max still reads `axis`, and so may the student's (blind round 73's b73_03). Where
the student's function never reads `axis` at all, that is said: "`axis` is never read (the sum
is always over the last axis ...)". Nothing here runs student code.
"""
from __future__ import annotations

import ast
import re
import textwrap

from .parameters import parameters
from .quotes import PLACED, Source
from .syntax import called_name

DEFAULT = re.compile(r"In `(?P<function>[^\W\d]\w*)`, `axis` is taken as its default, "
                     r"(?P<default>-?\d+), whatever is given\.")
REDUCTIONS = frozenset({"max", "amax", "min", "amin", "sum", "mean", "prod", "var", "std",
                        "logsumexp", "nanmax", "nanmin", "nansum", "nanmean", "median",
                        "argmax", "argmin"})
MODULES = frozenset({"np", "numpy", "jnp", "torch", "tf", "scipy", "special", "sp"})
IGNORED = re.compile(r"the (?P<step>\w+) ignores `(?P<name>[^\W\d]\w*)` \(it is always over "
                     r"the last axis")  # error_model/broadcasts.py's step that ignores it
SEVERAL = "several"  # reductions over fixed axes of more than one number


def _literal(node: ast.AST | None) -> int | str | None:
    """An int written as a literal (`1`, `- 1`); SEVERAL for a tuple of them; None else."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _literal(node.operand)
        return -inner if isinstance(inner, int) else None
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Tuple) and node.elts and all(
            isinstance(_literal(e), int) for e in node.elts):
        return SEVERAL
    return None


def _axis_given(call: ast.Call) -> tuple[bool, ast.AST | None]:
    """(whether `call` is a reduction, the node it is given as its axis or None)."""
    func = call.func
    if called_name(func) not in REDUCTIONS:
        return False, None
    keyword = next((k.value for k in call.keywords if k.arg in ("axis", "dim")), None)
    if keyword is not None:
        return True, keyword
    module = isinstance(func, ast.Name) or (isinstance(func, ast.Attribute) and (
        isinstance(func.value, ast.Attribute)
        or (isinstance(func.value, ast.Name) and func.value.id in MODULES)))
    place = 1 if module else 0  # np.max(x, 1); x.max(1)
    return True, call.args[place] if len(call.args) > place else None


def reads(function: ast.AST | None, parameter: str) -> bool | None:
    """Whether the function definition `function` reads its parameter `parameter` anywhere in
    its body; None when it is no function or has no such parameter."""
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) or parameter not in \
            parameters(function):
        return None
    return any(isinstance(n, ast.Name) and n.id == parameter and isinstance(n.ctx, ast.Load)
               for n in ast.walk(function))


def _parsed(text: str | None) -> ast.AST | None:
    """The first statement of `text` dedented (a function's definition), or None."""
    try:
        tree = ast.parse(textwrap.dedent(text or ""))
    except Exception:  # noqa: BLE001 - a def that does not parse on its own
        return None
    return tree.body[0] if tree.body else None


def reduced_over(text: str | None, parameter: str = "axis") -> tuple[int | str, str] | None:
    """(the axis, or SEVERAL, the first reduction's code) of a function whose code never
    reads `parameter` and gives each of its reductions a literal axis; None else."""
    source = textwrap.dedent(text or "")
    function = _parsed(source)
    if reads(function, parameter) is not False:
        return None
    axes, first = set(), None
    calls = sorted((n for n in ast.walk(function) if isinstance(n, ast.Call)),
                   key=lambda n: (n.lineno, n.col_offset))  # the first as written
    for node in calls:
        reduction, given = _axis_given(node)
        if not reduction:
            continue
        axis = _literal(given)
        if axis is None:
            return None
        axes.add(axis)
        first = first or ast.get_source_segment(source, node)
    if not axes:
        return None
    return (axes.pop() if len(axes) == 1 else SEVERAL), first


def fixed_axis(hint: str | None, source: Source | None) -> str | None:
    """`hint` with each "`axis` is taken as its default" said as the fixed axis the function's
    reductions name, where it never reads `axis` (the module's docstring); as it is without a
    source."""
    if source is None or not hint or not ("is taken as its default" in hint
                                          or " ignores `" in hint):
        return hint

    def one(match: re.Match) -> str:
        found = reduced_over(source.function_text(match["function"]))
        if found is None or found[0] == int(match["default"]):
            return match.group()
        axis, code = found
        over = ("fixed axes" if axis == SEVERAL
                else f"axis {axis}" + (f" (`{code}`)" if code and "`" not in code else ""))
        return (f"In `{match['function']}`, `axis` is never read: your code reduces over {over} "
                f"whatever `axis` is given.")

    def unread(match: re.Match) -> str:
        before = list(PLACED.finditer(hint, 0, match.start()))
        function = _parsed(source.function_text(before[-1][1])) if before else None
        if reads(function, match["name"]) is not False:
            return match.group()  # read by another step (a max over `axis`): the step said
        return (f"`{match['name']}` is never read (the {match['step']} is always over the "
                f"last axis")

    hint = IGNORED.sub(unread, hint)
    return DEFAULT.sub(one, hint)
