"""An accepted alternative activation written with one slip: GELU's tanh approximation typed out
by hand with its cubic term left out, `x ** 2` for `x ** 3`, or sqrt(2 * pi) for sqrt(2 / pi);
the exact GELU with the /sqrt(2) inside erf left out, `0.5 * x * (1 + erf(x))`, or the sign
inside erfc dropped, `0.5 * x * erfc(x / sqrt(2))`.
`operators.activation` swaps the MLP's activation for another whole function; this operator
swaps it for a variant of one, made by a general single-node edit of that function's own source
(tree.py parses it as any reference function):

- a term dropped from a sum or a factor from a product, either side (`operators.term`, and the
  first factor, which it keeps: the 0.5 of `0.5 * x`);
- a power one off (`x ** 3` as `x ** 2` or `x ** 4`);
- a division written as a product (`order.multiplied_for_divided`: 2 / pi as 2 * pi), or a
  product by a constant as a division by it;
- a parameter's minus sign dropped (`erfc(-x / sqrt(2))` as `erfc(x / sqrt(2))`);
- a square root left off a constant (2 / pi where sqrt(2 / pi) belongs), or taken of its
  numerator alone (sqrt(2) / pi), or written `** 1/2` (`x / 2 ** 1/2`, read `x / 2 / 2`:
  `sequence.half_power`).

A variant that computes what an activation of `activations.ACTIVATIONS` computes, or what an
earlier variant does (to within APART on PROBE), is not offered: two rewrites that reproduce the
same outputs name nothing (__init__.search), which would lose a hint that the whole swap names.

`activation_typo` swaps it for a typo of one (`typed_variants`): one binary operator typed as
another (TYPED: `*` as `+`, `+` as `*`, `-` as `+`, `**` as `*`), nanoGPT's `new_gelu` with `x +
0.044715 + x**3` for `x + 0.044715 * x**3` (blind round 80's b80_04). Its few variants (new ones
only) are tried only where every other rewrite finds nothing (LATE, __init__.search).
"""
from __future__ import annotations

import ast
import copy
import functools
import math
from collections.abc import Callable, Iterator

import numpy as np

from .activations import ACTIVATIONS
from .change import Change, Context, callee, code, slug, where
from .confused_ops import with_op
from .operators import ACTIVATION_CALLS, term
from .order import multiplied_for_divided
from .sequence import half_power
from .tree import PREFIX, Edit, Site, build, compile_with, nodes

ALTERNATIVES = ("gelu_tanh", "gelu")  # the activations, of ACTIVATIONS, whose slips are offered
PROBE = np.linspace(-8.0, 8.0, 321)  # where two activations are told apart
APART = 5e-3  # ... when they differ by more than this somewhere on PROBE (a block's tolerance,
# 2e-3 on its output, lets through an activation that is within about 1e-3 of the right one;
# GPT-2's tanh GELU with its brackets dropped is 6e-3 from both GELUs, and a block tells it
# apart: 1e-2 hid it. No other slip lies between 5e-3 and 1e-2 of an activation or of another)


def _reads_parameter(context: Context, node: ast.AST) -> bool:
    """Whether `node` reads a parameter of the function (`x`): no constant."""
    parameters = {a.arg for a in context.instance.node.args.args}
    return any(isinstance(sub, ast.Name) and sub.id in parameters for sub in ast.walk(node))


def _factor_dropped(context: Context, node: ast.AST) -> Iterator[Change]:
    """The first factor of a product left out (`0.5 * x` as `x`); `operators.term` drops the
    second."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        yield Change(f"drop-{slug(code(node.left))}", "", lambda n: n.right)


def _power_off_by_one(context: Context, node: ast.AST) -> Iterator[Change]:
    """An integer power one off: `x ** 3` as `x ** 2` or `x ** 4` (never `x ** 0`)."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow)
            and isinstance(node.right, ast.Constant) and type(node.right.value) is int):
        return
    for new in (node.right.value - 1, node.right.value + 1):
        if new > 0:
            yield Change(f"power-{node.right.value}-as-{new}", "",
                         lambda n, new=new: ast.BinOp(n.left, ast.Pow(), ast.Constant(new)))


def _divided_for_multiplied(context: Context, node: ast.AST) -> Iterator[Change]:
    """A product by a constant written as a division, `x * 0.7978` as `x / 0.7978`: the
    inverse of `order.multiplied_for_divided` (a factor that reads a parameter is no constant
    one could invert by mistake)."""
    if (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)
            and not _reads_parameter(context, node.right)):
        yield Change(f"{slug(code(node.right))}-divided", "",
                     lambda n: ast.BinOp(n.left, ast.Div(), n.right))


