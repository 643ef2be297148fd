"""The rewrite operators: each finds the places in a reference instance where it applies and,
for each, the edits it makes there, with the sentence a student reads when that edit reproduces
their outputs. An operator is `f(context, node) -> iterator of Change`; OPERATORS lists them in
the order they are tried (the ones that cover the most first). docs/authoring.md, "An error
model operator", says how to add one.
"""
from __future__ import annotations

import ast
import copy
import inspect
import re
from collections.abc import Iterator

from . import scales
from .activations import ACTIVATIONS
from .change import (
    EFFECT,
    Change,
    Context,
    Renamed,
    callee,
    code,
    key_of,
    literal,
    one_apart,
    residual_sides,
    skipped,
    slug,
    where,
    whose,
    with_first,
    with_keyword,
)
from .given_axes import AXES_FROM_END, THEIRS, given_array
from .grids import READ_TRANSPOSED, cuts_patches
from .reshapes import untransposed
from .tree import PREFIX
from .triangles import diagonal
from .weights import transposed_sentence

# --- the operators ------------------------------------------------------------------------------

AXES = (-1, 0, 1, -2, None)


def default_axis(context: Context, node: ast.Call) -> int | None:
    """The default `axis` of a helper the node calls without one (`softmax(scores)`: -1), so
    that the call itself can be given another; None for any other node."""
    child = context.instance.children.get(getattr(node.func, "id", None))
    if child is None or len(node.args) > 1 or any(k.arg == "axis" for k in node.keywords):
        return None
    parameter = inspect.signature(child.function).parameters.get("axis")
    default = None if parameter is None else parameter.default
    return default if isinstance(default, int) and not isinstance(default, bool) else None


def axis(context: Context, node: ast.AST) -> Iterator[Change]:
    """A reduction (max, sum, mean, var, softmax) over another axis, or over the whole array;
    a helper that takes an axis (softmax) called with another one. An array the function makes
    itself: its axes counted from the end first (AXES_FROM_END), a number from the start said as
    the model solution's array's."""
    if not isinstance(node, ast.Call):
        return
    given = [(k.value, literal(k.value)) for k in node.keywords if k.arg == "axis"]
    default = default_axis(context, node)
    if default is not None:
        given.append((None, default))
    own = given_array(context, node)
    for value_node, old in given:
        theirs = "" if own or not isinstance(old, int) or old < 0 else THEIRS
        shown = (f"the axis `{code(value_node)}` it is given" if isinstance(old, ast.AST)
                 else f"axis {old}{theirs}" if value_node is not None
                 else f"axis {old}, the default of `{callee(node)}`")
        for new in AXES if own else AXES_FROM_END:
            if new == old:
                continue
            value = ast.Constant(new) if new is not None or value_node is None else None
            over = ("the whole array" if new is None else f"axis {new}"
                    + ("" if own or new < 0 else THEIRS))
            # either reading is true of code that reproduces it: that axis, or the right one of an
            # array laid out otherwise (b48_06: not a premise its own `axis=1` makes false)
            how = "" if new is None else (
                " (your code works along that axis, or along the right one of an array whose "
                "axes are in another order than the lecture's)")
            yield Change(f"{callee(node)}.axis={new}",
                         f"In {where(context)}, your values are the model solution's with "
                         f"`{code(node)}` taken over {over}, {EFFECT}"
                         f"`{code(with_keyword(node, 'axis', value))}`, instead of over "
                         f"{shown}{how}.",
                         lambda n, value=value: with_keyword(n, "axis", value))


def keepdims(context: Context, node: ast.AST) -> Iterator[Change]:
    """keepdims=True dropped: the reduced axis is gone and the result broadcasts elsewhere."""
    if isinstance(node, ast.Call) and any(k.arg == "keepdims" for k in node.keywords):
        yield Change(f"{callee(node)}.keepdims",
                     f"In {where(context)}, `{code(node)}` is computed without keepdims=True: "
                     "the reduced axis is dropped, so the result broadcasts along the wrong axis.",
                     lambda n: with_keyword(n, "keepdims", None))


