"""Operators on counts (a function whose result is integer arithmetic of its arguments).

- A square of one name, `T * T` or `T ** 2`, counted as a triangle: `T * (T + 1) // 2` (a
  causal mask's kept scores: each token against itself and those before it), `T * (T - 1) // 2`
  (each pair once) or `T * (T - 1)` (each token against every other, itself left out), a
  halved triangle with true division, `T * (T + 1) / 2` (the same pairs as a float), and a
  returned square halved, `T * T // 2` (a causal map's scores, FLOP counters' `// 2`).
- The count returned as a float, as `/`, `math.pow` or a float constant makes it: 768.0 for 768.
- The count one more, `P * P * C + 1` (the bias trick's constant 1 counted in).
- A square `T * T` counted for every head of a standard ViT, `12 * T * T` (timm's attn tensor
  (B, num_heads, N, N) of ViT-B), where one attention map is asked for.
- A count of tokens with 4 or 8 register tokens added (DINOv2 with registers), where it adds
  an optional [CLS] token.
- A square of one name doubled, `P * 2` for `P * P` (`P ** 2` typed with one `*`).
- A square of one name written with MATLAB's (or LaTeX's) power operator, `P ^ 2 * C`: in
  Python `^` is XOR and binds after `*`, so that is `P ^ (2 * C)` (16 ^ 6 = 22, not 768).

An operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import functools
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, code, is_result, where

TRIANGLES = (  # (detail, the count, what it counts)
    ("plus-one-halved", "{t} * ({t} + 1) // 2",
     "a causal mask's triangle: each token against itself and those before it"),
    ("minus-one-halved", "{t} * ({t} - 1) // 2", "each pair of different tokens once"),
    ("minus-one", "{t} * ({t} - 1)", "each token against every other, itself left out"),
)
# A triangle halved with true division, `T * (T + 1) / 2` (a sequence-cost helper's visible
# pairs, `n * (n + 1) / 2`): the same pairs, as a float; only a count the checked function
# returns, as HALVED. Its words say what it keeps, the
# triangle's half of the map, and what `/` does to a count.
TRUE_DIVISION = {
    "plus-one-halved": "only the pairs a causal mask keeps (the lower triangle with its "
                       "diagonal: each token against itself and those before it)",
    "minus-one-halved": "only the pairs of different tokens, each once (the lower triangle "
                        "without its diagonal)",
}
COUNTS = {detail: count for detail, count, _ in TRIANGLES}
# A returned square halved, `T * T // 2`: a causal map's scores as FLOP counters count them,
# `// (2 if causal else 1)` with `causal=True` (danielpwarren/open-blt's
# attention_flops_per_token, flash-attention's benchmark `flops(..., causal)`): only a count the
# checked function returns (`return T * T`), not a square inside another count (`P * P * C`).
HALVED = ("halved", "{t} * {t} // 2",
          "a causal map's scores counted as half the square, as FLOP counters write "
          "`// (2 if causal else 1)` with causal=True")


def squared_name(node: ast.AST) -> str | None:
    """`T` of `T * T` or `T ** 2`, else None."""
    if not isinstance(node, ast.BinOp):
        return None
    if (isinstance(node.op, ast.Mult) and isinstance(node.left, ast.Name)
            and isinstance(node.right, ast.Name) and node.left.id == node.right.id):
        return node.left.id
    if (isinstance(node.op, ast.Pow) and isinstance(node.left, ast.Name)
            and isinstance(node.right, ast.Constant) and node.right.value == 2):
        return node.left.id
    return None


def triangle(context: Context, node: ast.AST) -> Iterator[Change]:
    """`T * T` counted as one of TRIANGLES."""
    name = squared_name(node)
    if name is None:
        return
    returned = is_result(context, node)
    for detail, count, counts in TRIANGLES + ((HALVED,) if returned else ()):
        written = count.format(t=name)
        yield Change(f"{name}-squared-{detail}",
                     f"In {where(context)}, `{code(node)}` is counted as `{written}`, {counts}; "
                     f"the lecture's map has no mask: it scores every token against every "
                     f"token, itself included, `{code(node)}`.",
                     lambda n, written=written: ast.parse(written, mode="eval").body)
    for detail, counts in TRUE_DIVISION.items() if returned else ():  # a returned count's
        written = COUNTS[detail].format(t=name).replace("//", "/")
        yield Change(f"{name}-squared-{detail}-true-division",
                     f"In {where(context)}, `{code(node)}` is counted as `{written}`: {counts}, "
                     f"and `/` makes the count a float (a number ending in .0), where a count "
                     f"is an integer. The lecture's map has no mask: it scores every token "
                     f"against every token, itself included, `{code(node)}`.",
                     lambda n, written=written: ast.parse(written, mode="eval").body,
                     holds=floats_returned)


def floats_returned(function, calls: list, same) -> bool:
    """Whether the code returned a float on every call it returned a number on: what "`/` makes
    the count a float" says beyond the values (a comparison of counts takes a rewrite's 19503.0
    for a student's int 19503, where the triangle with `//` is the one told)."""
    numbers = [c.got for c in calls
               if isinstance(c.got, (int, float, np.number)) and not isinstance(c.got, bool)]
    return bool(numbers) and all(isinstance(n, (float, np.floating)) for n in numbers)


# the head counts of the standard ViTs (Dosovitskiy et al.; DeiT's Ti and S): a square counted
# for all of a model's maps is that many times it
HEADS = {3: "ViT-Ti", 6: "ViT-S", 12: "ViT-B", 16: "ViT-L and ViT-H"}


