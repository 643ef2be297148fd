"""Operators on the order of things: axes reshaped into place instead of transposed
(`reshape(heads, T, d_h)` for `reshape(T, heads, d_h).swapaxes(0, 1)`), two sizes of a reshape
given the other way round (`W // P` for `H // P`), two arguments of a
step given the other way round (`attention(q, v, k)`), a scale applied to a step's output
instead of its input (`softmax(s) / c` for `softmax(s / c)`), two nested steps in the other
order (`norm(attn(x))` for `attn(norm(x))`), a division written as a product, two axes of a
transpose swapped (`axes_swapped`, tried in choices.py's order, where it is listed). Each is an
operator as in operators.py (`f(context, node) -> iterator of Change`); OPERATORS lists them in
the order tried, after names.OPERATORS.
"""
from __future__ import annotations

import ast
import copy
import itertools
from collections.abc import Iterator

from .change import EFFECT, Change, Context, code, is_checked_function, prepended, slug, where
from .grids import READ_TRANSPOSED, cuts_patches
from .weights import multiplied


def _int(node: ast.AST) -> int | None:
    try:
        value = ast.literal_eval(node)
    except ValueError:
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _reshaped_into_place(node: ast.AST) -> ast.AST | None:
    """`a.reshape(*s).swapaxes(i, j)` as `a.reshape(*s with sizes i and j swapped)`: the shape
    the transpose makes, reached by a reshape alone (the elements keep their memory order);
    None when `node` is no such call or a swapped size is not a plain argument."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "swapaxes" and len(node.args) == 2 and not node.keywords):
        return None
    inner = node.func.value
    if not (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute)
            and inner.func.attr == "reshape" and not inner.keywords):
        return None
    i, j, args = _int(node.args[0]), _int(node.args[1]), list(inner.args)
    if i is None or j is None or not all(-len(args) <= n < len(args) for n in (i, j)):
        return None
    if any(isinstance(args[n], ast.Starred) for n in (i, j)) or (
            any(isinstance(a, ast.Starred) for a in args) and (i >= 0 or j >= 0)):
        return None  # a starred size makes positive positions unknown
    args[i], args[j] = args[j], args[i]
    new = copy.copy(inner)
    new.args = args
    return new


def reshape_for_transpose(context: Context, node: ast.AST) -> Iterator[Change]:
    """A transpose done with a reshape: `x.reshape(T, heads, d_h).swapaxes(-2, -3)` as
    `x.reshape(heads, T, d_h)`, the right shape with the elements in the wrong places."""
    new = _reshaped_into_place(node)
    if new is None:
        return
    yield Change("reshape-instead-of-swapaxes",
                 f"In {where(context)}, `{code(node)}` is done with a reshape alone, "
                 f"`{code(new)}`: the same shape, but a reshape keeps the elements in their "
                 "order and only a transpose moves them.",
                 lambda n: _reshaped_into_place(n))


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


class _Exchanged(ast.NodeTransformer):
    def __init__(self, a: str, b: str):
        self.pair = {a: b, b: a}

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name(self.pair.get(node.id, node.id), node.ctx)


def _rows_for_columns(a: ast.AST, b: ast.AST) -> tuple[str, str] | None:
    """(x, y) when `b` is `a` with the names x and y exchanged (`W // P` and `H // P`)."""
    only_a, only_b = _names(a) - _names(b), _names(b) - _names(a)
    if len(only_a) != 1 or len(only_b) != 1:
        return None
    x, y = only_a.pop(), only_b.pop()
    exchanged = _Exchanged(x, y).visit(copy.deepcopy(a))
    return (x, y) if ast.dump(exchanged) == ast.dump(b) else None


def _sizes_swapped(node: ast.Call, i: int, j: int) -> ast.Call:
    new = copy.copy(node)
    new.args = list(node.args)
    new.args[i], new.args[j] = node.args[j], node.args[i]
    return new


def sizes_swapped(context: Context, node: ast.AST) -> Iterator[Change]:
    """Two sizes of a reshape given the other way round, one the other with two names
    exchanged: `image.reshape(H // P, P, W // P, P, C)` as `reshape(W // P, P, H // P, P,
    C)` (rows for columns: the same on square images only)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "reshape" and not node.keywords
            and not any(isinstance(a, ast.Starred) for a in node.args)):
        return
    args = node.args
    for i in range(len(args)):
        for j in range(i + 1, len(args)):
            pair = _rows_for_columns(args[i], args[j])
            if pair is None:
                continue
            yield Change(f"{pair[0]}-and-{pair[1]}-sizes-swapped",
                         f"In {where(context)}, `{code(node)}` is given `{code(args[i])}` and "
                         f"`{code(args[j])}` the other way round, "
                         f"`{code(_sizes_swapped(node, i, j))}` ({pair[0]} for {pair[1]}: "
                         "the same only where they are equal).",
                         lambda n, i=i, j=j: _sizes_swapped(n, i, j))


