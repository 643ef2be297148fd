"""An operator on a loop over a list of parameter sets, `for block in params["blocks"]: x =
encoder_block(x, block, ...)` (issue 38: "a parameter used in place of another, block 0 for every
block"), in any reference function, a course's own too: item 0 applied a fixed number of times
(2 to 12), whatever the list's length, as one encoder built once and called N times (blind
round 68's b68_07: ViT-Challenge's one `TransformerEncoder` called 4 times, unrolled).

The loop's other readings are operators of their own elsewhere: item 0 at every step, as many
steps as items (operators.py's `loop`), the last item at every step (conventions.py's
`late_bound`), the list reversed (choices.py's `loop_reversed`), its last or first item left out
(sequence.py's `loop_one_short`), one item past its end (past_end.py), the steps not chained, each
from the loop's input and the last one kept (names.py's `unchained`). Applies only at a `for NAME
in LIST` whose body hands NAME to a call, LIST not itself a call (`range(...)`, `enumerate(...)`:
indices, not parameter sets). A count is named only where the calls give the list two lengths or
more (`_lengths`): with one, the student's code may as well apply item 0 a multiple of the length.
"""
from __future__ import annotations

import ast
import copy
import inspect
from collections.abc import Iterator

from .change import Change, Context, code, where
from .tree import PREFIX

COUNTS = range(2, 13)  # the fixed numbers of steps tried: a hard-coded depth, up to ViT-Base's 12
BOUND = f"{PREFIX}first_times"


def first_times(items, count: int) -> list:
    """Item 0 `count` times, whatever the length of `items` (IndexError where it is empty, as
    `items[0]` raises)."""
    return [list(items)[0]] * count


def _parameter_loop(node: ast.AST) -> bool:
    """Whether `node` is `for NAME in LIST` over parameter sets: NAME handed to a call in the
    body, LIST not a call."""
    if not (isinstance(node, ast.For) and isinstance(node.target, ast.Name)
            and not isinstance(node.iter, ast.Call)):
        return False
    name = node.target.id
    return any(isinstance(n, ast.Call) and any(isinstance(a, ast.Name) and a.id == name
                                               for a in (*n.args, *(k.value for k in n.keywords)))
               for statement in node.body for n in ast.walk(statement))


def _fixed(count: int):
    """The loop with its list read as item 0 `count` times (`first_times`)."""
    def replaced(n: ast.For) -> ast.For:
        loop = copy.copy(n)
        loop.iter = ast.Call(ast.Name(BOUND, ast.Load()),
                             [copy.deepcopy(n.iter), ast.Constant(count)], [])
        return loop
    return replaced


def _lengths(context: Context, items: ast.AST):
    """`holds` for a fixed count: whether the calls give the list two lengths or more, which
    "whatever the number of items" says (with one length, item 0 `count` times is also item 0
    `count // length` times at every step). Only where the list is read from the checked
    function's own arguments (`params["blocks"]`): elsewhere the calls cannot say."""
    if "/" in context.instance.path or context.function is None:
        return lambda function, calls, same: False
    expression = compile(ast.Expression(copy.deepcopy(items)), "<items>", "eval")

    def told(function, calls, same) -> bool:
        found = set()
        for call in calls:
            try:
                bound = inspect.signature(context.function).bind(*call.args, **call.kwargs)
                bound.apply_defaults()
                found.add(len(eval(expression, {}, dict(bound.arguments))))  # noqa: S307
            except Exception:  # noqa: BLE001 - a list these calls do not give: not told
                return False
        return len(found) > 1
    return told


def first_item_fixed_times(context: Context, node: ast.AST) -> Iterator[Change]:
    """Item 0 of the loop's list applied a fixed number of times, whatever its length."""
    if not _parameter_loop(node):
        return
    items, item = code(node.iter), node.target.id
    loop, first = f"for {item} in {items}", f"{items}[0]"
    for count in COUNTS:
        yield Change(f"{item}-0-{count}-times",
                     f"In {where(context)}, `{first}` is applied {count} times, whatever the "
                     f"number of items in `{items}`: the loop `{loop}` applies each {item} once, "
                     f"in order, `{items}[i]` ({item} i) at step i, as many steps as "
                     f"`{items}` has items.", _fixed(count), ((BOUND, first_times),),
                     holds=_lengths(context, node.iter))


OPERATORS = {"first_fixed_times": first_item_fixed_times}
