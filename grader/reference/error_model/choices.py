"""Operators on a choice the reference makes that a student makes the other way, each right in
its own steps: a condition never looked at (`1 if cls_token else 0` always 1, the causal mask
whatever `causal` says), an option of a step switched on (`self_attention(..., causal=True)`
in a ViT block), the parts of a concatenation in the other order ([CLS] appended, not
prepended), two parameters used in each other's place (`x_hat * beta + gamma`), a gain used as an
offset from one (`x_hat * (1 + gamma)`, Gemma's), two axes of a
transpose swapped (patches numbered down the columns, each patch read column by column), and a
LayerNorm moved after its residual sum (post-LN, the 2017 Transformer's order, in a pre-LN
block), a reduction written as another (the mean for the max), the function's input added to
its result (a residual inside a sublayer), an affine map's shift added before its scale, and a
table of rows added as its first row only (`pos[0]`) or one row late (`pos[:-1]`), an epsilon
used as a floor, a loop run from its end, the result transposed or a product returned as its
factors, a parameter read as zeros, a residual added around a step that has its own, and a
stabilising shift written as a clip (`np.clip(x, -500, 500)` for `x - max(x)`), and a switch's
default the other way round (`causal=True` in the signature: minGPT's mask always on).
Each is an operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
import functools
import inspect
import itertools
from collections.abc import Iterator

from .change import (
    Change,
    Context,
    called_function,
    callee,
    code,
    is_checked_function,
    is_result,
    slug,
    where,
    whose,
)
from .evidence import named_right, passed_against
from .order import axes_swapped  # listed here: the search tries it in this module's order

JOINS = ("vstack", "hstack", "concatenate", "row_stack", "column_stack")
REDUCTIONS = {"max": ("mean", "min"), "min": ("mean", "max"), "sum": ("mean",),
              "mean": ("sum", "median")}  # a reduction -> the ones written in its place


def condition_ignored(context: Context, node: ast.AST) -> Iterator[Change]:
    """`a if cond else b` as `a`: the condition never looked at, the first branch taken always
    (`num_patches(...) + 1` whatever `cls_token` says; the mask made whatever `causal` says):
    a condition on the checked function's own parameters, said where a call passed one
    (`passed_against`), not in a helper (its caller's value: `option_on`)."""
    if not isinstance(node, ast.IfExp) or "/" in context.instance.path:
        return
    tested = {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)}
    arguments = context.instance.node.args
    read = tuple((a.arg, i if a in arguments.args else 1 << 30) for i, a in enumerate(
        [*arguments.args, *arguments.kwonlyargs]) if a.arg in tested)
    if not read:
        return
    yield Change(f"{slug(code(node.test))}-ignored",
                 f"In {where(context)}, `{code(node)}` is always `{code(node.body)}`: whatever "
                 f"`{code(node.test)}` says, the code takes that branch; look at "
                 f"`{code(node.test)}` (false: `{code(node.orelse)}`).",
                 lambda n: n.body, holds=functools.partial(passed_against, read))


def option_on(context: Context, node: ast.AST) -> Iterator[Change]:
    """A step called with an option switched on that its caller leaves off: a keyword
    parameter of the called reference function whose default is False, not given, given True
    (`self_attention(h, p, heads, causal=True)` in a ViT block: GPT's mask on patches)."""
    function = called_function(context, node)
    if function is None:
        return
    parameters = list(inspect.signature(function).parameters.values())
    for index, parameter in enumerate(parameters):
        if parameter.default is not False or index < len(node.args) or any(
                k.arg == parameter.name for k in node.keywords):
            continue

        def switched(n: ast.Call, name=parameter.name) -> ast.Call:
            new = copy.copy(n)
            new.keywords = [*n.keywords, ast.keyword(name, ast.Constant(True))]
            return new

        yield Change(f"{slug(callee(node))}-{parameter.name}-on",
                     f"In {where(context)}, `{callee(node)}` is called with "
                     f"{parameter.name}=True, where the model solution's call leaves it off (its "
                     f"default, False): `{code(node)}`.", switched)