def kept_by_index(context: Context, node: ast.AST) -> Iterator[Change]:
    """keepdims=True written as `[:, None]` after the reduction, or as `.reshape(-1, 1)` (a
    homework's column of means): the same for a (T, d) array, not with leading axes; or as
    `[..., None]` (objax's softmax): the same over the last axis, not over another."""
    if isinstance(node, ast.Call) and any(k.arg == "keepdims" for k in node.keywords):
        def indexed(n: ast.Call) -> ast.AST:
            index = ast.Tuple([ast.Slice(), ast.Constant(None)], ast.Load())
            return ast.Subscript(with_keyword(n, "keepdims", None), index, ast.Load())

        def column(n: ast.Call) -> ast.AST:
            return ast.Call(ast.Attribute(with_keyword(n, "keepdims", None), "reshape",
                                          ast.Load()), [ast.Constant(-1), ast.Constant(1)], [])

        yield Change(f"{callee(node)}.keepdims-as-index",
                     f"In {where(context)}, `{code(node)}` is written with `[:, None]` instead of "
                     "keepdims=True: right for a (T, d) array, but with leading axes the kept "
                     "axis lands second instead of last.", indexed)

        def trailing(n: ast.Call) -> ast.AST:
            index = ast.Tuple([ast.Constant(...), ast.Constant(None)], ast.Load())
            return ast.Subscript(with_keyword(n, "keepdims", None), index, ast.Load())

        yield Change(f"{callee(node)}.keepdims-as-trailing-index",
                     f"In {where(context)}, `{code(node)}` is written with `[..., None]` instead "
                     "of keepdims=True: right where it reduces the last axis, but over another "
                     "axis the kept axis lands last instead of in its own place.", trailing)
        def rows(n: ast.Call) -> ast.AST:
            first = ast.Subscript(ast.Attribute(copy.deepcopy(n.args[0]), "shape", ast.Load()),
                                  ast.Constant(0), ast.Load())
            return ast.Call(ast.Attribute(with_keyword(n, "keepdims", None), "reshape",
                                          ast.Load()), [first, ast.Constant(1)], [])

        if node.args:
            shown = code(node.args[0])
            yield Change(f"{callee(node)}.keepdims-as-rows",
                         f"In {where(context)}, `{code(node)}` is made a column with "
                         f"`.reshape({shown}.shape[0], 1)` (or `len({shown})`) instead of "
                         "keepdims=True: a shape written for a (T, d) array, so one token (d,) "
                         "or a batch with leading axes does not fit it.", rows)
        yield Change(f"{callee(node)}.keepdims-as-column",
                     f"In {where(context)}, `{code(node)}` is made a column with `.reshape(-1, "
                     "1)` instead of keepdims=True: right for a (T, d) array, but a batched one "
                     "no longer lines up with its rows, and one token (d,) comes back (1, d).",
                     column)


def ddof(context: Context, node: ast.AST) -> Iterator[Change]:
    """The unbiased variance (ddof=1) where the biased one is meant."""
    if isinstance(node, ast.Call) and callee(node) in ("var", "std") and not any(
            k.arg == "ddof" for k in node.keywords):
        yield Change(f"{callee(node)}.ddof=1",
                     f"In {where(context)}, the variance is the unbiased one (ddof=1, torch.var's "
                     f"default) where `{code(node)}` is the biased one (ddof=0).",
                     lambda n: with_keyword(n, "ddof", ast.Constant(1)))


def _swapped(node: ast.AST) -> ast.AST:
    return ast.Call(ast.Attribute(node, "swapaxes", ast.Load()),
                    [ast.Constant(-1), ast.Constant(-2)], [])


def transpose(context: Context, node: ast.AST) -> Iterator[Change]:
    """A transpose removed (.T, .swapaxes, .transpose) or added to a matrix product's operand."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in ("swapaxes", "transpose"):
        yield Change(f"{slug(code(node.func.value))}.{node.func.attr}-removed",
                     untransposed(context, node), lambda n: n.func.value)
    elif isinstance(node, ast.Attribute) and node.attr == "T":
        yield Change(f"{slug(code(node.value))}.T-removed",
                     f"In {where(context)}, `{code(node)}` is used without its transpose.",
                     lambda n: n.value)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        for side in ("left", "right"):
            operand = getattr(node, side)
            shared = (f"In {where(context)}, `{code(node)}` uses `{code(operand)}` transposed "
                      f"(torch's nn.Linear stores weights as (out, in); here they multiply from "
                      f"the right as they are).")
            named = transposed_sentence(context, node) if side == "right" else None
            yield Change(f"{slug(code(operand))}.T-added", named or shared,
                         lambda n, side=side: _replace_side(n, side, _swapped(getattr(n, side))),
                         shared=shared)


def _replace_side(node: ast.BinOp, side: str, value: ast.AST) -> ast.BinOp:
    new = copy.copy(node)
    setattr(new, side, value)
    return new


def _term_words(term: ast.AST, kept: ast.AST, op: ast.operator) -> str:
    """What a dropped term is in the lecture's words, read from its code."""
    text = code(term)
    if isinstance(term, (ast.Name, ast.Subscript, ast.Attribute)):
        name = text.rsplit("[", 1)[-1].strip("'\"]").rsplit(".", 1)[-1]
        if name == "eps":
            return "eps"
        if "pos" in name:
            return "the positions"
        if name == "mean":
            return "the mean subtraction"
        if name in ("gamma", "g") or name.endswith("_g"):
            return "the gain gamma"
        if name in ("beta",) or name.endswith("_b") and isinstance(op, ast.Add):
            return "the shift beta"
        if name == "bias" or re.fullmatch(r"b(_?\w{0,2})?\d?", name):
            return "the bias"  # a bias is no residual, after a call (`tensordot(...) + b`) too
        if isinstance(op, ast.Add) and isinstance(kept, ast.Call):
            return "the residual"
    if "max(" in text:
        return "the max subtraction"
    if isinstance(op, ast.Div):
        return "the division by"
    return "the term"


