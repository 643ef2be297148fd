"""A lecture step left out at every place one function takes it, as one rewrite (issue 38).

operators.skip leaves out one call of a helper; a student who ports a block without its
normalisation leaves out all of them at once: ultralytics/yolov5's TransformerLayer ("LayerNorm
layers removed for better performance": `x = self.ma(q(x), k(x), v(x))[0] + x;
x = self.fc2(self.fc1(x)) + x`), and the residual-only blocks of ReZero and T-Fixup ports. Two
skips of one function are a pair; the whole omission with a second mistake (yolov5's MLP has no
activation either) would be three edits, which the pairs do not make. `skip_every` makes the
omission one edit: every call, in one function, of a student-API step (a function of the
lecture's, `layer_norm`, that the student writes once and calls at each place) it calls two
times or more, replaced by that call's first argument. Only in the checked function or a helper
it calls itself (`change.near_checked`): a few sites per tree (`encoder_block`'s two
LayerNorms), the search's budget (MAX_REWRITES) untouched elsewhere.

`paired` gives the search that single with each other single, where it takes the reference
nearer to the student's value on most of the check's calls and no pair of the search
reproduced them: a block without LayerNorm whose MLP has no activation.
Each pair is named, as any rewrite, only when it reproduces every call, passing ones included.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, code, near_checked, where
from .evidence import distance
from .runs import run
from .tree import Edit, Instance

OPERATOR = "skip_every"
OMISSIONS = 2      # omissions paired per failed check, the nearest first
PARTNERS = 240     # singles each is paired with: silent ones first, then the nearest


def _repeated_steps(context: Context) -> dict[str, list[str]]:
    """The student-API helpers the instance calls two times or more, each with the bound names
    of its calls (`layer_norm` -> [`__em_layer_norm`, `__em_layer_norm_2`]), in call order."""
    from grader.reference import REFERENCE  # the student API's own functions

    steps: dict[str, list[str]] = {}
    for bound, child in context.instance.children.items():
        if child.name in REFERENCE and REFERENCE[child.name] is child.function:
            steps.setdefault(child.name, []).append(bound)
    return {name: bounds for name, bounds in steps.items() if len(bounds) > 1}


class _Unwrapped(ast.NodeTransformer):
    """Every call of the bound names replaced by its first argument, counted in `found`."""

    def __init__(self, bounds: set[str]):
        self.bounds, self.found = bounds, 0

    def visit_Call(self, node: ast.Call) -> ast.AST:
        node = self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in self.bounds and node.args:
            self.found += 1
            return node.args[0]
        return node


def _without(function: ast.FunctionDef, bounds: list[str]) -> ast.AST | None:
    """`function` with every call of `bounds` left out; None when another edit took one of
    those calls away (the two do not compose)."""
    unwrapped = _Unwrapped(set(bounds))
    new = unwrapped.visit(copy.deepcopy(function))
    return new if unwrapped.found == len(bounds) else None


def _calls(node: ast.FunctionDef, bounds: list[str]) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name) and n.func.id in bounds]


def skip_every(context: Context, node: ast.AST) -> Iterator[Change]:
    """A student-API step the function calls at several places left out at all of them."""
    if not (isinstance(node, ast.FunctionDef) and node is context.instance.node
            and near_checked(context) and context.instance.children):
        return
    for name, bounds in _repeated_steps(context).items():
        calls = _calls(node, bounds)
        if len(calls) != len(bounds) or any(not call.args for call in calls):
            continue
        shown = " and ".join(f"`{code(call)}`" for call in calls)
        yield Change(f"skip-every-{name}",
                     f"In {where(context)}, `{name}` is left out at each of its {len(calls)} "
                     f"places ({shown}): each input goes on as it is, so no `{name}` is applied "
                     f"anywhere in `{context.instance.name}`, where the model solution's code "
                     "applies it at every one of these places.",
                     lambda n, bounds=tuple(bounds): _without(n, list(bounds)))


def _removed(edit: Edit) -> tuple[str, str]:
    """(the instance path the omission edits, the step it leaves out)."""
    return edit.site.path, edit.detail.removeprefix("skip-every-").split(".")[0]


def _under(path: str, removed: tuple[str, str]) -> bool:
    """Whether `path` lies in an instance of the step an omission leaves out."""
    parent, step = removed
    if not path.startswith(parent + "/"):
        return False
    return path[len(parent) + 1:].split("/")[0].split(".")[0] == step


def _nearer(root: Instance, omission: Edit, order: list, copies: bool) -> bool:
    """Whether the omission takes the reference nearer to the student's value on most of the
    calls (a call it cannot compare, or where the student is exactly right, counts against it):
    one call's distance alone varies with its inputs, a block without its norms the more."""
    nearer = 0
    for call in order:
        ran, start = run(root, [omission], call, copies), distance(call.expected, call.got)
        gap = distance(ran[1], call.got) if ran is not None and ran[0] else None
        nearer += gap is not None and bool(start) and gap < start
    return 2 * nearer > len(order)


def paired(scored: list[tuple[float, Edit]], silent: list[Edit], root: Instance, order: list,
           copies: bool) -> list[tuple[Edit, Edit]]:
    """The pairs of an omission (at most OMISSIONS, the nearest to the student's value on the
    failing call, `order[0]`, first) that takes the reference nearer to the student's value on
    most calls (`_nearer`) with each other single (at most PARTNERS: those that change nothing
    on the failing call first, then the nearest), none inside the step it leaves out (an edit
    of a call that is gone changes nothing) nor a skip of one of its calls."""
    ranked = sorted(scored, key=lambda item: item[0])
    omissions = [e for _, e in ranked if e.operator == OPERATOR]
    out = []
    for omission in [e for e in omissions if _nearer(root, e, order, copies)][:OMISSIONS]:
        removed = _removed(omission)
        others = [e for e in [*silent, *(e for _, e in ranked)]
                  if e is not omission and not e.also and not _under(e.site.path, removed)
                  and not (e.operator == "skip" and e.site.path == removed[0]
                           and e.detail.split(".")[0] == f"skip-{removed[1]}")]
        out += [(omission, e) for e in others[:PARTNERS]]
    return out


OPERATORS = {OPERATOR: skip_every}