def every_head(context: Context, node: ast.AST) -> Iterator[Change]:
    """`T * T` counted for all the heads of a standard ViT: `12 * T * T`."""
    if squared_name(node) is None:
        return
    for heads, model in HEADS.items():
        yield Change(f"times-{heads}-heads",
                     f"In {where(context)}, `{code(node)}` is counted for all {heads} heads of "
                     f"a {model}, `{heads} * {code(node)}` (as timm's attention tensor (B, "
                     f"num_heads, N, N) holds them): one attention map, the one asked for, has "
                     f"`{code(node)}` scores.",
                     lambda n, heads=heads: ast.BinOp(ast.Constant(heads), ast.Mult(), n))


@functools.lru_cache(maxsize=256)
def _counts(function: ast.FunctionDef) -> frozenset[int]:
    """The ids of the arithmetic `function` returns (`return P * P * C`): integer expressions of
    names, constants and calls, no arrays built."""
    out = set()
    for statement in ast.walk(function):
        if (isinstance(statement, ast.Return) and isinstance(statement.value, ast.BinOp)
                and not any(isinstance(sub, (ast.Subscript, ast.Attribute, ast.List))
                            for sub in ast.walk(statement.value))):
            out.add(id(statement.value))
    return frozenset(out)


def as_float(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's count returned as a float."""
    if "/" in context.instance.path or id(node) not in _counts(context.instance.node):
        return
    yield Change("count-as-float",
                 f"In {where(context)}, the count `{code(node)}` comes out as a float (a "
                 "number ending in .0), as `/`, `math.pow` or a float constant make it: a count "
                 "is an integer. Compute it with `*`, `**` and `//`, or return int(...).",
                 lambda n: ast.Call(ast.Name("float", ast.Load()), [n], []))


def plus_one(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's count one more: `P * P * C + 1`."""
    if "/" in context.instance.path or id(node) not in _counts(context.instance.node):
        return
    yield Change("count-plus-1",
                 f"In {where(context)}, the count is one more than `{code(node)}`: `"
                 f"{code(node)} + 1` (a constant 1 counted in, as the bias trick's column of "
                 "ones, or a token the count does not hold).",
                 lambda n: ast.BinOp(n, ast.Add(), ast.Constant(1)))


REGISTERS = (4, 8)  # register tokens public ViTs add (DINOv2's num_register_tokens = 4, timm's
# reg4 models; "Vision Transformers Need Registers" also trains 8)


def registers(context: Context, node: ast.AST) -> Iterator[Change]:
    """A count of tokens with register tokens added (DINOv2 with registers'
    `num_register_tokens = 4`, timm's `num_prefix_tokens = 1 + reg_tokens`): only a count of
    the checked function that adds an optional token, `(1 if cls_token else 0)`."""
    if ("/" in context.instance.path or id(node) not in _counts(context.instance.node)
            or not any(isinstance(sub, ast.IfExp) and all(
                isinstance(side, ast.Constant) and type(side.value) is int
                for side in (sub.body, sub.orelse)) for sub in ast.walk(node))):
        return
    for count in REGISTERS:
        yield Change(f"plus-{count}-registers",
                     f"In {where(context)}, the count adds {count} register tokens, "
                     f"`{code(node)} + {count}` (DINOv2 with registers' `num_register_tokens = "
                     f"4`, timm's `reg_tokens`), with or without [CLS]: the lecture's ViT has "
                     f"no register tokens, only the patches and the optional [CLS], "
                     f"`{code(node)}`.",
                     lambda n, count=count: ast.BinOp(n, ast.Add(), ast.Constant(count)))


def doubled(context: Context, node: ast.AST) -> Iterator[Change]:
    """`P * P` (or `P ** 2`) written `P * 2`: a square typed as a double."""
    name = squared_name(node)
    if name is None:
        return
    yield Change(f"{name}-squared-as-doubled",
                 f"In {where(context)}, `{code(node)}` is written `{name} * 2` (`{name} ** 2` "
                 f"typed with one `*`): that is twice `{name}`, not its square; the two agree "
                 f"only when `{name}` is 2.",
                 lambda n: ast.BinOp(ast.Name(name, ast.Load()), ast.Mult(), ast.Constant(2)))


def caret(context: Context, node: ast.AST) -> Iterator[Change]:
    """`P * P` (or `P ** 2`) written `P ^ 2`, MATLAB's and Julia's power (a course script
    translated line by line): Python's `^` is bitwise XOR, which binds after `*`, so a square
    that a product goes on from, `P ^ 2 * C`, is `P ^ (2 * C)`."""
    name, rest = squared_name(node), None
    if (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)
            and squared_name(node.left) is not None):
        name, rest = squared_name(node.left), node.right  # (P * P) * C
    if name is None:
        return
    typed = f"{name} ^ 2" + ("" if rest is None else f" * {code(rest)}")
    exponent = ast.Constant(2) if rest is None else ast.BinOp(ast.Constant(2), ast.Mult(), rest)
    means = (f"`{name}` XOR 2" if rest is None
             else f"`{name} ^ (2 * {code(rest)})`, as `^` binds after `*`")
    yield Change(f"{name}-squared-as-xor" + ("" if rest is None else "-times-rest"),
                 f"In {where(context)}, `{code(node)}` is written `{typed}` (MATLAB's power "
                 f"operator): in Python `^` is bitwise XOR, so this computes {means}, not "
                 f"the square of `{name}`. Write `{name} ** 2` (or `{name} * {name}`).",
                 lambda n, e=exponent: ast.BinOp(ast.Name(name, ast.Load()), ast.BitXor(), e))


OPERATORS = {"triangle": triangle, "doubled": doubled, "caret": caret,
             "count_as_float": as_float,
             "count_plus_one": plus_one, "every_head": every_head,
             "registers": registers}