def _root_dropped(context: Context, node: ast.AST) -> Iterator[Change]:
    """A square root of a constant left off: `math.sqrt(2.0 / math.pi)` as `2.0 / math.pi`."""
    if (isinstance(node, ast.Call) and callee(node) == "sqrt" and len(node.args) == 1
            and not node.keywords and not _reads_parameter(context, node.args[0])):
        yield Change(f"{slug(code(node.args[0]))}-unrooted", "", lambda n: n.args[0])


def _numerator_rooted(context: Context, node: ast.AST) -> Iterator[Change]:
    """The square root of a ratio of constants taken of its numerator alone:
    `math.sqrt(2.0 / math.pi)` as `math.sqrt(2.0) / math.pi` (picoGPT's constant retyped)."""
    if (isinstance(node, ast.Call) and callee(node) == "sqrt" and len(node.args) == 1
            and not node.keywords and isinstance(node.args[0], ast.BinOp)
            and isinstance(node.args[0].op, ast.Div) and not _reads_parameter(context, node)):
        yield Change(f"{slug(code(node.args[0]))}-numerator-rooted", "",
                     lambda n: ast.BinOp(ast.Call(n.func, [n.args[0].left], []), ast.Div(),
                                         n.args[0].right))


def _sign_dropped(context: Context, node: ast.AST) -> Iterator[Change]:
    """A parameter's minus sign dropped, `-x` as `x`: `erfc(x / sqrt(2))` for `erfc(-x /
    sqrt(2))`, x (1 - Phi(x)) where x Phi(x) belongs (a constant's sign is no slip offered)."""
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Name) and _reads_parameter(context, node)):
        yield Change(f"{node.operand.id}-sign-dropped", "", lambda n: n.operand)


def _bracket_dropped(context: Context, node: ast.AST) -> Iterator[Change]:
    """A constant factor of a sum of the parameter's terms typed without the sum's brackets,
    so that it multiplies the nearest term only: `c * (x + 0.044715 * x ** 3)` as `c * x +
    0.044715 * x ** 3` (GPT-2's "gelu_new" retyped, tinygrad PR #5048), `(x + t) * c` as
    `x + t * c`. Only where both terms read the parameter (`1.0 + np.tanh(...)` is no such
    sum)."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)):
        return
    for factor, total, first in ((node.left, node.right, True), (node.right, node.left, False)):
        if not (isinstance(total, ast.BinOp) and isinstance(total.op, (ast.Add, ast.Sub))
                and not _reads_parameter(context, factor)
                and _reads_parameter(context, total.left)
                and _reads_parameter(context, total.right)):
            continue
        yield Change(f"{slug(code(factor))}-brackets-dropped", "",
                     (lambda n: ast.BinOp(ast.BinOp(n.left, ast.Mult(), n.right.left),
                                          n.right.op, n.right.right)) if first else
                     (lambda n: ast.BinOp(n.left.left, n.left.op,
                                          ast.BinOp(n.left.right, ast.Mult(), n.right))))


SLIPS = (term, _factor_dropped, _power_off_by_one, multiplied_for_divided,
         _divided_for_multiplied, _root_dropped, _numerator_rooted, half_power,
         _sign_dropped, _bracket_dropped)  # in this order

# an operator -> the operators it is typed as (`/` as `*` is a slip already: multiplied_for_divided)
TYPED = {ast.Mult: (ast.Add,), ast.Add: (ast.Mult,), ast.Sub: (ast.Add,), ast.Pow: (ast.Mult,)}
SYMBOLS = {ast.Mult: ("*", "times"), ast.Add: ("+", "plus"), ast.Sub: ("-", "minus"),
           ast.Pow: ("**", "power")}


def _operator_typed(context: Context, node: ast.AST) -> Iterator[Change]:
    """One binary operator typed as another (TYPED): `0.044715 * x ** 3` as `0.044715 + x **
    3`, `1.0 + np.tanh(...)` as `1.0 * np.tanh(...)`, `x ** 3` as `x * 3`."""
    if not isinstance(node, ast.BinOp):
        return
    for op in TYPED.get(type(node.op), ()):
        yield Change(f"{slug(code(node))}-{SYMBOLS[type(node.op)][1]}-as-{SYMBOLS[op][1]}", "",
                     lambda n, op=op: with_op(n, op))


TYPOS = (_operator_typed,)


def _words(parent: ast.AST | None, node: ast.AST, replace: Callable) -> str:
    """The slip `replace` makes at `node` in the lecture's words: "`0.044715 * x ** 3` left
    out of `x + 0.044715 * x ** 3`" (the whole formula not quoted again), "`x ** 2` where
    `x ** 3` belongs"; a call's sole argument quoted with its call, "`math.sqrt(2.0 *
    math.pi)` where `math.sqrt(2.0 / math.pi)` belongs"."""
    shown = copy.deepcopy(node)
    new = replace(shown)
    if isinstance(shown, ast.BinOp) and any(new is side for side in (shown.left, shown.right)):
        gone = code(shown.right if new is shown.left else shown.left)
        return (f"`{gone}` left out" if isinstance(parent, ast.Return)
                else f"`{gone}` left out of `{code(node)}`")
    if isinstance(parent, ast.Call) and len(parent.args) == 1 and parent.args[0] is node:
        written = copy.copy(parent)
        written.args = [new]
        return f"`{code(written)}` where `{code(parent)}` belongs"
    return f"`{code(new)}` where `{code(node)}` belongs"