def term(context: Context, node: ast.AST) -> Iterator[Change]:
    """A term dropped from a sum (bias, residual, positions, max subtraction, eps, beta) or a
    factor or divisor from a product (gamma, the scale, the normalisation)."""
    if not isinstance(node, ast.BinOp) or not isinstance(
            node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        return
    sides = (("right", "left"), ("left", "right")) if isinstance(node.op, ast.Add) else \
        (("right", "left"),)
    for dropped, kept in sides:
        gone, stays = getattr(node, dropped), getattr(node, kept)
        words = _term_words(gone, stays, node.op)
        if words == "the residual":
            sentence = (f"In {where(context)}, the residual is missing: `{code(node)}` is "
                        f"computed as `{code(stays)}`, without adding `{code(gone)}` back.")
        else:
            nearly = (" (or added scaled to almost nothing, as a LayerScale of 1e-5 would)"
                      if isinstance(gone, ast.Call) and isinstance(node.op, ast.Add) else "")
            sentence = (f"In {where(context)}, {words} `{code(gone)}` is left out of "
                        f"`{code(node)}`{nearly}.")
        yield Change(f"drop-{slug(code(gone))}", sentence,
                     lambda n, kept=kept: getattr(n, kept))


EPS_STATED = ("layer_norm", "encoder_block")  # the student API's "LayerNorm uses eps=1e-6"
EPSILONS = (1e-5, 1e-6, 1e-8, 1e-12, 1e-3, 0.0)  # 1e-3: Keras's LayerNormalization default


def _sqrt(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and callee(node) == "sqrt" and len(node.args) == 1
            and not node.keywords)


def constant(context: Context, node: ast.AST) -> Iterator[Change]:
    """A constant changed: eps among EPSILONS; the scale sqrt(d_h) as d_h, sqrt(d) or d, as
    another power of another size, or as a factor (sqrt(heads), d, ...: scales.py)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, float) and \
            0 < node.value < 1e-2:
        for new in EPSILONS:
            if new != node.value:
                yield Change(f"eps={new:g}",
                             f"In {where(context)}, eps is {new:g}; {whose(context, EPS_STATED)}"
                             f" is {node.value:g}.", lambda n, new=new: ast.Constant(new))
    if _sqrt(node) and "shape" in code(node.args[0]):  # the scale (scales.py)
        yield from scales.lecture_scales(context, node)
        yield from scales.other_sizes(context, node)
        yield from scales.factors(context, node)


def _with_arg(node: ast.Call, arg: ast.AST) -> ast.Call:
    new = copy.copy(node)
    new.args = [arg]
    return new


def root(context: Context, node: ast.AST) -> Iterator[Change]:
    """A term moved out of a square root, sqrt(var + eps) as sqrt(var) + eps, or the root left
    off, var + eps."""
    if _sqrt(node) and isinstance(node.args[0], ast.BinOp) and \
            isinstance(node.args[0].op, ast.Add):
        inner = node.args[0]
        yield Change(f"{slug(code(inner.right))}-outside-sqrt",
                     f"In {where(context)}, `{code(inner.right)}` is added outside the square "
                     f"root, `sqrt({code(inner.left)}) + {code(inner.right)}`, instead of "
                     f"inside it, `{code(node)}`.",
                     lambda n: ast.BinOp(_with_arg(n, n.args[0].left), ast.Add(),
                                         n.args[0].right))
        yield Change("sqrt-left-off",
                     f"In {where(context)}, `{code(inner)}` is used without its square root, "
                     f"where `{code(node)}` belongs: dividing by the variance, not by the "
                     "standard deviation.", lambda n: n.args[0])


ACTIVATION_CALLS = frozenset({"activation", "gelu", "gelu_tanh", "quick_gelu", "act"})


def activation(context: Context, node: ast.AST) -> Iterator[Change]:
    """The activation swapped (activations.ACTIVATIONS: GELU exact or tanh, ELU, ReLU, ...)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ACTIVATION_CALLS and len(node.args) == 1):
        return
    for name, (words, function) in ACTIVATIONS.items():
        if name == node.func.id or (node.func.id == "activation" and name == "gelu"):
            continue
        bound = f"{PREFIX}act_{name}"
        yield Change(f"act={name}",
                     f"In {where(context)}, the activation is {words} where "
                     f"{whose(context)} activation is GELU (exact, x * Phi(x); its tanh "
                     "approximation is accepted).",
                     (lambda n: n.args[0]) if function is None else
                     (lambda n, bound=bound: ast.Call(ast.Name(bound, ast.Load()), n.args, [])),
                     () if function is None else ((bound, function),))