AXES = (0, 1, 2, -2, -1)  # the axes an axis parameter's default may be ported as (2: a port
# written for 3-D scores, blind round 69's b69_07; an AxisError on fewer dimensions)


def default_flipped(context: Context, node: ast.AST) -> Iterator[Change]:
    """A keyword parameter of the checked function whose default is True or False, defaulting
    the other way (`def self_attention(..., causal=True)`), or an axis parameter defaulting to
    another axis (`def softmax(x, axis=1)`: Chainer's default; `axis=0`: Julia's NNlib's
    `dims=1`): a call that leaves it out gets the other behaviour, a call that names it is
    right."""
    if not is_checked_function(context, node):
        return
    arguments = node.args.args[len(node.args.args) - len(node.args.defaults):]
    for index, (argument, default) in enumerate(zip(arguments, node.args.defaults,
                                                                  strict=True)):
        try:
            value = ast.literal_eval(default)
        except ValueError:
            continue
        if isinstance(value, bool):
            others = [not value]
        elif type(value) is int and "axis" in argument.arg and value in AXES:
            others = [axis for axis in AXES if axis != value]
        else:
            continue
        for other in others:
            def changed(n: ast.FunctionDef, index=index, other=other) -> ast.FunctionDef:
                new = copy.copy(n)
                new.args = copy.copy(n.args)
                new.args.defaults = list(n.args.defaults)
                new.args.defaults[index] = ast.parse(repr(other), mode="eval").body
                return new

            yield Change(f"{argument.arg}-defaults-{other}",
                         f"In {where(context)}, `{argument.arg}` defaults to {other} "
                         f"(`{argument.arg}={other}` in the signature): a call that leaves it "
                         f"out gets {argument.arg}={other}, where {whose(context)} default is "
                         f"{value}; a call that names it is right.", changed,
                         holds=functools.partial(named_right, argument.arg,
                                                 node.args.args.index(argument)))


def parts_reversed(context: Context, node: ast.AST) -> Iterator[Change]:
    """The two parts of a concatenation in the other order: `np.vstack([cls, x])` as
    `np.vstack([x, cls])` ([CLS] the last row, where the lecture puts it first)."""
    if not (isinstance(node, ast.Call) and callee(node) in JOINS and node.args
            and isinstance(node.args[0], (ast.List, ast.Tuple))
            and len(node.args[0].elts) == 2):
        return
    first, second = node.args[0].elts

    def reversed_parts(n: ast.Call) -> ast.Call:
        new = copy.copy(n)
        parts = copy.copy(n.args[0])
        parts.elts = list(reversed(n.args[0].elts))
        new.args = [parts, *n.args[1:]]
        return new

    yield Change(f"{slug(code(second))}-before-{slug(code(first))}",
                 f"In {where(context)}, `{code(reversed_parts(node))}` puts `{code(second)}` "
                 f"before `{code(first)}`: the model solution's order is `{code(node)}`.",
                 reversed_parts)


def _reads(node: ast.AST, name: str) -> list[ast.Name]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == name
            and isinstance(n.ctx, ast.Load)]


def _required(context: Context) -> list[str]:
    """The function's parameters without a default, after the first (the input)."""
    arguments = context.instance.node.args
    named = [a.arg for a in arguments.posonlyargs + arguments.args]
    return named[1:len(named) - len(arguments.defaults)]


def parameters_swapped(context: Context, node: ast.AST) -> Iterator[Change]:
    """Two parameters of the function read in each other's place in one statement's arithmetic:
    `x_hat * gamma + beta` as `x_hat * beta + gamma`. Only parameters without a default, after
    the first (the input), each read once in the statement."""
    if not (isinstance(node, (ast.Return, ast.Assign)) and isinstance(node.value, ast.BinOp)):
        return
    once = [name for name in _required(context) if len(_reads(node.value, name)) == 1]
    for a, b in itertools.combinations(once, 2):
        def swapped(n: ast.stmt, a=a, b=b) -> ast.stmt:
            new = copy.deepcopy(n)
            for read in ast.walk(new.value):
                if isinstance(read, ast.Name) and read.id in (a, b):
                    read.id = b if read.id == a else a
            return new

        yield Change(f"{a}-and-{b}-swapped",
                     f"In {where(context)}, `{a}` and `{b}` are used in each other's place: "
                     f"`{code(swapped(node).value)}`, where the lecture has "
                     f"`{code(node.value)}`.", swapped)