def _parents(tree: ast.AST) -> dict[int, ast.AST | None]:
    return {id(node): parent for node, parent, _, _ in nodes(tree)}


@functools.cache
def variants(alternatives: tuple[str, ...] = ALTERNATIVES
             ) -> tuple[tuple[str, str, str, Callable], ...]:
    """(alternative, detail, what it is, function) for each slip of each of `alternatives`
    (names of ACTIVATIONS) that computes something no activation of ACTIVATIONS and no earlier
    slip computes, in the order of `alternatives` and of each one's source (pre-order). A slip
    of a later alternative that computes what an earlier one's does (to within APART: the
    exact GELU and its tanh approximation, each without its 0.5) is said in the earlier one's
    words too, never as the earlier one alone: the cases cannot tell the two apart."""
    taken = [_values(function or (lambda x: x)) for _, function in ACTIVATIONS.values()]
    return _kept(alternatives, SLIPS, taken)


@functools.cache
def typed_variants(alternatives: tuple[str, ...] = ALTERNATIVES
                   ) -> tuple[tuple[str, str, str, Callable], ...]:
    """As `variants`, for the typos (TYPOS) of `alternatives`: each computing something no
    activation, no slip of `variants` and no earlier typo computes (the slips' words are the
    plainer: `/` as `*` is one of them)."""
    taken = [_values(function or (lambda x: x)) for _, function in ACTIVATIONS.values()]
    taken += [_values(function) for *_, function in variants(alternatives)]
    return _kept(alternatives, TYPOS, taken)


def _kept(alternatives: tuple[str, ...], slips: tuple[Callable, ...], taken: list
          ) -> tuple[tuple[str, str, str, Callable], ...]:
    """`variants`' list for the slips `slips` makes, none computing what `taken` holds."""
    kept = []  # [alternative, detail, [(alternative, words), ...], function, values]
    for name in alternatives:
        details = set()  # a detail made twice: numbered
        for detail, words, function, values in _slips(name, slips):
            if any(_alike(values, other) for other in taken):
                continue
            twin = next((k for k in kept if k[0] != name and _alike(values, k[4])), None)
            if twin is not None:
                twin[2].append((name, words))
                continue
            if any(_alike(values, k[4]) for k in kept):
                continue
            number, base = 1, detail
            while detail in details:
                number += 1
                detail = f"{base}.{number}"
            details.add(detail)
            kept.append([name, detail, [(name, words)], function, values])
    return tuple((name, detail, _said(said), function)
                 for name, detail, said, function, _ in kept)


def _said(said: list[tuple[str, str]]) -> str:
    """"GELU's tanh approximation with `0.5` left out of `0.5 * x`", or, for slips of two
    alternatives that compute the same, both ("... or the exact GELU with ...")."""
    if len({words for _, words in said}) == 1 and len(said) > 1:
        return (" or ".join(ACTIVATIONS[name][0] for name, _ in said)
                + f", with {said[0][1]} (the cases cannot tell which)")
    text = " or ".join(f"{ACTIVATIONS[name][0]} with {words}" for name, words in said)
    return text + (" (the cases cannot tell which)" if len(said) > 1 else "")


