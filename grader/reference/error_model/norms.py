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

from .change import Change, Context, Replaced, callee, code, where
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
    calls = [c for c in ast.walk(node) if isinstance(c, ast.Call)
             and callee(c) in ("mean", "var") and _last_axis(c)]
    if len(calls) < 2:
        return
    sample = f"tuple(range(1, np.ndim({first}))) or (0,)"

    def per_sample(n: ast.FunctionDef) -> ast.FunctionDef:
        new = copy.deepcopy(n)
        for call in ast.walk(new):
            if isinstance(call, ast.Call) and callee(call) in ("mean", "var") and \
                    _last_axis(call):
                for keyword in call.keywords:
                    if keyword.arg == "axis":
                        keyword.value = ast.parse(sample, mode="eval").body
        return new

    yield Change("over-sample",
                 f"In {where(context)}, the mean and variance are taken over every axis but the "
                 f"first, `axis={sample.split(' or ')[0]}` (`F.layer_norm(x, x.shape[1:])`), "
                 "instead of over the last one: right for a (T, d) sequence, but a batch is "
                 "normalised per sample instead of per token.", per_sample)  # not "one token":
    # a (d,) token has no axis but the first, and a port's own code may reduce over none


def _last_axis(call: ast.Call) -> bool:
    return any(k.arg == "axis" and isinstance(k.value, ast.UnaryOp)
               and isinstance(k.value.op, ast.USub) and isinstance(k.value.operand, ast.Constant)
               and k.value.operand.value == 1 for k in call.keywords)


def standardised(x, eps: float = 1e-6):
    """`x` standardised over its last axis (a LayerNorm with gain 1 and shift 0)."""
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)


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


OPERATORS = {"norm": about_zero, "norm_axes": over_sample,
             "operands_standardised": operands_standardised}  # tried after order.OPERATORS
