"""A row read as a pooling of rows (timm's global_pool='avg', DeiT's two tokens averaged, max
pooling), at the read itself (`pool`) or before a step the reference runs on every row first
(`pool_before_step`: `x = layer_norm(x, ...)` then `x[0]` as `layer_norm(x[1:].mean(axis=0),
...)`, timm's fc_norm). Operators as in operators.py, listed in steps.OPERATORS.

Blind round 75 (b75_11): the pooled row put through the final LayerNorm was told as the step
"comes after a pooling ... the lecture runs the step on every row and then reads row 0 of its
output", the order as the mistake; but a LayerNorm reads each row on its own, and row 0 read
before it or after it gives the same. So each pooling before a step is made twice, with one
sentence each, and the calls choose (`Change.holds`): where the model solution with its row read
before the step (`step(x[0], ...)`, no pooling) gives its own outputs on every call, the
pooling is said and the order is said to be no part of it; only where it does not, the order.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator

from .change import Change, Context, Replaced, code, where
from .evidence import agree, fresh
from .tree import Edit, Site, build, compile_with, nodes


def row_read(node: ast.AST) -> int | None:
    """k for a read `x[k]` of a name's row (k a non-negative integer), else None (readouts.py
    reads rows so too)."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
            and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Constant)):
        return None
    k = node.slice.value
    return k if isinstance(k, int) and not isinstance(k, bool) and k >= 0 else None


def _mean_of_rows(name: str, lower: int | None, upper: int | None, how="mean") -> ast.AST:
    """`name[lower:upper].mean(axis=0)` (`name.mean(axis=0)` for every row), or `.max(axis=0)`,
    or `0.5 * (... .mean(axis=0) + ... .max(axis=0))` (how: 'mean', 'max', 'avgmax')."""
    rows = ast.Name(name, ast.Load())
    if lower is not None or upper is not None:
        rows = ast.Subscript(rows, ast.Slice(None if lower is None else ast.Constant(lower),
                                             None if upper is None else ast.Constant(upper)),
                             ast.Load())
    if how == "avgmax":
        return ast.BinOp(ast.Constant(0.5), ast.Mult(), ast.BinOp(
            _mean_of_rows(name, lower, upper), ast.Add(), _mean_of_rows(name, lower, upper, "max")))
    return ast.Call(ast.Attribute(rows, how, ast.Load()), [],
                    [ast.keyword("axis", ast.Constant(0))])


def _poolings(k: int) -> list[tuple[str, str, int | None, int | None, str]]:
    """(detail, words, lower, upper, how) of each pooling read where row k is meant."""
    after, n = f"the rows after row {k}", None
    return [("mean-after", f"{after} averaged (average pooling of the other tokens, as timm's "
                           "global_pool='avg')", k + 1, n, "mean"),
            ("mean-all", "every row averaged (average pooling of all the tokens)", n, n, "mean"),
            ("mean-with-next", f"rows {k} and {k + 1} averaged (as DeiT's head averages its "
                               "[CLS] and distillation tokens)", k, k + 2, "mean"),
            ("max-all", "each column's largest value over every row (max pooling of all the "
                        "tokens)", n, n, "max"),
            ("avgmax-after", f"the mean and the maximum of {after} averaged (timm's "
                             "global_pool='avgmax')", k + 1, n, "avgmax")]


def pool(context: Context, node: ast.AST) -> Iterator[Change]:
    """A row read as a pooling of rows: `x[0]` as `x[1:].mean(axis=0)` (timm's avg pool),
    `x.mean(axis=0)`, `x[0:2].mean(axis=0)`, `x.max(axis=0)` or timm's avgmax of `x[1:]`."""
    k = row_read(node)
    if k is None:
        return
    name = node.value.id
    for detail, words, lower, upper, how in _poolings(k):
        new = _mean_of_rows(name, lower, upper, how)
        yield Change(f"{name}[{k}]-{detail}",
                     f"In {where(context)}, `{code(node)}` is read as `{code(new)}`: "
                     f"{words}, instead of row {k} alone.",
                     lambda n, lower=lower, upper=upper, how=how: _mean_of_rows(
                         n.value.id, lower, upper, how))


def _in_place_step(statement: ast.stmt) -> tuple[str, ast.Call] | None:
    """(n, the call) for a statement `n = step(n, ...)`: a step applied to n, kept as n."""
    if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name) and isinstance(statement.value, ast.Call)
            and statement.value.args and isinstance(statement.value.args[0], ast.Name)
            and statement.value.args[0].id == statement.targets[0].id):
        return statement.targets[0].id, statement.value
    return None


def _row_reads(statement: ast.stmt, name: str) -> list[ast.Subscript]:
    return [n for n in ast.walk(statement) if row_read(n) is not None and n.value.id == name]