def _split_pairs(args: list) -> list[int]:
    """The i where sizes i, i + 1 of a reshape split one axis as (X // P, P): blocks of P."""
    return [i for i in range(len(args) - 1)
            if isinstance(args[i], ast.BinOp) and isinstance(args[i].op, ast.FloorDiv)
            and ast.dump(args[i].right) == ast.dump(args[i + 1])]


def _split_the_other_way(node: ast.Call, pairs: tuple[int, ...]) -> ast.Call:
    """`a.reshape(H // P, P, ...)` as `a.reshape(P, H // P, ...).transpose(...)`: the same shape,
    each pair's axis split with its two factors exchanged (P rows of every H // P-th pixel)."""
    new = copy.copy(node)
    new.args = list(node.args)
    axes = list(range(len(node.args)))
    for i in pairs:
        new.args[i], new.args[i + 1] = node.args[i + 1], node.args[i]
        axes[i], axes[i + 1] = i + 1, i
    return ast.Call(ast.Attribute(new, "transpose", ast.Load()),
                    [ast.Constant(a) for a in axes], [])


def split_factors_swapped(context: Context, node: ast.AST) -> Iterator[Change]:
    """An axis split into blocks the other way round: `reshape(H // P, P, ...)` written as
    `reshape(P, H // P, ...)` (einops' `(p1 h)` for `(h p1)`), so a block takes every
    (H // P)-th element instead of P neighbours; for each such pair, and for all at once."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "reshape" and not node.keywords):
        return
    pairs = _split_pairs(node.args)
    for group in [(i,) for i in pairs] + ([tuple(pairs)] if len(pairs) > 1 else []):
        sides = " and ".join(f"`{code(node.args[i].left)}`" for i in group)
        blocks, size = code(node.args[group[0]]), code(node.args[group[0] + 1])
        yield Change("-".join(slug(code(node.args[i].left)) for i in group) + "-split-swapped",
                     f"In {where(context)}, `{code(node)}` splits {sides} into blocks the other "
                     f"way round, as ({size}, {blocks}) instead of ({blocks}, {size}), as some "
                     f"code does (einops' `(p1 h)` for `(h p1)`): each block then takes every "
                     f"({blocks})-th element instead of {size} neighbouring ones.",
                     lambda n, group=group: _split_the_other_way(n, group))


def _helper_call(context: Context, node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in context.instance.children)


def _made_by(function: ast.AST) -> dict[str, str]:
    """name -> the callee of the call that assigns it (`q` -> `split_heads`), for the names one
    call assigns."""
    return {node.targets[0].id: code(node.value.func) for node in ast.walk(function)
            if isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call)}


def arguments_swapped(context: Context, node: ast.AST) -> Iterator[Change]:
    """Two neighbouring arguments of a step given the other way round: `attention(q, k, v)` as
    `attention(q, v, k)` (keys and values mixed up). Only names of one kind, made by calls of
    one function (q, k and v all by split_heads): those are the ones mixed up."""
    if not _helper_call(context, node):
        return
    args, made = node.args, _made_by(context.instance.node)
    for i in range(len(args) - 1):
        a, b = args[i], args[i + 1]
        if not (isinstance(a, ast.Name) and isinstance(b, ast.Name)) or a.id == b.id \
                or made.get(a.id) is None or made.get(a.id) != made.get(b.id):
            continue

        def swapped(n, i=i):
            new = copy.copy(n)
            new.args = [*n.args[:i], n.args[i + 1], n.args[i], *n.args[i + 2:]]
            return new

        yield Change(f"{a.id}-and-{b.id}-swapped",
                     f"In {where(context)}, `{code(node)}` is given `{b.id}` and `{a.id}` the "
                     f"other way round: `{code(swapped(node))}`.", swapped)


def _scaled(statement: ast.stmt) -> tuple[str, ast.BinOp] | None:
    """(n, the scaling) for `n = <expr> / c` or `n = <expr> * c`."""
    if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(statement.value, ast.BinOp)
            and isinstance(statement.value.op, (ast.Div, ast.Mult))):
        return statement.targets[0].id, statement.value
    return None


def _steps_of(statement: ast.stmt, name: str, children) -> list[ast.Call]:
    return [n for n in ast.walk(statement) if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name) and n.func.id in children and n.args
            and isinstance(n.args[0], ast.Name) and n.args[0].id == name]


class _Wrapped(ast.NodeTransformer):
    """The one call `old` (by identity) wrapped as `old <op> factor`."""

    def __init__(self, old: ast.AST, op: ast.operator, factor: ast.AST):
        self.old, self.op, self.factor = old, op, factor

    def visit(self, node: ast.AST) -> ast.AST:
        if node is self.old:
            return ast.BinOp(node, self.op, copy.deepcopy(self.factor))
        return self.generic_visit(node)


def _scaled_after(owner: ast.AST, index: int, later: int, children) -> ast.AST | None:
    body = getattr(owner, "body", None)
    found = _scaled(body[index]) if isinstance(body, list) and later < len(body) else None
    steps = _steps_of(body[later], found[0], children) if found else []
    if len(steps) != 1:
        return None
    name, scaling = found
    unscaled = ast.Assign([ast.Name(name, ast.Store())], scaling.left)
    following = copy.deepcopy(body[later])
    step = _steps_of(following, name, children)[0]
    following = _Wrapped(step, scaling.op, scaling.right).visit(following)
    new = copy.copy(owner)
    new.body = [*body[:index], unscaled, *body[index + 1:later], following, *body[later + 1:]]
    return new


def scale_after_step(context: Context, node: ast.AST) -> Iterator[Change]:
    """A scale applied to a step's output instead of its input: `s = q @ k.T / c` then
    `softmax(s)` as `s = q @ k.T` then `softmax(s) / c` (the attention weights scaled after the
    softmax). The step is the first later statement's call of a helper given the name."""
    body = getattr(node, "body", None)
    if not isinstance(body, list):
        return
    children = context.instance.children
    for index, statement in enumerate(body):
        found = _scaled(statement)
        if found is None:
            continue
        name, scaling = found
        later = next((j for j in range(index + 1, len(body))
                      if _steps_of(body[j], name, children)), None)
        if later is None or len(_steps_of(body[later], name, children)) != 1:
            continue
        step = _steps_of(body[later], name, children)[0]
        op = "/" if isinstance(scaling.op, ast.Div) else "*"
        yield Change(f"{name}-scaled-after-{children[step.func.id].path.rsplit('/', 1)[-1]}",
                     f"In {where(context)}, `{op} {code(scaling.right)}` is applied to the output "
                     f"of `{code(step)}` instead of to its input `{code(scaling)}`: "
                     f"`{code(step)} {op} {code(scaling.right)}`.",
                     lambda n, index=index, later=later: _scaled_after(n, index, later, children))


