"""Operators on a normalisation step (LayerNorm): its statistics taken another way. RMSNorm
(T5, LLaMA) divides by the root mean square, `x / sqrt(mean(x ** 2) + eps)`, with no mean taken
away: a port from those models keeps it where ViT's LayerNorm belongs, or keeps only its
denominator after taking the mean away. A similarity product's operands standardised first
(ViT-22B's QK-norm) is a normalisation inserted. An operator as in
operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from ..layers import layer_norm
from .change import Change, Context, Replaced, callee, code, slug, where
from .tree import PREFIX


def _statistic(statement: ast.stmt, name: str) -> str | None:
    """The variable `statement` assigns from `np.<name>(...)`, else None."""
    if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(statement.value, ast.Call) and callee(statement.value) == name
            and statement.value.args):
        return statement.targets[0].id
    return None


def about_zero(context: Context, node: ast.AST) -> Iterator[Change]:
    """LayerNorm's statistics taken about zero, as RMSNorm's are: the mean taken away is 0 and
    the variance is the mean of the squares, `x / sqrt(mean(x ** 2) + eps) * gamma + beta`."""
    if not isinstance(node, ast.FunctionDef):
        return
    means = [i for i, s in enumerate(node.body) if _statistic(s, "mean")]
    variances = [i for i, s in enumerate(node.body) if _statistic(s, "var")]
    if len(means) != 1 or len(variances) != 1:
        return
    mean_at, var_at = means[0], variances[0]

    def rms(n: ast.FunctionDef, keep_mean: bool = False) -> ast.FunctionDef:
        new, body = copy.copy(n), list(n.body)
        zero = copy.copy(body[mean_at])
        zero.value = ast.Constant(0.0)
        squares = copy.deepcopy(body[var_at])
        call = squares.value
        call.func = ast.Attribute(copy.deepcopy(call.func.value), "mean", ast.Load()) \
            if isinstance(call.func, ast.Attribute) else ast.Name("mean", ast.Load())
        call.args = [ast.BinOp(call.args[0], ast.Pow(), ast.Constant(2)), *call.args[1:]]
        body[var_at] = squares
        if not keep_mean:
            body[mean_at] = zero
        new.body = body
        return new

    yield Change("rms-norm",
                 f"In {where(context)}, the statistics are taken about zero, as RMSNorm (T5, "
                 "LLaMA) takes them: no mean taken away, and the root mean square, "
                 "`sqrt(mean(x ** 2) + eps)`, instead of the standard deviation about the mean. "
                 "LayerNorm subtracts each token's mean first.", rms)
    yield Change("variance-about-zero",
                 f"In {where(context)}, the mean is taken away but the variance is taken about "
                 "zero, the mean of the squares of the input, `mean(x ** 2)` (RMSNorm's "
                 "denominator), where the lecture's is about the mean: `var(x) = mean((x - "
                 "mean) ** 2)`.", lambda n: rms(n, keep_mean=True))


def over_sample(context: Context, node: ast.AST) -> Iterator[Change]:
    """LayerNorm's statistics taken over every axis but the first, as `F.layer_norm(x,
    x.shape[1:])` or a sample-wise norm does: the same for one token or a (T, d) sequence, but
    a batch (B, T, d) is normalised per sample instead of per token."""
    if not isinstance(node, ast.FunctionDef) or not node.args.args:
        return
    first = node.args.args[0].arg
    if len(moments(node)) < 2:
        return
    sample = f"tuple(range(1, np.ndim({first}))) or (0,)"

    yield Change("over-sample",
                 f"In {where(context)}, the mean and variance are taken over every axis but the "
                 f"first, `axis={sample.split(' or ')[0]}` (as torch's "
                 "`F.layer_norm(x, x.shape[1:])` does), instead of over the last one: right for "
                 "a (T, d) sequence, but a batch is normalised per sample instead of per token.",
                 lambda n: with_axis(n, moments, sample))  # not "one token":
    # a (d,) token has no axis but the first, and a port's own code may reduce over none


def moments(node: ast.AST) -> list[ast.Call]:
    """The `np.mean(..., axis=-1)` and `np.var(..., axis=-1)` calls in `node`."""
    return [c for c in ast.walk(node) if isinstance(c, ast.Call)
            and callee(c) in ("mean", "var") and last_axis(c)]


def with_axis(node: ast.FunctionDef, calls_of, axis: str) -> ast.FunctionDef:
    """A copy of `node` whose calls `calls_of(copy)` take `axis` (source text) as their `axis=`:
    the calls are found anew in the copy, as another edit of the function may come first."""
    new = copy.deepcopy(node)
    for call in calls_of(new):
        for keyword in call.keywords:
            if keyword.arg == "axis":
                keyword.value = ast.parse(axis, mode="eval").body
    return new


def last_axis(call: ast.Call) -> bool:
    return any(k.arg == "axis" and isinstance(k.value, ast.UnaryOp)
               and isinstance(k.value.op, ast.USub) and isinstance(k.value.operand, ast.Constant)
               and k.value.operand.value == 1 for k in call.keywords)


def standardised(x):
    """`x` standardised over its last axis: the reference's LayerNorm with gain 1 and shift 0."""
    return layer_norm(np.asarray(x), 1.0, 0.0)


def _transposed_name(node: ast.AST) -> ast.Name | None:
    """The name of `k.swapaxes(-1, -2)`, `k.T` or `k.transpose(...)`, else None."""
    if isinstance(node, ast.Attribute) and node.attr == "T":
        base = node.value
    elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
          and node.func.attr in ("swapaxes", "transpose")):
        base = node.func.value
    else:
        return None
    return base if isinstance(base, ast.Name) else None


def operands_standardised(context: Context, node: ast.AST) -> Iterator[Change]:
    """A similarity product `q @ k.swapaxes(-1, -2)` of vectors standardised first over their
    last axis, a LayerNorm inserted with no gain or shift: ViT-22B's and timm's `qk_norm`, where
    the lecture multiplies the projections as they are. Each side, and both."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult)
            and isinstance(node.left, ast.Name) and _transposed_name(node.right) is not None):
        return
    bound = f"{PREFIX}standardised"
    left, right = node.left.id, _transposed_name(node.right).id
    for sides, said, detail in (((True, False), f"`{left}`", left),
                                ((False, True), f"`{right}`", right),
                                ((True, True), f"`{left}` and `{right}`", f"{left}-{right}")):
        yield Change(f"{detail}-standardised",
                     f"In {where(context)}, {said} {'are' if all(sides) else 'is'} standardised "
                     f"over the last axis before `{code(node)}` (a LayerNorm with no gain or "
                     f"shift, as ViT-22B's and timm's qk_norm): the lecture multiplies them as "
                     f"they are.", lambda n, sides=sides: _standardised(n, sides, bound),
                     ((bound, standardised),))


def _standardised(node: ast.BinOp, sides: tuple[bool, bool], bound: str) -> ast.BinOp:
    def wrapped(name: ast.Name) -> ast.Call:
        return ast.Call(ast.Name(bound, ast.Load()), [copy.deepcopy(name)], [])

    left, right = copy.deepcopy(node.left), copy.deepcopy(node.right)
    if sides[0]:
        left = wrapped(node.left)
    if sides[1]:
        base = _transposed_name(right)
        right = Replaced(base, wrapped(base)).visit(right)
    return ast.BinOp(left, ast.MatMult(), right)


def _kept_statistic(function: ast.FunctionDef, node: ast.AST) -> bool:
    """Whether `node` is a reduction over the last axis with keepdims=True (`np.mean(x,
    axis=-1, keepdims=True)`), or a name `function` assigns once from one."""
    if isinstance(node, ast.Name):
        values = [s.value for s in ast.walk(function) if isinstance(s, ast.Assign)
                  and [t for t in s.targets if isinstance(t, ast.Name) and t.id == node.id]]
        return len(values) == 1 and _kept_statistic(function, values[0])
    return (isinstance(node, ast.Call) and last_axis(node) and any(
        k.arg == "keepdims" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in node.keywords))


def by_transpose(context: Context, node: ast.AST) -> Iterator[Change]:
    """A statistic over the last axis taken away through a transpose, `(x.T - m).T` with `m`
    reduced without keepdims (numpy's idiom for standardising the rows of a 2-D array), or the
    whole standardisation so, `((x.T - m) / s).T`: the same for a (T, d) array and for one
    token, but with leading axes `.T` reverses them all and the statistics no longer line up
    with their tokens."""
    if not isinstance(node, ast.BinOp):
        return
    function = context.instance.node
    centred = node if isinstance(node.op, ast.Sub) else node.left
    if not (isinstance(centred, ast.BinOp) and isinstance(centred.op, ast.Sub)
            and _kept_statistic(function, centred.right)):
        return
    if node is not centred and not isinstance(node.op, ast.Div):
        return

    def dropped(statistic: ast.AST) -> ast.AST:
        return ast.Subscript(copy.deepcopy(statistic), ast.Tuple(
            [ast.Constant(...), ast.Constant(0)], ast.Load()), ast.Load())

    def transposed(n: ast.BinOp) -> ast.AST:
        inner = n if isinstance(n.op, ast.Sub) else n.left
        new = ast.BinOp(ast.Attribute(copy.deepcopy(inner.left), "T", ast.Load()), ast.Sub(),
                        dropped(inner.right))
        if inner is not n:
            new = ast.BinOp(new, ast.Div(), dropped(n.right))
        return ast.Attribute(new, "T", ast.Load())

    shown = code(transposed(copy.deepcopy(node)))
    detail = slug(code(node)) if node is centred else "standardised"
    yield Change(f"{detail}-by-transpose",
                 f"In {where(context)}, `{code(node)}` is written `{shown}` (numpy's idiom for "
                 "the rows of a 2-D array, its statistics taken without keepdims=True): right "
                 "for a (T, d) array, but with leading axes `.T` reverses all of them, so the "
                 "statistics no longer line up with their tokens. Keep the reduced axis "
                 "(keepdims=True) and use them directly.", transposed)


def width_from_second_axis(context: Context, node: ast.AST) -> Iterator[Change]:
    """A mean or variance over the last axis computed by hand as a sum divided by the array's
    `.shape[1]`, the width of a (T, d) array (cs231n's `N, D = x.shape`): right for a (T, d)
    array, divided by the token count with leading axes, and an IndexError for one token."""
    if not (isinstance(node, ast.Call) and callee(node) in ("mean", "var") and last_axis(node)
            and len(node.args) == 1 and isinstance(node.args[0], ast.Name)):
        return
    data = node.args[0].id
    kept = ", keepdims=True" if any(k.arg == "keepdims" for k in node.keywords) else ""
    centred = (f"({data} - np.mean({data}, axis=-1, keepdims=True)) ** 2"
               if callee(node) == "var" else data)
    written = f"np.sum({centred}, axis=-1{kept}) / {data}.shape[1]"
    yield Change(f"{callee(node)}-over-shape1",
                 f"In {where(context)}, `{code(node)}` is computed as `{written}`: the count "
                 f"read as `{data}.shape[1]`, the width of a (T, d) array, where the features are "
                 f"`{data}.shape[-1]`: with leading axes shape[1] is the number of tokens, and a "
                 "single token has no shape[1].",
                 lambda n: ast.parse(written, mode="eval").body)


def unit_length(context: Context, node: ast.AST) -> Iterator[Change]:
    """The centred tokens divided by their length, clamped at eps (`F.normalize`, CLIP's
    embeddings), instead of by their standard deviation: sqrt(d) times too small, and eps a
    floor on the length instead of added to the variance."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
            and isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.Sub)
            and _kept_statistic(context.instance.node, node.left.right)
            and isinstance(node.right, ast.Call) and callee(node.right) == "sqrt"
            and len(node.right.args) == 1 and isinstance(node.right.args[0], ast.BinOp)
            and isinstance(node.right.args[0].op, ast.Add)):
        return
    def written(quote) -> str:  # quoted in the sentence (code), or run (the exact source)
        centred, eps = quote(node.left), quote(node.right.args[0].right)
        return (f"({centred}) / np.maximum(np.linalg.norm({centred}, axis=-1, keepdims=True), "
                f"{eps})")

    source = written(ast.unparse)
    yield Change("unit-length",
                 f"In {where(context)}, `{code(node)}` is written `{written(code)}`: each token "
                 "divided by its length, clamped at eps (`F.normalize`, CLIP's embeddings), "
                 "instead of by its standard deviation, `sqrt(mean((x - mean) ** 2) + eps)`: "
                 "sqrt(d) times too small, and eps a floor on the length instead of added to "
                 "the variance.", lambda n: ast.parse(source, mode="eval").body)


def affine_parameters(node: ast.FunctionDef) -> list[str]:
    """The per-feature vectors `node` adds or multiplies (`* gamma + beta`), in the signature's
    order: its parameters without a default but the first (the data), but a size passed on to a
    call; none unless there are two (a scale and a shift) or more."""
    arguments = node.args.args
    free = {a.arg for a in arguments[1:len(arguments) - len(node.args.defaults)]}
    found = [a.arg for a in arguments if a.arg in {
        side.id for b in ast.walk(node) if isinstance(b, ast.BinOp)
        and isinstance(b.op, (ast.Add, ast.Mult)) for side in (b.left, b.right)
        if isinstance(side, ast.Name) and side.id in free}]  # in the signature's order
    passed = {a.id for c in ast.walk(node) if isinstance(c, ast.Call)
              for a in c.args if isinstance(a, ast.Name)}  # a size (`P`), no vector
    found = [name for name in found if name not in passed]
    return found if len(found) >= 2 else []  # a scale and a shift: the affine line


class Columns(ast.NodeTransformer):
    """Each of `found`'s names a sum or product reads indexed `[:, None]`, a column."""

    def __init__(self, found: list[str]):
        self.found = found

    def visit_BinOp(self, b: ast.BinOp) -> ast.AST:
        self.generic_visit(b)
        if isinstance(b.op, (ast.Add, ast.Mult)):
            b.left, b.right = (ast.Subscript(side, ast.Tuple(
                [ast.Slice(), ast.Constant(None)], ast.Load()), ast.Load())
                if isinstance(side, ast.Name) and side.id in self.found else side
                for side in (b.left, b.right))
        return b


def as_columns(context: Context, node: ast.AST) -> Iterator[Change]:
    """The per-feature parameter vectors a function adds or multiplies (`* gamma + beta`, a
    bias `+ b`) indexed `[:, None]`, as channels-first code broadcasts a per-channel vector over
    (C, H, W) (ConvNeXt's LayerNorm, `weight[:, None, None] * x`): a column lines up with the
    tokens, the first axis, instead of the features, the last. Its parameters without a default
    but the first (the data) and but a size passed on to a call, every one at once (a port
    copies the line whole), where there are two (a scale and a shift) or more."""
    if not (isinstance(node, ast.FunctionDef) and node is context.instance.node):
        return
    found = affine_parameters(node)
    if not found:
        return
    said = " and ".join(f"`{name}`" for name in found)
    yield Change(f"{'-'.join(found)}-as-columns",
                 f"In {where(context)}, {said} {'is' if len(found) == 1 else 'are'} indexed "
                 f"`[:, None]` (`{found[0]}[:, None]`), as channels-first code broadcasts a "
                 "per-channel vector over (C, H, W) (ConvNeXt's LayerNorm): a column lines up "
                 "with the tokens, the first axis, instead of the features, the last. A "
                 "(T, d) array's features are its last axis: use the vector as it is.",
                 lambda n: Columns(found).visit(copy.deepcopy(n)))


def _statistic_of(function: ast.FunctionDef, node: ast.AST) -> ast.AST | None:
    """The array the statistic `node` reduces (`x` of `np.var(x, axis=-1, keepdims=True)`, or
    of a name `function` assigns once from one), else None."""
    if isinstance(node, ast.Name):
        values = [s.value for s in ast.walk(function) if isinstance(s, ast.Assign)
                  and [t for t in s.targets if isinstance(t, ast.Name) and t.id == node.id]]
        return _statistic_of(function, values[0]) if len(values) == 1 else None
    if (isinstance(node, ast.Call) and callee(node) == "var" and node.args
            and _kept_statistic(function, node)):
        return node.args[0]
    return None


def eps_over_width(context: Context, node: ast.AST) -> Iterator[Change]:
    """eps added to the sum of the squared deviations, not to their mean: a token centred,
    divided by `sqrt(sum((x - mean) ** 2) + eps)` (projected onto the unit sphere) and scaled
    by sqrt(d), which is `(x - mean) / sqrt(var + eps / d)`. The checked function's own
    `var + eps` under a square root only (a caller's LayerNorm has its own check)."""
    function = context.instance.node
    if not (isinstance(node, ast.Call) and callee(node) == "sqrt" and len(node.args) == 1
            and "/" not in context.instance.path and isinstance(node.args[0], ast.BinOp)
            and isinstance(node.args[0].op, ast.Add) and isinstance(node.args[0].right, ast.Name)):
        return
    data = _statistic_of(function, node.args[0].left)
    if data is None:
        return
    eps = code(node.args[0].right)

    def spread(n: ast.Call) -> ast.Call:
        new = copy.deepcopy(n)
        width = ast.Subscript(ast.Attribute(copy.deepcopy(data), "shape", ast.Load()),
                              ast.UnaryOp(ast.USub(), ast.Constant(1)), ast.Load())
        new.args[0].right = ast.BinOp(new.args[0].right, ast.Div(), width)
        return new

    yield Change(f"{slug(eps)}-over-width",
                 f"In {where(context)}, `{eps}` is added to the sum of the squared deviations "
                 f"(each centred token's squared length, as a token projected onto a sphere "
                 f"and scaled by sqrt(d) is: `(x - mean) / sqrt(sum((x - mean) ** 2) + {eps}) "
                 f"* sqrt(d)`), not to their mean: `{code(spread(node))}` where `{code(node)}` "
                 f"belongs: `{eps}` d times too small.",
                 spread)


