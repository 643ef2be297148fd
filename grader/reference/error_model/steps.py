"""Operators on where a step reads, in which order the steps run and how far they stride: the
reference's steps each right, but an activation inserted before a step, a bias after it, a step
applied twice, a sum before a concatenation, a mask after the softmax (a row read as a pooling
of rows: poolings.py, listed here). Each is an operator as in
operators.py (`f(context, node) -> iterator of Change`); OPERATORS lists them in the order
tried, after operators.OPERATORS (the error model tries both).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from . import change
from .activations import ACTIVATIONS
from .change import Change, Context, Replaced, callee, code, parameters_of, slug, where, with_first
from .operators import ACTIVATION_CALLS
from .poolings import pool, pool_before_step, step_name
from .terms import first_row_again, first_row_to_the_rest
from .tree import PREFIX

# name -> (words, function): the activations a port brings along where the lecture has none
INSERTED = {"tanh": ("tanh (as HF's ViTPooler does)", np.tanh),
            "relu": ("ReLU", ACTIVATIONS["relu"][1]), "gelu": ("GELU", ACTIVATIONS["gelu"][1])}


def activation_inserted(context: Context, node: ast.AST) -> Iterator[Change]:
    """An activation inserted before a step of the checked function: `linear(x[0], W, b)` as
    `linear(np.tanh(x[0]), W, b)` (HF's pooler kept without its dense map). Only the checked
    function's own steps: its helpers' steps have their own checks."""
    if not (context.instance.path == context.root and isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name) and node.func.id in context.instance.children
            and node.args):
        return
    inner = node.args[0]
    if isinstance(inner, ast.Call) and getattr(inner.func, "id", None) in \
            context.instance.children:
        return  # between two steps: after the inner one, not before the step as it reads
    if isinstance(inner, ast.Name) and inner.id in parameters_of(context.instance.node):
        return  # the function's own input (sizes H, W, P in counting functions)
    if isinstance(inner, ast.Subscript) and getattr(inner.value, "attr", None) == "shape":
        return  # a size (the mask's T = x.shape[-2]), not an array a step transforms
    for name, (words, function) in INSERTED.items():
        bound = f"{PREFIX}inserted_{name}"
        yield Change(f"{name}-before-{step_name(context, node)}",
                     f"In {where(context)}, `{code(node.args[0])}` goes through {words} before "
                     f"the step `{code(node)}`: the lecture has no activation there.",
                     lambda n, bound=bound: with_first(n, ast.Call(ast.Name(bound, ast.Load()),
                                                                   [n.args[0]], [])),
                     ((bound, function),))


def bias_after_activation(context: Context, node: ast.AST) -> Iterator[Change]:
    """A linear map's bias added after the activation instead of inside it: `act(x @ W1 + b1)`
    as `act(x @ W1) + b1` (a layer written `gelu(h @ W1) + b1`, or a fused kernel's order)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ACTIVATION_CALLS and len(node.args) == 1):
        return
    inner = node.args[0]
    if not (isinstance(inner, ast.Call) and callee(inner) == "linear" and len(inner.args) == 3):
        return
    bias = inner.args[2]

    def moved(n: ast.Call) -> ast.AST:
        unbiased = copy.copy(n.args[0])
        unbiased.args = [*n.args[0].args[:2], ast.Constant(0.0)]
        return ast.BinOp(with_first(n, unbiased), ast.Add(), copy.deepcopy(bias))

    shown = f"{code(inner.args[0])} @ {code(inner.args[1])}"
    yield Change(f"{slug(code(bias))}-after-activation",
                 f"In {where(context)}, the bias `{code(bias)}` is added after the activation, "
                 f"`{callee(node)}({shown}) + {code(bias)}`, instead of inside it, "
                 f"`{callee(node)}({shown} + {code(bias)})`.", moved)


def applied_twice(context: Context, node: ast.AST) -> Iterator[Change]:
    """A step that updates a name applied twice, `x = layer_norm(layer_norm(x, g, b), g, b)`
    (the final LayerNorm written in the last block and again after the loop)."""
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id in context.instance.children and node.value.args
            and isinstance(node.value.args[0], ast.Name)
            and node.value.args[0].id == node.targets[0].id):
        return

    def twice(n: ast.Assign) -> ast.Assign:
        new = copy.copy(n)
        new.value = with_first(n.value, copy.deepcopy(n.value))
        return new

    yield Change(f"{step_name(context, node.value)}-twice",
                 f"In {where(context)}, the step `{code(node.value)}` is applied twice: its "
                 f"output goes through it again.", twice)


CONCATENATIONS = frozenset({"vstack", "concatenate", "row_stack"})


def _prepended(statement: ast.stmt) -> tuple[str, ast.Call] | None:
    """(n, the call) for `n = np.vstack([a, ..., n])`: rows put before n's, along axis 0 (or
    after them, `np.vstack([n, a])`, once an edit reversed the parts: both slips at once)."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)):
        return None
    name, call = statement.targets[0].id, statement.value
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr in CONCATENATIONS and len(call.args) == 1 and not call.keywords
            and isinstance(call.args[0], (ast.List, ast.Tuple)) and len(call.args[0].elts) > 1):
        return None
    ends = (call.args[0].elts[0], call.args[0].elts[-1])
    return (name, call) if any(isinstance(e, ast.Name) and e.id == name for e in ends) else None


def _added_to(statement: ast.stmt, name: str) -> list[ast.BinOp]:
    """The sums `name + t` (or `t + name`) in `statement`, t not reading `name`."""
    found = []
    for node in ast.walk(statement):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            for side, other in (("left", "right"), ("right", "left")):
                mine, term = getattr(node, side), getattr(node, other)
                if isinstance(mine, ast.Name) and mine.id == name and not any(
                        isinstance(n, ast.Name) and n.id == name for n in ast.walk(term)):
                    found.append(node)
    return found


def _callee_name(call: ast.Call) -> str:
    return call.func.attr if isinstance(call.func, ast.Attribute) else code(call.func)


def _term(binop: ast.BinOp, name: str) -> ast.AST:
    return binop.right if isinstance(binop.left, ast.Name) and binop.left.id == name else \
        binop.left


def _rows_of(term: ast.AST, name: str, first: bool) -> ast.AST:
    """`term[:len(name)]` (its first rows) or `term[-len(name):]` (its last)."""
    length = ast.Call(ast.Name("len", ast.Load()), [ast.Name(name, ast.Load())], [])
    bound = ast.Slice(None, length) if first else ast.Slice(ast.UnaryOp(ast.USub(), length), None)
    return ast.Subscript(copy.deepcopy(term), bound, ast.Load())


def _sum_after_prepending(body: list, index: int) -> tuple | None:
    """(name, the concatenation, a copy of statement index + 1, its one sum `name + t` in that
    copy) when statement `index` is `name = np.vstack([..., name])` and the next adds one term
    to `name`; None otherwise (or when an edit below took either away)."""
    found = _prepended(body[index]) if index + 1 < len(body) else None
    following = copy.deepcopy(body[index + 1]) if found else None
    sums = _added_to(following, found[0]) if found else []
    return (*found, following, sums[0]) if len(sums) == 1 else None


def _added_first(body_owner: ast.AST, index: int, first: bool) -> ast.AST | None:
    """`body_owner` with the sum of statement index + 1 done before the concatenation of
    statement `index`, on n's rows alone; None when an edit below took either away."""
    body = body_owner.body
    found = _sum_after_prepending(body, index)
    if found is None:
        return None
    name, _, following, total = found
    added = ast.Assign([ast.Name(name, ast.Store())],
                       ast.BinOp(ast.Name(name, ast.Load()), ast.Add(),
                                 _rows_of(_term(total, name), name, first)))
    following = Replaced(total, ast.Name(name, ast.Load())).visit(following)
    new = copy.copy(body_owner)
    new.body = [*body[:index], added, body[index], following, *body[index + 2:]]
    return new


def added_before_concatenation(context: Context, node: ast.AST) -> Iterator[Change]:
    """Two steps in the other order: `x = np.vstack([cls, x])` then `x + pos` as `x + pos`
    first, on x's rows alone, then the concatenation (Keras's PatchEncoder: the positions of
    the patches only, `pos[:N]`, and none for [CLS]); the term cut to x's rows, its first ones
    or its last ones."""
    body = getattr(node, "body", None)
    if not isinstance(body, list):
        return
    for index in range(len(body) - 1):
        found = _sum_after_prepending(body, index)
        if found is None:
            continue
        name, concatenation, _, total = found
        term = _term(total, name)
        for first, which, after in (
                (True, "first", "each row of `{n}` gets the one meant for the row before it"),
                (False, "last", "the rows of `{n}` get their own")):
            rows = _rows_of(term, name, first)
            yield Change(f"{slug(code(term))}-{which}-rows-before-{_callee_name(concatenation)}",
                         f"In {where(context)}, `{code(total)}` is added before "
                         f"`{code(concatenation)}`, to the rows of `{name}` alone, with the "
                         f"{which} rows of `{code(term)}`, `{code(rows)}`: the rows it joins to "
                         f"`{name}` get nothing added and {after.format(n=name)}.",
                         lambda n, index=index, first=first: _added_first(n, index, first))


_ROW_TERMS = {"first_row_to_the_rest": first_row_to_the_rest, "first_row_again": first_row_again}


def first_row_to_every_row(context: Context, node: ast.AST) -> Iterator[Change]:
    """`x = np.vstack([cls, x])` then `x + pos` with pos's first row, the one of the rows put
    first, added to every later row as well (ViTPose's `x + pos[:, 1:] + pos[:, :1]`), or to
    the first row once more (MAE's `cls + pos[:, :1]` put first, then the whole `pos` added)."""
    body = getattr(node, "body", None)
    if not isinstance(body, list):
        return
    for index in range(len(body) - 1):
        found = _sum_after_prepending(body, index)
        if found is None:
            continue
        name, concatenation, _, total = found
        term, first = code(_term(total, name)), code(concatenation.args[0].elts[0])
        for bound, detail, words in (
                ("first_row_to_the_rest", "to-every-row", "to every later row: row i gets "
                 f"`{term}[i] + {term}[0]`, where it gets its own row alone"),
                ("first_row_again", "twice", f"once more, to `{first}` before it is put first:"
                 f" row 0 gets `{first} + 2 * {term}[0]`, where it gets `{term}[0]` once")
        )[:1 if "/" in context.instance.path else 2]:  # the checked function's own: twice
            yield Change(f"{slug(term)}[0]-{detail}",
                         f"In {where(context)}, `{code(total)}` also adds `{term}[0]`, the row of "
                         f"what `{code(concatenation)}` puts first, {words}.",
                         lambda n, index=index, b=PREFIX + bound: _first_row_added(n, index, b),
                         ((PREFIX + bound, _ROW_TERMS[bound]),))


def _first_row_added(body_owner: ast.AST, index: int, bound: str) -> ast.AST | None:
    """`body_owner` with statement index + 1's sum `x + t` as `x + t + bound(t)`."""
    found = _sum_after_prepending(body_owner.body, index)
    if found is None:
        return None
    name, _, following, total = found
    more = ast.BinOp(copy.deepcopy(total), ast.Add(), ast.Call(
        ast.Name(bound, ast.Load()), [copy.deepcopy(_term(total, name))], []))
    following = Replaced(total, more).visit(following)
    new = copy.copy(body_owner)
    new.body = [*body_owner.body[:index + 1], following, *body_owner.body[index + 2:]]
    return new


def _mean_square_about(x, axis, root):
    """The squares of x's deviations from its means along `axis`, averaged over every element
    (their square root for a standard deviation): a scalar."""
    deviations = np.asarray(x) - np.mean(x, axis=axis, keepdims=True)
    value = np.mean(np.square(deviations))
    return np.sqrt(value) if root else value


def spread_over_all(context: Context, node: ast.AST) -> Iterator[Change]:
    """A variance whose deviations are taken from the right means (each token's) but averaged
    over the whole array: `((x - mu) ** 2).mean()` for `np.var(x, axis=-1, keepdims=True)`, a
    reduction over all axes where one is meant."""
    if not (isinstance(node, ast.Call) and _callee_name(node) in ("var", "std") and node.args):
        return
    axis = next((k.value for k in node.keywords if k.arg == "axis"), None)
    if axis is None:
        return
    root = _callee_name(node) == "std"
    bound = f"{PREFIX}mean_square_about"
    words = "standard deviation" if root else "variance"
    yield Change(f"{_callee_name(node)}.deviations-averaged-over-all",
                 f"In {where(context)}, the {words} takes each deviation from its own mean "
                 f"along axis {code(axis)} but averages the squares over the whole array: "
                 f"`((x - x.mean(axis={code(axis)}, keepdims=True)) ** 2).mean()` (no axis) "
                 f"instead of `{code(node)}`, one value per row.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()),
                                    [n.args[0], change.keyword(n, "axis"), ast.Constant(root)],
                                    []),
                 ((bound, _mean_square_about),))