def _pooled_first(body_owner: ast.AST, index: int, k: int, lower, upper) -> ast.AST | None:
    """`body_owner` with statement `index` (`x = step(x, ...)`) taken away and the next
    statement's row read of x replaced by `step(<the rows pooled>, ...)`; None when an edit
    below took away what this one moves."""
    body = body_owner.body
    found = _in_place_step(body[index]) if index + 1 < len(body) else None
    following = copy.deepcopy(body[index + 1]) if found else None
    reads = _row_reads(following, found[0]) if found else []
    if len(reads) != 1 or reads[0].slice.value != k:
        return None
    name, step = found
    pooled = ast.Call(step.func, [_mean_of_rows(name, lower, upper), *step.args[1:]],
                      step.keywords)
    following = Replaced(reads[0], pooled).visit(following)
    new = copy.copy(body_owner)
    new.body = [*body[:index], following, *body[index + 2:]]
    return new


def step_name(context: Context, call: ast.Call) -> str:
    """A step's name in a mistake's name: its instance's label (`layer_norm`, `linear.2`)."""
    func = call.func
    if isinstance(func, ast.Name) and func.id in context.instance.children:
        return context.instance.children[func.id].path.rsplit("/", 1)[-1]
    return code(func).replace(".", "-")


def pool_before_step(context: Context, node: ast.AST) -> Iterator[Change]:
    """Normalise then pool as pool then normalise: `x = layer_norm(x, ...)` then `x[0]` as
    `layer_norm(x[1:].mean(axis=0), ...)` (timm's global_pool='avg' with its fc_norm). A row
    read after a step made per row is the same either way: this applies with a pooling only,
    and its sentence says the order only where the calls show that it matters (the module's
    docstring)."""
    body = getattr(node, "body", None)
    if not isinstance(body, list):
        return
    for index, statement in enumerate(body[:-1]):
        found = _in_place_step(statement)
        reads = _row_reads(body[index + 1], found[0]) if found else []
        if len(reads) != 1:
            continue
        name, step = found
        k = reads[0].slice.value
        row_first = _RowFirst(context, node, index, k)
        for detail, words, lower, upper, _ in [p for p in _poolings(k) if p[-1] == "mean"]:
            pooled = _mean_of_rows(name, lower, upper)
            made = f"{name}[{k}]-{detail}-before-{step_name(context, step)}"

            def moved(n, index=index, k=k, lower=lower, upper=upper):
                return _pooled_first(n, index, k, lower, upper)

            yield Change(made,
                         f"In {where(context)}, `{code(reads[0])}` is read as `{code(pooled)}`: "
                         f"{words}, instead of row {k} alone; that pooled row then goes through "
                         f"`{code(step)}`, and that order is no part of the mistake (row {k} "
                         f"read before that step or after it gives the same).", moved,
                         holds=row_first.same)
            yield Change(f"{made}-order",
                         f"In {where(context)}, `{code(step)}` comes after a pooling: "
                         f"`{code(reads[0])}` is read as `{code(pooled)}`, {words}, and only "
                         f"that pooled row goes through the step; the lecture runs the step on "
                         f"every row and then reads row {k} of its output.", moved,
                         holds=row_first.differs)


class _RowFirst:
    """The model solution with step `index` of `owner`'s body run on row k alone (`step(x[k],
    ...)` for `x = step(x, ...)` then `x[k]`), built on first need, and whether it gives the
    model solution's own outputs on calls (`same`) or not (`differs`): both False when it cannot
    be built or run (neither sentence is then said)."""

    def __init__(self, context: Context, owner: ast.AST, index: int, k: int):
        self.function, self.path, self.index, self.k = (context.function, context.instance.path,
                                                        index, k)
        self.site = next(i for i, (n, _, _, _) in enumerate(nodes(context.instance.node))
                         if n is owner)
        self.built: list[Callable | None] = []

    def _function(self) -> Callable | None:
        if not self.built:
            root = build(self.function) if self.function is not None else None
            edit = Edit("row_first", Site(self.path, self.site), f"row-{self.k}-first", "",
                        lambda n: _pooled_first(n, self.index, self.k, self.k, self.k + 1))
            try:
                self.built.append(None if root is None else compile_with(root, [edit]))
            except (SyntaxError, ValueError, TypeError, AttributeError, IndexError):
                self.built.append(None)
        return self.built[0]

    def _outcome(self, calls, same) -> bool | None:
        """True when the row read first gives every call's expected value, False when it gives
        another on some call (or raises), None when it cannot be built."""
        function = self._function()
        if function is None:
            return None
        for call in calls:
            try:
                value = function(*fresh(call.args), **fresh(call.kwargs))
            except Exception:  # noqa: BLE001 - the reordered reference may raise: it differs
                return False
            if not agree(same, call.expected, value):
                return False
        return True

    def same(self, rewritten, calls, same) -> bool:
        return self._outcome(calls, same) is True

    def differs(self, rewritten, calls, same) -> bool:
        return self._outcome(calls, same) is False


