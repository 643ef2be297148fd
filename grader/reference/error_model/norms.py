"""Operators on a normalisation step (LayerNorm): its statistics taken another way. RMSNorm
(T5, LLaMA) divides by the root mean square, `x / sqrt(mean(x ** 2) + eps)`, with no mean taken
away: a port from those models keeps it where ViT's LayerNorm belongs, or keeps only its
denominator after taking the mean away. An operator as in
operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, callee, where


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
                 "instead of over the last one: right for one token or a (T, d) sequence, but a "
                 "batch is normalised per sample instead of per token.", per_sample)


def _last_axis(call: ast.Call) -> bool:
    return any(k.arg == "axis" and isinstance(k.value, ast.UnaryOp)
               and isinstance(k.value.op, ast.USub) and isinstance(k.value.operand, ast.Constant)
               and k.value.operand.value == 1 for k in call.keywords)


OPERATORS = {"norm": about_zero, "norm_axes": over_sample}  # tried after order.OPERATORS