def _product(node: ast.AST) -> bool:
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)


def _split_the_other_way(node: ast.Call) -> ast.AST | None:
    """`a.reshape(..., m, n)` as `a.reshape(..., n, m).swapaxes(-1, -2)`: the same shape, the
    axis split in the other order; None when the call is no longer such a reshape."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "reshape" and len(node.args) >= 3 and not node.keywords
            and not any(isinstance(a, ast.Starred) for a in node.args[-2:])
            and not _product(node.args[-1])):  # a merge of axes (heads * d_h), not a split
        return None
    new = copy.copy(node)
    new.args = [*node.args[:-2], node.args[-1], node.args[-2]]
    return ast.Call(ast.Attribute(new, "swapaxes", ast.Load()),
                    [ast.Constant(-1), ast.Constant(-2)], [])


def split_order(context: Context, node: ast.AST) -> Iterator[Change]:
    """An axis split into (m, n) the other way round, as (n, m) then swapped: the m groups take
    every m-th element (interleaved) instead of n consecutive ones (heads split as
    `reshape(T, d_h, heads)`, each head taking the columns h, h + heads, ...)."""
    new = _split_the_other_way(node)
    if new is None:
        return
    groups, size = code(node.args[-2]), code(node.args[-1])
    yield Change("reshape-split-interleaved",
                 f"In {where(context)}, `{code(node)}` splits its last axis the other way round, "
                 f"`{code(new)}`: each of the `{groups}` groups takes every `{groups}`-th element "
                 f"(interleaved) instead of `{size}` consecutive ones.",
                 lambda n: _split_the_other_way(n))


# tried in this order, after operators.OPERATORS
def _masking(statement: ast.stmt) -> tuple[ast.expr, str, ast.Call] | None:
    """(the guard, n, the where) for `if <guard>: n = np.where(mask, n, fill)`."""
    if not (isinstance(statement, ast.If) and len(statement.body) == 1 and not statement.orelse):
        return None
    inner = statement.body[0]
    if not (isinstance(inner, ast.Assign) and len(inner.targets) == 1
            and isinstance(inner.targets[0], ast.Name) and isinstance(inner.value, ast.Call)
            and isinstance(inner.value.func, ast.Attribute) and inner.value.func.attr == "where"
            and len(inner.value.args) == 3 and isinstance(inner.value.args[1], ast.Name)
            and inner.value.args[1].id == inner.targets[0].id):
        return None
    return statement.test, inner.targets[0].id, inner.value


def _step_reading(statement: ast.stmt, name: str) -> ast.Call | None:
    """The first helper step of `statement` given `name` as its first argument."""
    return next((n for n in ast.walk(statement) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Name) and n.func.id.startswith(PREFIX) and n.args
                 and isinstance(n.args[0], ast.Name) and n.args[0].id == name), None)


class _Masked(ast.NodeTransformer):
    """The step call `target` (by its place) as `np.where(mask, step, 0) if guard else step`."""

    def __init__(self, target: ast.Call, guard: ast.expr, where: ast.Call):
        self.target, self.guard, self.where = target, guard, where

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if ast.dump(node) != ast.dump(self.target):
            return self.generic_visit(node)
        masked = copy.deepcopy(self.where)
        masked.args = [masked.args[0], node, ast.Constant(0.0)]
        return ast.IfExp(copy.deepcopy(self.guard), masked, node)


def mask_after_step(context: Context, node: ast.AST) -> Iterator[Change]:
    """A mask applied after the step instead of before it: `np.where(mask, softmax(s), 0)` for
    `softmax(np.where(mask, s, -inf))` (the weights multiplied by the triangle, d2l's
    masked_softmax misread): each row no longer sums to 1."""
    if not (isinstance(node, ast.FunctionDef) and node is context.instance.node):
        return
    for i, statement in enumerate(node.body):
        masking = _masking(statement)
        if masking is None:
            continue
        guard, name, where_call = masking
        j = next((j for j in range(i + 1, len(node.body))
                  if _step_reading(node.body[j], name) is not None), None)
        if j is None:
            continue
        step = _step_reading(node.body[j], name)

        def moved(n, i=i, j=j, step=step, guard=guard, where_call=where_call):
            new = copy.copy(n)
            body = list(n.body)
            body[j] = _Masked(step, guard, where_call).visit(copy.deepcopy(n.body[j]))
            new.body = body[:i] + body[i + 1:]
            return new

        yield Change(f"mask-after-{slug(code(step.func))}",
                     f"In {where(context)}, the mask is applied after `{code(step)}`, to its "
                     f"output with 0, instead of to `{name}` before it "
                     f"(`{code(where_call)}`): the weights of a row no longer sum to 1.", moved)


OPERATORS = {"pool": pool, "pool_before_step": pool_before_step,
             "activation_inserted": activation_inserted, "bias_after": bias_after_activation,
             "twice": applied_twice,
             "concatenation": added_before_concatenation,
             "first_row_to_all": first_row_to_every_row,
             "spread": spread_over_all, "split": split_order, "mask_after": mask_after_step}
