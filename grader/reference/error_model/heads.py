"""Operators on how attention cuts its heads (`split_heads`, `merge_heads` and the check of the
head count around them), as operators in operators.py; the new code calls a function of this
module, bound in the rewritten function's globals.

A head count that is never checked: the reference refuses (ValueError) a number of heads that
does not divide the width d; code with no such check returns a value there, and which one
depends on how it cuts the heads:

- a head loop that writes each head's d // heads columns into a preallocated output
  (`out = np.zeros_like(q)`; `out[:, h * d_h:(h + 1) * d_h] = ...`, the from-scratch NumPy
  head loop of many tutorials): the last d % heads columns are never attended and reach the
  output projection as zeros;
- heads cut by `np.array_split(q, heads, axis=-1)` (picoGPT's `np.split` written with
  array_split, which accepts an uneven split): the first d % heads heads get one column more,
  each head's scores scaled by its own width (picoGPT's `q.shape[-1]`) or by d // heads;
- heads of the rounded-up width, `head_dim = math.ceil(d / heads)` and a loop over the slices
  `h * head_dim:(h + 1) * head_dim` (PyTorch ViT ports that size their heads so, such as a
  vit_fashionmnist `MultiHeadSelfAttention`): the last heads are cut short by the end of the
  array, or empty, every head's scores scaled by sqrt(ceil(d / heads)).

A code that reshapes to (heads, d // heads) or calls `np.split` raises ValueError by itself, as
the reference does. Each edit leaves the values alone wherever heads divides d, so it is named
only on a case that asked for the refusal and got a value, and only when it gives that very
value (mistakes.generated).

The heads interleaved in the split and the merge alike, (d // heads, heads) per token: one
slip where order.py's operators make two (a split, a merge the other way), which the search
tries as a pair only when one of them comes close alone.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, callee, code, where
from .tree import PREFIX, SKIPPED


def whole_heads(y, heads):
    """`y`'s first heads * (d // heads) columns: the ones a loop over d // heads wide heads
    reads."""
    y = np.asarray(y)
    return y[..., :heads * (y.shape[-1] // heads)]


def zero_padded(y, like):
    """`y` with zero columns appended up to the width of `like`: a preallocated output whose
    last columns no head wrote."""
    y, width = np.asarray(y), np.shape(like)[-1]
    return np.concatenate([y, np.zeros((*y.shape[:-1], width - y.shape[-1]), y.dtype)], axis=-1)


def uneven_heads(y, heads):
    """`np.array_split(y, heads, axis=-1)`, each head with the (T, width) layout of the
    reference's split: [..., T, width_h] per head, the first d % heads one column wider."""
    return np.array_split(np.asarray(y), heads, axis=-1)