def along_axis_1(context: Context, node: ast.AST) -> Iterator[Change]:
    """A function of each token's vector (its reductions over the last axis) applied to the
    vectors along axis 1, `np.apply_along_axis(f, 1, x, ...)`, as code written for a (T, d)
    array does (axis 1 is its last): with leading axes other vectors are normalised, and a
    per-feature gain no longer fits them. A 1-D token is still computed directly. The checked
    function's own definition, when it has no `axis` parameter."""
    if not (isinstance(node, ast.FunctionDef) and node is context.instance.node
            and "/" not in context.instance.path and node.args.args
            and not node.args.vararg and not node.args.kwonlyargs
            and all(a.arg != "axis" for a in node.args.args)
            and any(isinstance(c, ast.Call) and last_axis(c) for c in ast.walk(node))):
        return
    first, rest = node.args.args[0].arg, [a.arg for a in node.args.args[1:]]
    call = f"np.apply_along_axis({node.name}, 1, {', '.join([first, *rest])})"
    guard = ast.parse(f"if np.ndim({first}) > 1:\n    return {call}").body[0]

    def rowwise(n: ast.FunctionDef) -> ast.FunctionDef:
        new = copy.copy(n)
        new.body = [guard, *n.body]
        return new

    yield Change("along-axis-1",
                 f"In {where(context)}, the function is applied to the vectors along axis 1, "
                 f"`{call}`, as code written for a (T, d) array does (axis 1 is its last): "
                 f"with leading axes, axis 1 is not the features' axis, so other vectors are "
                 f"normalised (or the per-feature parameters do not fit them). Work on the last "
                 f"axis, `axis=-1`.", rowwise)


OPERATORS = {"norm": about_zero, "norm_axes": over_sample,
             "operands_standardised": operands_standardised, "by_transpose": by_transpose,
             "as_columns": as_columns, "width_from_second_axis": width_from_second_axis,
             "unit_length": unit_length, "eps_over_width": eps_over_width,
             "along_axis_1": along_axis_1}  # tried after order.OPERATORS