def gain_from_one(context: Context, node: ast.AST) -> Iterator[Change]:
    """A gain used as an offset from one: `x_hat * gamma` as `x_hat * (1 + gamma)` (Gemma's
    norm, and ports of it, store the scale minus one). Only a parameter without a default."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)
            and isinstance(node.right, ast.Name) and node.right.id in _required(context)):
        return
    gain = node.right.id
    yield Change(f"1-plus-{gain}",
                 f"In {where(context)}, `{gain}` is used as an offset from one, "
                 f"`{code(node.left)} * (1 + {gain})` (as Gemma's norm stores its gain), where "
                 f"the lecture multiplies by it: `{code(node)}`.",
                 lambda n: ast.BinOp(n.left, ast.Mult(), ast.BinOp(ast.Constant(1), ast.Add(),
                                                                   n.right)))


def _pre_norm_branch(statement: ast.stmt) -> tuple[str, ast.Call, ast.Call] | None:
    """(n, the branch's step, its norm) for `n = n + step(norm(n, ...), ...)` (or `return`)."""
    value = statement.value if isinstance(statement, (ast.Assign, ast.Return)) else None
    if isinstance(statement, ast.Assign) and not (
            len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name)):
        return None
    if not (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add)
            and isinstance(value.left, ast.Name) and isinstance(value.right, ast.Call)
            and value.right.args and isinstance(value.right.args[0], ast.Call)):
        return None
    step, norm = value.right, value.right.args[0]
    if not (norm.args and isinstance(norm.args[0], ast.Name)
            and norm.args[0].id == value.left.id and "norm" in callee(norm)):
        return None
    if isinstance(statement, ast.Assign) and statement.targets[0].id != value.left.id:
        return None
    return value.left.id, step, norm


def norm_after_residual(context: Context, node: ast.AST) -> Iterator[Change]:
    """A pre-LN residual step written post-LN: `x = x + attn(ln(x))` as `x = ln(x + attn(x))`,
    the norm applied to the sum instead of to the branch's input (the 2017 Transformer)."""
    found = _pre_norm_branch(node) if isinstance(node, ast.stmt) else None
    if found is None:
        return
    name, step, norm = found

    def moved(n: ast.stmt) -> ast.stmt:
        _, step, norm = _pre_norm_branch(n)
        new = copy.copy(n)
        branch = copy.copy(step)
        branch.args = [ast.Name(name, ast.Load()), *step.args[1:]]
        after = copy.copy(norm)
        after.args = [ast.BinOp(ast.Name(name, ast.Load()), ast.Add(), branch), *norm.args[1:]]
        new.value = after
        return new

    yield Change(f"{slug(callee(norm))}-after-{slug(callee(step))}-residual",
                 f"In {where(context)}, `{code(moved(node).value)}` normalises after the "
                 f"residual sum (post-LN, the 2017 Transformer's order): the lecture's pre-LN "
                 f"block normalises only the branch's input, `{code(node.value)}`.", moved)


def reduction_swapped(context: Context, node: ast.AST) -> Iterator[Change]:
    """A reduction written as another: `np.max(x, axis)` as `np.mean(x, axis)` (a softmax
    shifted by the mean: "subtract any constant", which overflows where the spread is large),
    a sum as a mean, a mean as a sum or a median."""
    if not (isinstance(node, ast.Call) and callee(node) in REDUCTIONS
            and isinstance(node.func, ast.Attribute)):
        return
    old = callee(node)
    for new_name in REDUCTIONS[old]:
        def swapped(n: ast.Call, new_name=new_name) -> ast.Call:
            new = copy.copy(n)
            new.func = copy.copy(n.func)
            new.func.attr = new_name
            return new

        yield Change(f"{old}-as-{new_name}",
                     f"In {where(context)}, `{code(swapped(node))}` takes the {new_name} where "
                     f"the lecture takes the {old}: `{code(node)}`.", swapped)