def skip(context: Context, node: ast.AST) -> Iterator[Change]:
    """A step of the reference left out: a helper's call replaced by its first argument."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id.startswith(PREFIX) and node.args):
        label = context.instance.children[node.func.id].path.rsplit("/", 1)[-1]
        yield Change(f"skip-{label}", skipped(context, node), lambda n: n.args[0])


def _int_index(node: ast.AST) -> int | None:
    """The integer a subscript reads, `0` or `-1` (a unary minus on a constant), else None."""
    value = literal(node) if isinstance(node, (ast.Constant, ast.UnaryOp)) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def off_by_one(context: Context, node: ast.AST) -> Iterator[Change]:
    """An index one off: x[0] as x[1] or x[-1]; q.shape[-1] as q.shape[-2] or q.shape[0]; or
    on the other axis: x[0] as x[:, 0] (a batched port's `x[:, 0]` for [CLS] kept)."""
    if isinstance(node, ast.Subscript) and _int_index(node.slice) is not None:
        old = _int_index(node.slice)
        for new in sorted({old + 1, old - 1, -1} - {old}):
            yield Change(f"{slug(code(node.value))}[{new}]",
                         f"In {where(context)}, `{code(node)}` reads index {new} instead of "
                         f"{old}: `{code(_with_index(node, new))}`.",
                         lambda n, new=new: _with_index(n, new))
        if not (isinstance(node.value, ast.Attribute) and node.value.attr == "shape"):
            yield Change(f"{slug(code(node.value))}[:,{old}]",
                         f"In {where(context)}, `{code(node)}` reads along the second axis, "
                         f"`{code(node.value)}[:, {old}]` (a column, not a row).",
                         lambda n: _second_axis(n))


def _second_axis(node: ast.Subscript) -> ast.Subscript:
    new = copy.copy(node)
    new.slice = ast.Tuple([ast.Slice(), node.slice], ast.Load())
    return new


def _with_index(node: ast.Subscript, index: int) -> ast.Subscript:
    new = copy.copy(node)
    new.slice = ast.Constant(index)
    return new


def _activation_calls(function: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(function) if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name) and n.func.id in ACTIVATION_CALLS and len(n.args) == 1]