def _named_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and bool(node.args)


def _nested_steps(context: Context, node: ast.AST) -> bool:
    """Whether `node` is `f(g(a, ...), ...)`, f and g two functions the checked function calls
    by name (its helpers, rewritten or left whole)."""
    return (context.instance.path == context.root and _named_call(node)
            and _named_call(node.args[0]))


def _steps_swapped(node: ast.Call) -> ast.Call:
    """`f(g(a, *r), *s)` as `g(f(a, *s), *r)`."""
    inner = node.args[0]
    outer = copy.copy(node)
    outer.args = [inner.args[0], *node.args[1:]]
    new = copy.copy(inner)
    new.args = [outer, *inner.args[1:]]
    return new


def steps_swapped(context: Context, node: ast.AST) -> Iterator[Change]:
    """Two nested steps of the checked function in the other order: `attn(norm(x))` as
    `norm(attn(x))` (the LayerNorm put on the branch's output). Only the checked function's
    own steps: its helpers' steps have their own checks."""
    if not _nested_steps(context, node):
        return
    inner = node.args[0]
    yield Change(f"{_label(context, node)}-and-{_label(context, inner)}-swapped",
                 f"In {where(context)}, the two steps of `{code(node)}` run in the other order: "
                 f"`{code(_steps_swapped(node))}`.",
                 lambda n: _steps_swapped(n) if _nested_steps(context, n) else None)