CLIP_BOUNDS = (50, 88, 100, 500, 709)  # where students clip: exp(88) and exp(709) are the
# float32 and float64 limits; 50, 100 and 500 are the usual "safe" round numbers


def shift_as_clip(context: Context, node: ast.AST) -> Iterator[Change]:
    """A shift that keeps exp from overflowing written as a clip: `x - np.max(x, ...)` as
    `np.clip(x, -C, C)` (the common "overflow encountered in exp" advice): the same for inputs
    within the bound, a row of large inputs uniform. One name per bound; bounds the cases cannot
    tell apart are one mistake, said with the first (aliases.py): its sentence says so."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub)
            and isinstance(node.right, ast.Call) and callee(node.right) in ("max", "amax")
            and node.right.args and ast.dump(node.right.args[0]) == ast.dump(node.left)):
        return
    value = code(node.left)
    for bound in CLIP_BOUNDS:
        yield Change(f"{slug(value)}-clipped={bound}",
                     f"In {where(context)}, `{value}` is clipped to a bound where the lecture "
                     f"subtracts its max, `{code(node)}` (`np.clip({value}, -{bound}, {bound})` "
                     "reproduces your outputs on these cases): values beyond the bound all "
                     "become the bound, so a row of large values comes out uniform; subtracting "
                     "the max keeps exp from overflowing and changes nothing else.",
                     lambda n, bound=bound: ast.Call(
                         ast.Attribute(ast.Name("np", ast.Load()), "clip", ast.Load()),
                         [n.left, ast.Constant(-bound), ast.Constant(bound)], []))


def input_added(context: Context, node: ast.AST) -> Iterator[Change]:
    """The function's input added to what it returns: `return linear(out, Wo, bo)` as `return
    x + linear(out, Wo, bo)`, a residual inside a sublayer whose caller adds its own."""
    parameters = context.instance.node.args.args if isinstance(
        context.instance.node, ast.FunctionDef) else []
    if not (parameters and is_result(context, node)):
        return
    first = parameters[0].arg
    yield Change(f"{first}-added-to-the-result",
                 f"In {where(context)}, the input `{first}` is added to the result, `{first} + "
                 f"{code(node)}`: a residual inside this step, where the model solution returns "
                 f"`{code(node)}` alone (the caller adds the residual).",
                 lambda n: ast.BinOp(ast.Name(first, ast.Load()), ast.Add(), n))


def _parameter(node: ast.AST) -> bool:
    return isinstance(node, (ast.Name, ast.Subscript))


def shift_before_scale(context: Context, node: ast.AST) -> Iterator[Change]:
    """An affine map's shift added before its scale: `x_hat * gamma + beta` as
    `(x_hat + beta) * gamma`. Only a scale and a shift that are names or entries (parameters)."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
            and isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.Mult)
            and _parameter(node.left.right) and _parameter(node.right)):
        return
    scale, shift = code(node.left.right), code(node.right)
    yield Change(f"{slug(shift)}-before-{slug(scale)}",
                 f"In {where(context)}, `{shift}` is added before the product by `{scale}`, "
                 f"`(... + {shift}) * {scale}`, where the lecture scales first: `{code(node)}`.",
                 lambda n: ast.BinOp(ast.BinOp(n.left.left, ast.Add(), n.right), ast.Mult(),
                                     n.left.right))


def first_row_only(context: Context, node: ast.AST) -> Iterator[Change]:
    """A table of rows added as its first row only: `x + params['pos']` as `x + params['pos'][0]`
    (timm's (1, N + 1, d) table's batch axis stripped from a table that has none)."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
            and isinstance(node.right, ast.Subscript) and isinstance(node.right.slice, ast.Constant)
            and isinstance(node.right.slice.value, str)):
        return
    table = code(node.right)
    yield Change(f"{slug(table)}-first-row-only",
                 f"In {where(context)}, only the first row of `{table}` is added to every row, "
                 f"`{table}[0]` (a batch axis stripped, as timm's (1, N + 1, d) table needs, from "
                 f"a table that has none): add it row by row, `{code(node)}`.",
                 lambda n: ast.BinOp(n.left, ast.Add(), ast.Subscript(
                     n.right, ast.Constant(0), ast.Load())))