def activation_added(context: Context, node: ast.AST) -> Iterator[Change]:
    """The function's activation applied to another step's output too (Keras's Dense layers
    each built with activation=gelu: GELU after the MLP's second linear map as well)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id.startswith(PREFIX)):
        return
    calls = _activation_calls(context.instance.node)
    if not calls or any(node is call.args[0] for call in calls):
        return
    name = calls[0].func.id
    yield Change(f"{name}-after-{context.instance.children[node.func.id].path.rsplit('/', 1)[-1]}",
                 f"In {where(context)}, `{code(node)}` also goes through the activation "
                 f"`{name}(...)`: only `{code(calls[0].args[0])}` is followed by it.",
                 lambda n, name=name: ast.Call(ast.Name(name, ast.Load()), [n], []))


def activation_moved(context: Context, node: ast.AST) -> Iterator[Change]:
    """The activation applied to a step's input instead of its output: `act(linear(x, ...))`
    as `linear(act(x), ...)`."""
    if not (isinstance(node, ast.Call) and node in _activation_calls(context.instance.node)):
        return
    step = node.args[0]
    if not (isinstance(step, ast.Call) and isinstance(step.func, ast.Name)
            and step.func.id.startswith(PREFIX) and step.args):
        return
    yield Change("activation-before-step",
                 f"In {where(context)}, the activation `{node.func.id}(...)` is applied to "
                 f"`{code(step.args[0])}`, the input of `{code(step)}`, instead of to its output.",
                 lambda n: with_first(n.args[0], ast.Call(n.func, [n.args[0].args[0]], [])))


def first_element(context: Context, node: ast.AST) -> Iterator[Change]:
    """A loop that uses the first element on every pass (`blocks[0]` for every block)."""
    if not (isinstance(node, ast.For) and isinstance(node.target, ast.Name)):
        return
    first = ast.Subscript(node.iter, ast.Constant(0), ast.Load())

    def replace(n: ast.For) -> ast.For:
        new = copy.copy(n)
        renamed = Renamed(n.target.id, ast.Subscript(n.iter, ast.Constant(0), ast.Load()))
        new.body = [renamed.visit(copy.deepcopy(statement)) for statement in n.body]
        return new

    yield Change(f"{node.target.id}-first",
                 f"In {where(context)}, every pass of `for {node.target.id} in "
                 f"{code(node.iter)}` uses the first one, `{code(first)}`, instead of "
                 f"`{node.target.id}`.", replace)


def residual_of_step(context: Context, node: ast.AST) -> Iterator[Change]:
    """A residual that adds back the branch's normalised input, not its input: `x +
    f(norm(x))` as `norm(x) + f(norm(x))` (one variable kept for both, as HF's ViTLayer)."""
    for kept, branch, base, step in residual_sides(node):
        yield Change(f"residual-from-{slug(callee(step))}",
                     f"In {where(context)}, the residual of `{code(node)}` adds back "
                     f"`{code(step)}`, the step's output, instead of `{base.id}` itself.",
                     lambda n, kept=kept, branch=branch: _replace_side(
                         n, kept, copy.deepcopy(getattr(n, branch).args[0])))


def parameter(context: Context, node: ast.AST) -> Iterator[Change]:
    """A parameter read in place of a sibling one (copy and paste: `W_q` for the keys, the
    first LayerNorm's gain and shift again in the second, gamma for beta)."""
    old = key_of(node)
    if old is None:
        return
    owner = code(node.value)
    keys = sorted({key_of(n) for n in ast.walk(context.instance.node)
                   if key_of(n) is not None and code(n.value) == owner})
    for new in (k for k in keys if one_apart(old, k)):
        shown = f"{owner}[{new!r}]"
        yield Change(f"{slug(old)}-as-{slug(new)}",
                     f"In {where(context)}, `{shown}` is read where `{code(node)}` belongs.",
                     lambda n, new=new: _with_key(n, new))


def _with_key(node: ast.Subscript, key: str) -> ast.Subscript:
    new = copy.copy(node)
    new.slice = ast.Constant(key)
    return new


def rows_and_columns(context: Context, node: ast.AST) -> Iterator[Change]:
    """A step given its array with the first two axes swapped: an image read as (W, H, C), as
    PIL sizes are written, or a matrix transposed before the step."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id.startswith(PREFIX) and node.args
            and isinstance(node.args[0], ast.Name)):
        return
    first, step = node.args[0].id, context.instance.children.get(node.func.id)
    sentence = (f"In {where(context)}, `{code(node)}` is given `{first}` with its first two "
                f"axes swapped, `{first}.swapaxes(0, 1)` (rows as columns: W, H for H, W).")
    if step is not None and step.node.args.args and cuts_patches(
            step.node, step.node.args.args[0].arg):  # what the swap does to the patches
        sentence = (f"In {where(context)}, `{first}` is cut into patches with its rows and "
                    f"columns swapped: {READ_TRANSPOSED} (the model solution's code read as if "
                    f"`{code(node)}` were given `{first}.swapaxes(0, 1)`).")
    yield Change(f"{first}-axes-swapped", sentence,
                 lambda n: with_first(n, ast.Call(ast.Attribute(n.args[0], "swapaxes",
                                                                 ast.Load()),
                                                   [ast.Constant(0), ast.Constant(1)], [])))


# tried in this order (the budget may stop the search before the last)
OPERATORS = {"axis": axis, "keepdims": keepdims, "kept_by_index": kept_by_index,
             "diagonal": diagonal, "term": term,
             "constant": constant, "root": root, "activation": activation, "ddof": ddof,
             "transpose": transpose,
             "skip": skip, "index": off_by_one, "activation_added": activation_added,
             "loop": first_element, "residual": residual_of_step, "parameter": parameter,
             "rows_and_columns": rows_and_columns, "activation_moved": activation_moved}