def ceil_heads(y, heads):
    """`y[..., h * w:(h + 1) * w]` for each head h, w = ceil(d / heads): a loop over heads of
    the rounded-up width, the last ones cut short by the end of the array, or empty."""
    y = np.asarray(y)
    width = -(-y.shape[-1] // heads)
    return [y[..., h * width:(h + 1) * width] for h in range(heads)]


def ceil_width(y, heads):
    """ceil(d / heads) for `y`'s width d: the head width every head's scores are scaled by."""
    return -(-np.shape(y)[-1] // heads)


def per_head(step, heads_args, other_args, base):
    """`step(q_h, k_h, v_h, *other_args)` for each head, side by side on the last axis; `base`
    (when given) the width every head's scores are scaled by, whatever its own: q_h is scaled
    by sqrt(width_h / base) so that the step's own 1/sqrt(width_h) becomes 1/sqrt(base)."""
    outputs = []
    for parts in zip(*heads_args, strict=True):
        first, *rest = parts
        if base is not None:
            first = first * np.sqrt(first.shape[-1] / base)
        outputs.append(step(first, *rest, *other_args))
    return np.concatenate(outputs, axis=-1)


def _projections(function: ast.FunctionDef) -> list[tuple[int, ast.Assign]]:
    """(index, statement) of each `name = split_heads(<array>, <count>)` in the body."""
    return [(i, s) for i, s in enumerate(function.body)
            if isinstance(s, ast.Assign) and len(s.targets) == 1
            and isinstance(s.targets[0], ast.Name) and isinstance(s.value, ast.Call)
            and callee(s.value) == "split_heads" and len(s.value.args) == 2]


def _merge(function: ast.FunctionDef, names: set[str]) -> tuple[int, ast.Call, ast.Call] | None:
    """(index, merge call, step call) of the statement `out = merge_heads(step(q, k, v, ...))`
    whose step reads the split projections `names` first."""
    for i, s in enumerate(function.body):
        for node in ast.walk(s):
            if (isinstance(node, ast.Call) and callee(node) == "merge_heads"
                    and len(node.args) == 1 and isinstance(step := node.args[0], ast.Call)
                    and not step.keywords and len(step.args) >= len(names)
                    and all(isinstance(a, ast.Name) and a.id in names
                            for a in step.args[:len(names)])):
                return i, node, step
    return None


def _check(function: ast.FunctionDef) -> int | None:
    """The index of the statement that calls a validation helper on the head count
    (`check_heads(x.shape[-1], heads)`), else None."""
    return next((i for i, s in enumerate(function.body)
                 if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
                 and isinstance(s.value.func, ast.Name) and s.value.func.id in SKIPPED
                 and "heads" in s.value.func.id), None)


class _Swapped(ast.NodeTransformer):
    """The node `old` (by identity) replaced by `new(old)`."""

    def __init__(self, old: ast.AST, new):
        self.old, self.new = old, new

    def visit(self, node: ast.AST) -> ast.AST:
        return self.new(node) if node is self.old else self.generic_visit(node)


def _bound(name: str, *args: ast.AST) -> ast.Call:
    return ast.Call(ast.Name(PREFIX + name, ast.Load()), list(args), [])


def unchecked_heads(context: Context, node: ast.AST) -> Iterator[Change]:
    """No check that the head count divides the width, and heads cut one of the ways a code
    without it returns a value (the module's docstring): only a function that checks the
    count, splits its projections into heads and merges what one step makes of them."""
    if not isinstance(node, ast.FunctionDef) or "/" in context.instance.path:
        return  # the checked function's own refusal: a caller's checks pass it valid counts
    check, projections = _check(node), _projections(node)
    if check is None or len(projections) < 2:
        return
    names = {s.targets[0].id for _, s in projections}
    merge = _merge(node, names)
    if merge is None or merge[0] <= max(i for i, _ in projections):
        return
    index, merge_call, step = merge
    place = _path(node.body[index], merge_call)
    width_of = copy.deepcopy(projections[0][1].value.args[0])  # a projection: its width is d
    count = copy.deepcopy(projections[0][1].value.args[1])
    bound = (("whole_heads", whole_heads), ("zero_padded", zero_padded),
             ("uneven_heads", uneven_heads), ("per_head", per_head),
             ("ceil_heads", ceil_heads), ("ceil_width", ceil_width))
    names_bound = tuple((PREFIX + n, f) for n, f in bound)

    def truncated(n: ast.FunctionDef) -> ast.FunctionDef:
        new = copy.deepcopy(n)
        body = list(new.body)
        for i, _ in projections:
            call = body[i].value
            call.args[0] = _bound("whole_heads", call.args[0], copy.deepcopy(call.args[1]))
        merged = _find(body[index], place, merge_call)
        body[index] = _Swapped(merged, lambda m: _bound(
            "zero_padded", m, copy.deepcopy(width_of))).visit(body[index])
        del body[check]
        new.body = body
        return new

    def uneven(base: bool, cut: str = "uneven_heads"):
        def rewrite(n: ast.FunctionDef) -> ast.FunctionDef:
            new = copy.deepcopy(n)
            body = list(new.body)
            for i, _ in projections:
                call = body[i].value
                body[i].value = _bound(cut, call.args[0], call.args[1])
            merged = _find(body[index], place, merge_call)
            inner = merged.args[0]
            shared = len(names)
            scale = (ast.BinOp(ast.Subscript(ast.Attribute(copy.deepcopy(width_of), "shape",
                                                           ast.Load()),
                                             ast.Constant(-1), ast.Load()),
                               ast.FloorDiv(), copy.deepcopy(count))
                     if base else ast.Constant(None))
            if cut == "ceil_heads":  # every head scaled by the rounded-up width
                scale = _bound("ceil_width", copy.deepcopy(width_of), copy.deepcopy(count))
            body[index] = _Swapped(merged, lambda m: _bound(
                "per_head", inner.func,
                ast.Tuple(list(inner.args[:shared]), ast.Load()),
                ast.Tuple(list(inner.args[shared:]), ast.Load()), scale)).visit(body[index])
            del body[check]
            new.body = body
            return new
        return rewrite

    lead = (f"In {where(context)}, nothing checks that `{code(count)}` divides the width d "
            "(the model solution's code raises ValueError when d % heads != 0), so where it does "
            "not your code returns a value: ")
    yield Change("heads-unchecked-last-columns-unattended", lead + (
        "each head takes d // heads columns (a loop over `h * d_h:(h + 1) * d_h` writing into "
        "an output of zeros), so the last d % heads columns are never attended and reach the "
        "output projection as zeros. Raise ValueError when d % heads != 0."),
        truncated, names_bound)
    yield Change("heads-unchecked-array-split", lead + (
        "the heads are cut by `np.array_split(..., heads, axis=-1)`, which accepts an uneven "
        "split (the first d % heads heads get one column more), each head's scores scaled by "
        "its own width. Raise ValueError when d % heads != 0 (`np.split` would)."),
        uneven(False), names_bound)
    yield Change("heads-unchecked-array-split-scale-d//heads", lead + (
        "the heads are cut by `np.array_split(..., heads, axis=-1)`, which accepts an uneven "
        "split (the first d % heads heads get one column more), every head's scores scaled by "
        "sqrt(d // heads) whatever its width. Raise ValueError when d % heads != 0 (`np.split` "
        "would)."), uneven(True), names_bound)
    yield Change("heads-unchecked-ceil-width", lead + (
        "each head takes ceil(d / heads) columns (`head_dim = math.ceil(d / heads)`, head h "
        "the slice `h * head_dim:(h + 1) * head_dim`), so the last heads get fewer columns or "
        "none, every head's scores scaled by sqrt(ceil(d / heads)). Raise ValueError when "
        "d % heads != 0."), uneven(True, "ceil_heads"), names_bound)


def split_interleaved(y, heads):
    """[..., T, d] -> [..., heads, T, d // heads], head h taking the columns h, h + heads, ...:
    each token's columns read as (d // heads, heads)."""
    y = np.asarray(y)
    *lead, T, d = y.shape
    return np.moveaxis(y.reshape(*lead, T, d // heads, heads), -1, -3)


def merge_interleaved(z):
    """The inverse of `split_interleaved`: head h's outputs back to the columns h, h + heads."""
    z = np.asarray(z)
    *lead, heads, T, d_h = z.shape
    return np.moveaxis(z, -3, -1).reshape(*lead, T, d_h * heads)


def heads_interleaved(context: Context, node: ast.AST) -> Iterator[Change]:
    """The heads laid out as (d // heads, heads) per token in the split and in the merge alike
    (flax's DenseGeneral output reshaped `(T, head_dim, heads)`, einops' `(d h)` where `(h d)`
    belongs in both rearranges): head h attends over the interleaved columns h, h + heads, ...
    and writes back to them, right with one head only. A split alone or a merge alone the other
    way are order.py's; this is the one slip made in both."""
    if not isinstance(node, ast.FunctionDef) or (found := split_and_merged(node)) is None:
        return
    projections, (index, merge_call, _) = found
    count = code(projections[0][1].value.args[1])
    place = _path(node.body[index], merge_call)

    def rewrite(n: ast.FunctionDef) -> ast.FunctionDef:
        new = copy.deepcopy(n)
        body = list(new.body)
        for i, _ in projections:
            body[i].value.func = ast.Name(PREFIX + "split_interleaved", ast.Load())
        merged = _find(body[index], place, merge_call)
        merged.func = ast.Name(PREFIX + "merge_interleaved", ast.Load())
        new.body = body
        return new

    yield Change("heads-interleaved-split-and-merge",
                 f"In {where(context)}, your heads take interleaved columns: each token's "
                 f"columns are read as (d // {count}, {count}) when split into heads and written "
                 f"back the same way when merged, so head h works on the columns h, h + "
                 f"{count}, h + 2 * {count}, ...; the lecture's head h takes the contiguous "
                 f"block h * d_h:(h + 1) * d_h, reshape(T, {count}, d_h), not reshape(T, d_h, "
                 f"{count}) (right with one head only).",
                 rewrite, ((PREFIX + "split_interleaved", split_interleaved),
                           (PREFIX + "merge_interleaved", merge_interleaved)))


def _path(tree: ast.AST, like: ast.AST) -> list[tuple[str, int | None]] | None:
    """The fields (name, index in a list or None) that lead from `tree` to the node `like` (by
    identity), else None."""
    if tree is like:
        return []
    for key, value in ast.iter_fields(tree):
        for i, item in (enumerate(value) if isinstance(value, list) else ((None, value),)):
            if isinstance(item, ast.AST) and (rest := _path(item, like)) is not None:
                return [(key, i), *rest]
    return None


def call_place(statement: ast.AST, call: ast.Call) -> tuple[list, ast.Call]:
    """(`call`'s place in `statement`, `call`): what `_find` takes to find it again in a copy
    of the statement that another edit of a pair may have changed."""
    return _path(statement, call), call


def _find(tree: ast.AST, place: list, like: ast.Call) -> ast.Call:
    """The call of `tree` (the statement that holds `like` as the rewrite sees it: a copy, with
    another edit of a pair maybe applied below it) at `like`'s place in the original statement
    (`_path`), found by that place, not by its text: a pair's other edit may have changed the
    call's arguments (`attention(k, q, v, mask)`), and the rewrite keeps that change. ValueError
    (the two edits do not compose: runs.compiled) when the place holds no call of the same
    function any more."""
    node = tree
    for key, i in place:
        node = getattr(node, key, None)
        if i is not None:
            node = node[i] if isinstance(node, list) and i < len(node) else None
    if not (isinstance(node, ast.Call) and callee(node) == callee(like)
            and [type(a) for a in node.args] == [type(a) for a in like.args]):
        raise ValueError(f"`{callee(like)}(...)` is no longer where the rewrite expects it")
    return node


def folded_rows(y, heads):
    """[..., T, d] -> [..., T * heads, d // heads]: each token's heads as rows of their own."""
    y = np.asarray(y)
    *lead, T, d = y.shape
    return y.reshape(*lead, T * heads, d // heads)


def unfolded_rows(z, heads):
    """The inverse of `folded_rows`: [..., T * heads, d_h] -> [..., T, heads * d_h]."""
    z = np.asarray(z)
    *lead, rows, d_h = z.shape
    return z.reshape(*lead, rows // heads, heads * d_h)


def folded_mask(mask, heads):
    """A causal triangle over the folded rows (a mask built from the scores' own shape,
    `np.tril(np.ones(att.shape))`); None stays None."""
    return None if mask is None else np.tri(np.shape(mask)[-1] * heads, dtype=bool)


def token_groups(y, heads):
    """[..., T, d] -> [..., heads, T // heads, d]: `np.split(y, heads)` on the tokens' axis,
    each group with every column (ValueError where heads does not divide T, as np.split)."""
    y = np.asarray(y)
    *lead, T, d = y.shape
    if T % heads:
        raise ValueError("array split does not result in an equal division")
    return y.reshape(*lead, heads, T // heads, d)


def groups_joined(z, heads):
    """The inverse of `token_groups`: the groups' rows one after the other, [..., T, d]."""
    z = np.asarray(z)
    *lead, groups, n, d = z.shape
    return z.reshape(*lead, groups * n, d)


def group_mask(mask, heads):
    """Each group's own causal triangle: the top-left (T // heads)-square of the mask."""
    if mask is None:
        return None
    n = np.shape(mask)[-1] // heads
    return np.asarray(mask)[..., :n, :n]


def scaled_as_heads(q, heads):
    """`q` scaled so that a step dividing by sqrt(its width w) divides by sqrt(w // heads): the
    lecture's 1/sqrt(d_h), d_h = d // heads, kept where the heads are cut another way."""
    q = np.asarray(q)
    width = q.shape[-1]
    return q * np.sqrt(width / (width // heads))


def last_head(z):
    """[..., heads, T, d_h] with every head's output the last head's: one buffer listed `heads`
    times (`[np.zeros((T, d_h))] * heads`), written by each head in turn."""
    z = np.asarray(z)
    return np.broadcast_to(z[..., -1:, :, :], z.shape).copy()


def relaid(n, projections, index, merged_at, split, merge, mask=None, first=None):
    """`n` (the function) with each projection's `split_heads(y, heads)` made `split(y, heads)`,
    its merge `merge_heads(step(q, k, v, *rest))` made `merge(step(first(q, heads), k, v,
    *mask(rest, heads)), heads)`: the heads cut and put back another way. `merged_at`: the merge
    call's place in its statement and the call (`_find`)."""
    new = copy.deepcopy(n)
    body = list(new.body)
    count = projections[0][1].value.args[1]
    for i, _ in projections:
        call = body[i].value
        body[i].value = _bound(split, call.args[0], call.args[1])
    merged = _find(body[index], *merged_at)
    step, shared = merged.args[0], len(projections)
    if mask is not None:
        step.args[shared:] = [_bound(mask, a, copy.deepcopy(count)) for a in step.args[shared:]]
    if first is not None:
        step.args[0] = _bound(first, step.args[0], copy.deepcopy(count))
    body[index] = _Swapped(merged, lambda m: _bound(merge, m.args[0], copy.deepcopy(count))
                           ).visit(body[index])
    new.body = body
    return new


def split_and_merged(node: ast.FunctionDef):
    """(projections, (index, merge call, step call)) of a function that splits its projections
    into heads and merges what one step makes of them, else None."""
    projections = _projections(node)
    if len(projections) < 2:
        return None
    merge = _merge(node, {s.targets[0].id for _, s in projections})
    if merge is None or merge[0] <= max(i for i, _ in projections):
        return None
    return projections, merge


def heads_elsewhere(context: Context, node: ast.AST) -> Iterator[Change]:
    """The heads cut along another axis than each token's columns: folded into the rows
    (PyTorch's `q.view(B * n_head, T, hs)` then one `bmm`, as fairseq's MultiheadAttention
    does, ported with the batch axis dropped: every head's queries meet every head's keys), or
    `np.split(Q, heads)` on its default axis 0 (Kyubyong/transformer's `tf.split(..., axis=0)`
    on the batch, ported to one sequence: groups of tokens, each with every column), with the
    lecture's 1/sqrt(d // heads) kept or the group's own width's. Right with one head only."""
    if not isinstance(node, ast.FunctionDef) or (found := split_and_merged(node)) is None:
        return
    projections, (index, merge_call, _) = found
    count = code(projections[0][1].value.args[1])
    merged_at = call_place(node.body[index], merge_call)
    names = tuple((PREFIX + f.__name__, f) for f in (
        folded_rows, unfolded_rows, folded_mask, token_groups, groups_joined, group_mask,
        scaled_as_heads))
    yield Change("heads-folded-into-rows",
                 f"In {where(context)}, the heads are folded into the rows: each projection is "
                 f"reshaped to (T * {count}, d // {count}), as some code does (PyTorch's "
                 f"`q.view(B * n_head, T, hs)`, the batch axis dropped), and one attention runs "
                 f"over all those rows, so every head's queries attend to every head's keys "
                 f"(a causal triangle spanning the T * {count} rows); the lecture gives each head "
                 "its own (T, T) scores: "
                 f"reshape to (T, {count}, d_h) and move the head axis first (right with one "
                 f"head only).",
                 lambda n: relaid(n, projections, index, merged_at, "folded_rows",
                                   "unfolded_rows", "folded_mask"), names)
    for detail, first, scale in (
            ("heads-split-along-tokens", "scaled_as_heads", f"sqrt(d // {count})"),
            ("heads-split-along-tokens-scale-d", None, "sqrt(d), their width")):
        yield Change(detail,
                     f"In {where(context)}, the heads are cut along the tokens, not the "
                     f"columns (`np.split(Q, {count})` splits axis 0 by default): each head gets "
                     f"T // {count} tokens with all d columns, attends only within its group "
                     f"(scores divided by {scale}), and the groups are joined back by rows; the "
                     f"lecture cuts each token's columns, `np.split(Q, {count}, axis=-1)` (right "
                     f"with one head only).",
                     lambda n, first=first: relaid(
                         n, projections, index, merged_at, "token_groups", "groups_joined",
                         "group_mask", first), names)


def head_buffers_aliased(context: Context, node: ast.AST) -> Iterator[Change]:
    """Every head's output written into one shared buffer, so each head's block of the merge
    holds the last head's output: `[np.zeros((T, d_h))] * heads` lists one array `heads` times
    (Python's `[x] * n` aliasing pitfall, the Python FAQ's "How do I create a multidimensional
    list?"). Right with one head only."""
    if not isinstance(node, ast.FunctionDef) or (found := split_and_merged(node)) is None:
        return
    _, (index, merge_call, _) = found
    count = code(found[0][0][1].value.args[1])
    place = _path(node.body[index], merge_call)

    def rewrite(n: ast.FunctionDef) -> ast.FunctionDef:
        new = copy.deepcopy(n)
        merged = _find(new.body[index], place, merge_call)
        merged.args[0] = _bound("last_head", merged.args[0])
        return new

    yield Change("head-buffers-aliased-last-head",
                 f"In {where(context)}, every head's output lands in one shared buffer, so "
                 f"after the loop each head's block holds the last head's output "
                 f"(`[np.zeros((T, d_h))] * {count}` lists one array {count} times: writing into "
                 f"one writes into all); give each head its own array, `[np.zeros((T, d_h)) "
                 f"for _ in range({count})]` (right with one head only).",
                 rewrite, ((PREFIX + "last_head", last_head),))


OPERATORS = {"unchecked_heads": unchecked_heads, "heads_interleaved": heads_interleaved,
             "heads_elsewhere": heads_elsewhere, "head_buffers": head_buffers_aliased}