def table_read_one_late(context: Context, node: ast.AST) -> Iterator[Change]:
    """A table of rows added one row late after its first: token i >= 1 given row i - 1
    (MAE's `pos_embed[:, 1:]` for the patches written `pos[:-1]`), row 0 its own."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
            and isinstance(node.right, ast.Subscript) and isinstance(node.right.slice, ast.Constant)
            and isinstance(node.right.slice.value, str)):
        return
    table = code(node.right)
    yield Change(f"{slug(table)}-one-row-late",
                 f"In {where(context)}, the rows of `{table}` after the first reach the rows one "
                 f"late: row i gets `{table}[i - 1]` (`{table}[:-1]` where `{table}[1:]` belongs, "
                 f"row 0 keeping `{table}[0]`): add `{table}` row by row, `{code(node)}`.",
                 lambda n: ast.BinOp(n.left, ast.Add(), ast.Call(
                     ast.Attribute(ast.Name("np", ast.Load()), "concatenate", ast.Load()),
                     [ast.List([ast.Subscript(n.right, ast.Slice(None, ast.Constant(1)),
                                              ast.Load()),
                                ast.Subscript(copy.deepcopy(n.right),
                                              ast.Slice(None, ast.Constant(-1)), ast.Load())],
                               ast.Load())], [])))


def _epsilon(context: Context, node: ast.AST) -> bool:
    """Whether `node` is an epsilon: a parameter with a small float default, or such a constant."""
    if isinstance(node, ast.Constant):
        return type(node.value) is float and 0 < node.value < 1e-3
    function = context.instance.node
    if not (isinstance(node, ast.Name) and isinstance(function, ast.FunctionDef)):
        return False
    arguments = function.args.args
    defaults = dict(zip([a.arg for a in arguments[len(arguments) - len(function.args.defaults):]],
                        function.args.defaults, strict=True))
    default = defaults.get(node.id)
    return isinstance(default, ast.Constant) and type(default.value) is float \
        and 0 < default.value < 1e-3


def epsilon_as_floor(context: Context, node: ast.AST) -> Iterator[Change]:
    """An epsilon used as a floor, `np.maximum(var, eps)`, where it is added, `var + eps`: the
    same, to a tolerance, where the variance is far from eps (a row whose variance is about eps
    tells them apart)."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
            and _epsilon(context, node.right)):
        return
    eps, value = code(node.right), code(node.left)
    yield Change(f"{slug(eps)}-as-floor",
                 f"In {where(context)}, `{eps}` is a floor, `np.maximum({value}, {eps})`, where "
                 f"the model solution adds it, `{code(node)}`: the two differ where `{value}` "
                 f"is about `{eps}` or below (a row of nearly equal values).",
                 lambda n: ast.Call(ast.Attribute(ast.Name("np", ast.Load()), "maximum",
                                                  ast.Load()), [n.left, n.right], []))


def loop_reversed(context: Context, node: ast.AST) -> Iterator[Change]:
    """A loop over a list run from its end: `for block in params['blocks']` as `for block in
    reversed(params['blocks'])` (blocks popped off a list, `while blocks: blocks.pop()`); a
    list by name too (`for W in weights`, a course's own function)."""
    if not (isinstance(node, ast.For) and isinstance(node.target, ast.Name)
            and isinstance(node.iter, (ast.Subscript, ast.Name, ast.Attribute))):
        return

    def reversed_loop(n: ast.For) -> ast.For:
        new = copy.copy(n)
        new.iter = ast.Call(ast.Name("reversed", ast.Load()), [n.iter], [])
        return new

    yield Change(f"{node.target.id}-reversed",
                 f"In {where(context)}, the loop runs over `{code(node.iter)}` from its last "
                 f"element to its first (`reversed(...)`, or `.pop()` from the end): the lecture "
                 "applies them in order.", reversed_loop)