def _slips(name: str, slips: tuple[Callable, ...]
           ) -> Iterator[tuple[str, str, Callable, np.ndarray]]:
    """(detail, words, function, its values on PROBE) for each slip `slips` make of
    ACTIVATIONS[name] that runs on PROBE."""
    root = build(ACTIVATIONS[name][1])
    if root is None:
        return
    parents = _parents(root.node)
    for index, (node, _, _, _) in enumerate(nodes(root.node)):
        for change in (change for slip in slips for change in slip(Context(name, root), node)):
            edit = Edit("slip", Site(root.path, index), change.detail, "", change.replace)
            try:
                function = compile_with(root, [edit])
            except (SyntaxError, ValueError, TypeError):
                continue
            values = _values(function)
            if values is None:
                continue
            words = _words(parents[id(node)], node, change.replace)
            if change.detail.startswith("sqrt-as-half-power"):  # how it came to be typed
                words += " (a square root written `** 1/2`, which Python reads as `/ 2`)"
            if change.detail.endswith("-sign-dropped"):  # quoted with what it divides
                words = _sign_words(parents[id(node)], node)
            if change.detail.endswith("-brackets-dropped"):  # what the brackets were for
                words += " (the brackets left off: the factor multiplies one term only)"
            if slips is TYPOS:  # which operator was typed for which
                typed = change.replace(copy.deepcopy(node)).op
                words += (f" (a `{SYMBOLS[type(typed)][0]}` typed for a "
                          f"`{SYMBOLS[type(node.op)][0]}`)")
            yield change.detail, words, function, values


def _sign_words(parent: ast.AST, node: ast.UnaryOp) -> str:
    """"`x / math.sqrt(2.0)` where `-x / math.sqrt(2.0)` belongs (its minus sign dropped)"."""
    written = copy.copy(parent)
    for field, value in ast.iter_fields(parent):
        if value is node:
            setattr(written, field, node.operand)
    return f"`{code(written)}` where `{code(parent)}` belongs (its minus sign dropped)"


def _values(function: Callable) -> np.ndarray | None:
    """The function on PROBE; None when it raises or is not an array of PROBE's shape there."""
    with np.errstate(all="ignore"):
        try:
            values = np.asarray(function(PROBE.copy()), dtype=float)
        except Exception:  # noqa: BLE001 - a slip that cannot run is no slip a student made
            return None
    return values if values.shape == PROBE.shape else None


def _alike(values: np.ndarray | None, other: np.ndarray | None) -> bool:
    if values is None or other is None:
        return False
    with np.errstate(all="ignore"):
        gaps = np.abs(values - other)
    return bool(np.all(np.isnan(values) == np.isnan(other))
                and np.nanmax(np.where(np.isnan(gaps), 0.0, gaps)) <= APART)


def activation_slip(context: Context, node: ast.AST) -> Iterator[Change]:
    """The activation swapped for an accepted alternative written with one slip (GELU's tanh
    approximation with its cubic term left out)."""
    yield from _swapped(context, node, variants(), "slip")


def activation_typo(context: Context, node: ast.AST) -> Iterator[Change]:
    """The activation swapped for an accepted alternative with one operator typed as another
    (GELU's tanh approximation with `0.044715 + x ** 3`): tried last (LATE)."""
    yield from _swapped(context, node, typed_variants(), "typo")


def _swapped(context: Context, node: ast.AST, found: tuple, kind: str) -> Iterator[Change]:
    """The activation call `node` swapped for each variant of `found` (`variants()`'s form)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ACTIVATION_CALLS and len(node.args) == 1):
        return
    for number, (name, detail, slip, function) in enumerate(found):
        bound = f"{PREFIX}{kind}_{number}"
        yield Change(f"act={name}.{detail}",
                     f"In {where(context)}, the activation is {slip}.",
                     lambda n, bound=bound: ast.Call(ast.Name(bound, ast.Load()), n.args, []),
                     ((bound, function),))


def gelu_by_item(x):
    """The exact GELU of each item of `x` with math's scalar erfc: a list over the first axis."""
    return np.array([0.5 * v * math.erfc(-v / math.sqrt(2.0)) for v in x])


def activation_by_item(context: Context, node: ast.AST) -> Iterator[Change]:
    """The activation computed item by item, a Python loop over its input calling a scalar
    function of the `math` module (`[0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x]`,
    numpy having no erf): right for a 1-D array, a TypeError on a (T, d) one, whose items are
    its rows."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ACTIVATION_CALLS and len(node.args) == 1):
        return
    bound = f"{PREFIX}gelu_by_item"
    yield Change("act=by-item",
                 f"In {where(context)}, the activation `{code(node)}` is computed item by item, "
                 "a Python loop over its input calling a function of the `math` module "
                 "(`math.erf`, `math.tanh`) on each item: right for a 1-D array, but the items "
                 "of a (T, d) array are its rows, and math's functions take one number "
                 "(TypeError). Apply numpy's elementwise functions to the whole array "
                 "(`scipy.special.erf`, `np.tanh`).",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), n.args, []),
                 ((bound, gelu_by_item),))


OPERATORS = {"activation_slip": activation_slip,
             "activation_by_item": activation_by_item,
             "activation_typo": activation_typo}  # tried after order.OPERATORS
LATE = frozenset({"activation_typo"})  # tried only where no other rewrite, single or pair, is
