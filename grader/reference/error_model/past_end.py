"""An operator on a loop over a container run more times than the container holds (issue 38):

- `for block in params['blocks']` written with a count of its own, `for i in
  range(transformer_layers): block = params['blocks'][i]`, where the count is a config's fixed
  depth (kurupdeepak/nutrition's Keras ViT, `transformer_layers = 4` in vit_config.py and
  `for _ in range(transformer_layers)`; the keras.io ViT example's `transformer_layers = 8`)
  or one too many (`range(len(blocks) + 1)`, `i <= len(blocks)`): every item is used, then
  the one past the end is read, and indexing raises as the container does (a list's
  "list index out of range"). The rewrite never returns a value, so it is named only where the
  student's code raised that very exception on every case (a fixed count above every case's
  length; with fewer items than the count would have left some out, the cases tell it apart).

Each is an operator as in operators.py (`f(context, node) -> iterator of Change`); OPERATORS
lists them in the order tried. It applies only to the checked function's own loops over a
container it is given (a parameter or an item of one), not over a call's result (`range`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, code, parameters_of, where
from .tree import PREFIX


def past_end(items):
    """Each of `items`, then `items[len(items)]`: the container's own IndexError."""
    yield from items
    items[len(items)]


def loop_past_end(context: Context, node: ast.AST) -> Iterator[Change]:
    """`for x in items` as `for x in past_end(items)`: the loop reads one item past the end."""
    if not (isinstance(node, ast.For) and isinstance(node.target, ast.Name)
            and context.instance.path == context.root):
        return
    base = node.iter.value if isinstance(node.iter, ast.Subscript) else node.iter
    if not (isinstance(base, ast.Name) and base.id in parameters_of(context.instance.node)):
        return  # a container the function is given (`params['blocks']`), not a call's result
    items, item = code(node.iter), node.target.id
    bound = f"{PREFIX}past_end"
    yield Change(f"{item}-loop-past-end",
                 f"In {where(context)}, the loop over `{items}` reads it past its end, which "
                 f"raises IndexError: written with an index of its own (`for i in range(n)` "
                 f"with `{item} = {items}[i]`, n a fixed depth such as a Keras config's "
                 f"`transformer_layers`, or `len({items}) + 1`), it asks for an item "
                 f"`{items}` does not have. Loop over the items themselves, `for {item} in "
                 f"{items}`, so that their count is always the one given.",
                 lambda n, bound=bound: _with_iter(n, bound), ((bound, past_end),))


def _with_iter(node: ast.For, bound: str) -> ast.For:
    new = copy.copy(node)
    new.iter = ast.Call(ast.Name(bound, ast.Load()), [node.iter], [])
    return new


OPERATORS = {"loop_past_end": loop_past_end}