def result_transposed(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's 2-D result returned transposed, (d, N) for (N, d): a layout where
    the features come first."""
    if is_result(context, node) and not isinstance(node, (ast.Tuple, ast.Constant)):
        yield Change("result-transposed",
                     f"In {where(context)}, the result comes back transposed, `({code(node)}).T`:"
                     f" its axes in the other order, where the model solution returns "
                     f"`{code(node)}` (one row per token, the features along the row).",
                     lambda n: ast.Attribute(n, "T", ast.Load()))


def product_as_factors(context: Context, node: ast.AST) -> Iterator[Change]:
    """A product returned as its factors: `(H // P) * (W // P)` as the pair `(H // P, W // P)`
    (the grid's shape where its count belongs)."""
    if (is_result(context, node) and isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Mult)):
        yield Change("factors-returned",
                     f"In {where(context)}, the factors `({code(node.left)}, {code(node.right)})` "
                     f"are returned, where their product belongs: `{code(node)}`.",
                     lambda n: ast.Tuple([n.left, n.right], ast.Load()))


def _parts(function: ast.AST) -> set[int]:
    """The ids of the elements of `function`'s lists and tuples (a concatenation's parts)."""
    return {id(e) for n in ast.walk(function) if isinstance(n, (ast.List, ast.Tuple))
            for e in n.elts}


def parameter_as_zeros(context: Context, node: ast.AST) -> Iterator[Change]:
    """A learned row never read, zeros in its place: `np.vstack([params['cls'], x])` with a zero
    [CLS] row (a placeholder token left in). Only a parameter that is a part of a list."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)
            and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)
            and id(node) in _parts(context.instance.node)):
        return
    yield Change(f"{slug(code(node))}-as-zeros",
                 f"In {where(context)}, zeros stand where `{code(node)}` belongs: the learned "
                 "values are never read (a placeholder left in).",
                 lambda n: ast.Call(ast.Attribute(ast.Name("np", ast.Load()), "zeros_like",
                                                  ast.Load()), [n], []))


def residual_around_step(context: Context, node: ast.AST) -> Iterator[Change]:
    """A residual added around a step a loop applies, which adds its own: `x = encoder_block(x,
    ...)` as `x = x + encoder_block(x, ...)` (the block's input counted twice)."""
    function = called_function(context, node.value) if isinstance(node, ast.Assign) else None
    loops = [n for n in ast.walk(context.instance.node) if isinstance(n, ast.For)]
    if not (function is not None and any(node in loop.body for loop in loops)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name) and node.value.args
            and isinstance(node.value.args[0], ast.Name)
            and node.value.args[0].id == node.targets[0].id):
        return
    name = node.targets[0].id

    def added(n: ast.Assign) -> ast.Assign:
        new = copy.copy(n)
        new.value = ast.BinOp(ast.Name(name, ast.Load()), ast.Add(), n.value)
        return new

    yield Change(f"{name}-added-around-{slug(callee(node.value))}",
                 f"In {where(context)}, `{name}` is added again around the step, `{name} = "
                 f"{name} + {callee(node.value)}(...)`: the step returns its input with its "
                 f"own residuals already; the lecture keeps `{code(node)}`.", added)


OPERATORS = {"condition_ignored": condition_ignored, "option_on": option_on,
             "default_flipped": default_flipped,
             "parts_reversed": parts_reversed, "parameters_swapped": parameters_swapped,
             "gain_from_one": gain_from_one,
             "axes_swapped": axes_swapped, "norm_after": norm_after_residual,
             "reduction": reduction_swapped, "clip": shift_as_clip,
             "input_added": input_added,
             "shift_first": shift_before_scale, "first_row": first_row_only,
             "one_row_late": table_read_one_late,
             "floor": epsilon_as_floor, "reversed": loop_reversed,
             "result_transposed": result_transposed, "factors": product_as_factors,
             "zeros": parameter_as_zeros, "residual_around": residual_around_step}