def _label(context: Context, call: ast.Call) -> str:
    child = context.instance.children.get(call.func.id)
    return child.path.rsplit("/", 1)[-1] if child is not None else code(call.func)


def multiplied_for_divided(context: Context, node: ast.AST) -> Iterator[Change]:
    """A division written as a product: `s / math.sqrt(d_h)` as `s * math.sqrt(d_h)` (the
    scale's factor where its inverse belongs)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        yield Change(f"{slug(code(node.right))}-multiplied",
                     f"In {where(context)}, `{code(node)}` multiplies by `{code(node.right)}` "
                     f"instead of dividing by it.",
                     lambda n: ast.BinOp(n.left, ast.Mult(), n.right))


def _moved_into_loop(node: ast.AST, i: int) -> ast.AST:
    new, loop = copy.copy(node), copy.copy(node.body[i])
    loop.body = [*loop.body, node.body[i + 1]]
    new.body = [*node.body[:i], loop, *node.body[i + 2:]]
    return new


def _copied_before_loop(node: ast.AST, i: int) -> ast.AST:
    new = copy.copy(node)
    new.body = [*node.body[:i], copy.deepcopy(node.body[i + 1]), *node.body[i:]]
    return new


def _moved_out_of_loop(node: ast.AST, i: int) -> ast.AST:
    new, loop = copy.copy(node), copy.copy(node.body[i])
    loop.body = loop.body[:-1]
    new.body = [*node.body[:i], loop, node.body[i].body[-1], *node.body[i + 1:]]
    return new


def indentation(context: Context, node: ast.AST) -> Iterator[Change]:
    """A statement moved across a loop's end by its indentation: the one after a `for` run on
    every pass (the final LayerNorm after each block), or the loop's last one run once after
    the loop; or the one after the loop run before it too (a LayerNorm before the blocks)."""
    body = getattr(node, "body", None)
    if not isinstance(body, list):
        return
    for i, loop in enumerate(body[:-1]):
        if not isinstance(loop, ast.For) or loop.orelse:
            continue
        header = f"for {code(loop.target)} in {code(loop.iter)}"
        after = body[i + 1]
        if isinstance(after, ast.Assign):
            yield Change(f"{slug(code(after.value))}-in-loop",
                         f"In {where(context)}, `{code(after)}` runs inside `{header}`, on "
                         "every pass, instead of once after the loop (its indentation).",
                         lambda n, i=i: _moved_into_loop(n, i))
            yield Change(f"{slug(code(after.value))}-before-loop-too",
                         f"In {where(context)}, `{code(after)}` also runs before `{header}` "
                         "(as CLIP's ln_pre does), not only once after the loop.",
                         lambda n, i=i: _copied_before_loop(n, i))
        if len(loop.body) > 1 and isinstance(loop.body[-1], ast.Assign):
            yield Change(f"{slug(code(loop.body[-1].value))}-after-loop",
                         f"In {where(context)}, `{code(loop.body[-1])}` runs once after "
                         f"`{header}` instead of on every pass (its indentation).",
                         lambda n, i=i: _moved_out_of_loop(n, i))


def argument_transposed(context: Context, node: ast.AST) -> Iterator[Change]:
    """An argument of the checked function read with its first two axes swapped: a kernel
    indexed [kw, kh] (an einsum's letters the other way round), an image read as (W, H, C)."""
    if not is_checked_function(context, node):
        return
    given = {call.args[0].id for call in ast.walk(node) if _helper_call(context, call)
             and call.args and isinstance(call.args[0], ast.Name)}  # operators.rows_and_columns'
    given |= multiplied(context, node)  # a weight of `x @ W`: operators.transpose says it
    for argument in node.args.args:
        name = argument.arg
        if name in given:
            continue
        swap = ast.parse(f"{name} = {name}.swapaxes(0, 1)").body[0]
        sentence = (f"In {where(context)}, `{name}` is read with its first two axes swapped, "
                    f"`{name}.swapaxes(0, 1)` (rows for columns).")
        if cuts_patches(node, name):  # what the swap does, in words loops can be searched for
            sentence = (f"In {where(context)}, `{name}` is read with its rows and columns "
                        f"swapped: {READ_TRANSPOSED} (the model solution's code read as if "
                        f"`{name}` were `{name}.swapaxes(0, 1)`).")
        yield Change(f"{name}-axes-swapped", sentence, lambda n, swap=swap: prepended(n, swap))


# tried in this order, after names.OPERATORS
def merged_the_other_way(context: Context, node: ast.AST) -> Iterator[Change]:
    """Two axes merged by a reshape in the other order: `x.swapaxes(-2, -3).reshape(..., h * d)`
    with the last two axes swapped first (einops' `'h n d -> n (d h)'` for `'n (h d)'`): the
    merged axis interleaves them (head 0's first column, head 1's first column, ...)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "reshape" and isinstance(node.func.value, ast.Call)
            and isinstance(node.func.value.func, ast.Attribute)
            and node.func.value.func.attr in ("swapaxes", "transpose")):
        return

    def other_way(n: ast.Call) -> ast.Call:
        new = copy.copy(n)
        swapped = ast.Call(ast.Attribute(n.func.value, "swapaxes", ast.Load()),
                           [ast.Constant(-1), ast.Constant(-2)], [])
        new.func = ast.Attribute(swapped, "reshape", ast.Load())
        return new

    yield Change("merged-the-other-way",
                 f"In {where(context)}, `{code(node)}` merges its last two axes the other way "
                 f"round (the last two swapped first, einops' `(d h)` for `(h d)`): the merged "
                 f"axis interleaves them instead of keeping each one's block together.",
                 other_way)


def axes_swapped(context: Context, node: ast.AST) -> Iterator[Change]:
    """Two axes of a transpose swapped: `grid.transpose(0, 2, 1, 3, 4)` as `(2, 0, 1, 3, 4)`
    (the patches numbered down the columns) or `(0, 2, 3, 1, 4)` (each patch read column by
    column). Only a transpose of three axes or more, given as integers."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "transpose" and len(node.args) >= 3
            and all(isinstance(a, ast.Constant) and type(a.value) is int for a in node.args)):
        return
    axes = [a.value for a in node.args]
    for i, j in itertools.combinations(range(len(axes)), 2):
        new_axes = list(axes)
        new_axes[i], new_axes[j] = axes[j], axes[i]
        if new_axes == sorted(new_axes):
            continue  # no transpose at all: operators.transpose names it (`transpose-removed`)

        def permuted(n: ast.Call, new_axes=tuple(new_axes)) -> ast.Call:
            new = copy.copy(n)
            new.args = [ast.Constant(a) for a in new_axes]
            return new

        reversal = ""  # the trailing axes read backwards: a column-major flatten's order
        if j == len(axes) - 1 and j - i >= 2 and new_axes[i:] == axes[i:][::-1]:
            reversal = (f" (the last {j - i + 1} axes in reverse order, the order a column-major "
                        f"flatten reads them: `reshape(..., order='F')`, as in Fortran, MATLAB "
                        f"or Julia)")
        yield Change(f"transpose-{'-'.join(map(str, new_axes))}",
                     f"In {where(context)}, {EFFECT}`{code(permuted(node))}`, axes {axes[j]} "
                     f"and {axes[i]} are in each other's place{reversal}: the model solution's "
                     f"order is `{code(node)}`.", permuted)


OPERATORS = {"reshape_for_transpose": reshape_for_transpose, "sizes": sizes_swapped,
             "arguments": arguments_swapped,
             "scale_after": scale_after_step, "steps": steps_swapped,
             "divided": multiplied_for_divided, "indentation": indentation,
             "transposed_argument": argument_transposed, "merge": merged_the_other_way,
             "blocks": split_factors_swapped}
