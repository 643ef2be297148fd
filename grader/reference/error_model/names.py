"""Operators on which value a name reads: the reference's steps each right, but a name read where
its sibling belongs (`H // P` copied for `W // P`), a name read as it was before the statement
that updated it (the block's input where the stream after attention belongs), or a count one
off (`T * T` computed from `T + 1`). Each is an operator as in operators.py (`f(context, node)
-> iterator of Change`); OPERATORS lists them in the order tried, after steps.OPERATORS."""
from __future__ import annotations

import ast
import copy
import functools
from collections.abc import Iterator

from grader.report.masked_line import HIDE_LINE  # their line, or none (report/steps.py)

from .change import (
    EFFECT,
    Change,
    Context,
    Replaced,
    callee,
    code,
    is_checked_function,
    key_of,
    key_position,
    literal,
    prepended,
    slug,
    step_keys,
    steps_like,
    where,
)
from .operators import EPSILONS
from .tree import PREFIX, nodes


def _name(node: ast.AST) -> str | None:
    return node.id if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) else None


def _statements(node: ast.AST) -> list[ast.stmt]:
    body = getattr(node, "body", None)
    return body if isinstance(body, list) else []


def _enclosing_statement(function: ast.AST, target: ast.AST) -> ast.stmt | None:
    """The innermost statement of `function` holding `target` (by identity): ast.walk goes
    outside in, so the last one found."""
    found = None
    for node in ast.walk(function):
        if isinstance(node, ast.stmt) and node is not function and any(
                sub is target for sub in ast.walk(node)):
            found = node
    return found


def sibling_name(context: Context, node: ast.AST) -> Iterator[Change]:
    """A name copied from its sibling term: `W // P` as `H // P` where the same statement also
    has `H // P` (a line written for the height and copied for the width, d2l's square
    `img_size // patch_size` twice)."""
    if not (isinstance(node, ast.BinOp) and _name(node.left) is not None):
        return
    statement = _enclosing_statement(context.instance.node, node)
    if statement is None:
        return
    mine, rest = node.left.id, code(node.right)
    siblings = sorted({other.left.id for other in ast.walk(statement)
                       if isinstance(other, ast.BinOp) and type(other.op) is type(node.op)
                       and _name(other.left) not in (None, mine) and code(other.right) == rest})
    for sibling in siblings:
        copied = ast.BinOp(ast.Name(sibling, ast.Load()), node.op, node.right)
        yield Change(f"{mine}-as-{sibling}",
                     f"In {where(context)}, `{code(node)}` reads `{sibling}` where `{mine}` "
                     f"belongs: {EFFECT}`{code(copied)}`, a copy of its sibling term (right "
                     f"only when {sibling} == {mine}).",
                     lambda n, sibling=sibling: ast.BinOp(ast.Name(sibling, ast.Load()), n.op,
                                                          n.right))


def _updates(statement: ast.stmt) -> str | None:
    """n for a statement `n = <an expression reading n>`: n updated from its own value."""
    if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)):
        name = statement.targets[0].id
        if any(_name(sub) == name for sub in ast.walk(statement.value)):
            return name
    return None


def _residual_reads(statement: ast.stmt, name: str) -> list[ast.Name]:
    """The reads of `name` in a sum `name + branch` whose branch reads `name` too: the
    residual's own `name` and the branch's, in the statement's pre-order (the same in a copy)."""
    reads = []
    for node, _, _, _ in nodes(statement):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            for base, branch in ((node.left, node.right), (node.right, node.left)):
                inside = [sub for sub, _, _, _ in nodes(branch) if _name(sub) == name]
                if _name(base) == name and inside:
                    reads += [read for read in (base, *inside)
                              if not any(read is seen for seen in reads)]
    return reads


def _added(statement: ast.stmt, name: str) -> ast.AST | None:
    """The branch of `name = name + branch`, else None."""
    value = statement.value if isinstance(statement, ast.Assign) else None
    if (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add)
            and _name(value.left) == name):
        return value.right
    return None


def _stale_body(owner: ast.AST, index: int, position: int,
                branch: bool = False) -> ast.AST | None:
    """`owner` with the value statement `index` updates kept as it was before, and the
    `position`-th residual read of the next statement reading that old value (`branch`: what the
    update added, the new value less the old); None when an edit below took either away."""
    body = _statements(owner)
    name = _updates(body[index]) if index + 1 < len(body) else None
    reads = _residual_reads(body[index + 1], name) if name else []
    if position >= len(reads):
        return None
    before = f"{PREFIX}before_{name}"
    following = copy.deepcopy(body[index + 1])
    read = _residual_reads(following, name)[position]
    new = ast.Name(before, ast.Load()) if not branch else ast.BinOp(
        ast.Name(name, ast.Load()), ast.Sub(), ast.Name(before, ast.Load()))
    following = Replaced(read, new).visit(following)
    kept = ast.Assign([ast.Name(before, ast.Store())], ast.Name(name, ast.Load()))
    new = copy.copy(owner)
    new.body = [*body[:index], kept, body[index], following, *body[index + 2:]]
    return new


def _read_words(statement: ast.stmt, read: ast.Name) -> str:
    """Where a read sits: the residual's own term, or the innermost call it is given to."""
    for node in ast.walk(statement):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and read in (
                node.left, node.right):
            return f"the residual of `{code(node)}` adds back"
    calls = [node for node in ast.walk(statement) if isinstance(node, ast.Call)
             and any(arg is read for arg in node.args)]
    return f"`{code(calls[-1])}` is given" if calls else f"`{code(statement)}` reads"


def stale_read(context: Context, node: ast.AST) -> Iterator[Change]:
    """A name read as it was before the statement that updated it: `x = x + attn(...)` then
    `x + mlp(norm(x))` with the residual's `x` (or the branch's) the block's input, the
    attention's output left out (a residual kept from the block's input; GPT-J's parallel
    block). Only in the statement right after the update, only in a residual sum."""
    body = _statements(node)
    for index, statement in enumerate(body[:-1]):
        name = _updates(statement)
        reads = _residual_reads(body[index + 1], name) if name else []
        for position, read in enumerate(reads):
            yield Change(f"{name}-before-update.{position + 1}" if position else
                         f"{name}-before-update",
                         f"In {where(context)}, {_read_words(body[index + 1], read)} `{name}` "
                         f"as it was before `{code(statement)}`: that statement's result is "
                         f"left out there.",
                         lambda n, index=index, position=position: _stale_body(n, index,
                                                                                position))
            branch = _added(statement, name)
            if branch is not None and position:  # the branch's read, not the residual's own
                yield Change(f"{name}-branch-read.{position}",
                             f"In {where(context)}, {_read_words(body[index + 1], read)} the "
                             f"branch `{code(branch)}` alone, not `{name}` after "
                             f"`{code(statement)}` (the residual stream, the branch added).",
                             lambda n, index=index, position=position: _stale_body(
                                 n, index, position, branch=True))


COUNTING = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Pow, ast.Mod)


def _count(node: ast.AST) -> bool:
    """Whether `node` is integer arithmetic only: names and int constants under + - * // ** %."""
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, COUNTING) and _count(node.left) and _count(node.right)
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int) and not isinstance(node.value, bool)
    return _name(node) is not None


class _Shifted(ast.NodeTransformer):
    """Every read of `name` as `(name + step)`."""

    def __init__(self, name: str, step: int):
        self.name, self.step = name, step

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if _name(node) == self.name:
            op = ast.Add() if self.step > 0 else ast.Sub()
            return ast.BinOp(ast.Name(self.name, ast.Load()), op, ast.Constant(abs(self.step)))
        return node


def count_off_by_one(context: Context, node: ast.AST) -> Iterator[Change]:
    """A count computed from a size one off: `return T * T` with every `T` read as `T + 1` (a
    token counted twice: [CLS] added again) or `T - 1`. Only a return of integer arithmetic."""
    if not (isinstance(node, ast.Return) and node.value is not None and _count(node.value)
            and isinstance(node.value, ast.BinOp)):
        return
    names = sorted({_name(sub) for sub in ast.walk(node.value) if _name(sub) is not None})
    for name in names:
        for step, words in ((1, "one too many (is something counted twice?)"),
                            (-1, "one too few (is something left out?)")):
            shifted = _Shifted(name, step).visit(copy.deepcopy(node.value))
            sign = "plus" if step > 0 else "minus"
            yield Change(f"{name}-{sign}-1",
                         f"In {where(context)}, `{code(node.value)}` is computed as "
                         f"`{code(shifted)}`, with `{name}` {words}.",
                         lambda n, name=name, step=step: ast.Return(
                             _Shifted(name, step).visit(copy.deepcopy(n.value))))


def _counted_constant(context: Context, node: ast.AST) -> bool:
    """An int constant (1 or more) that a count adds or chooses: `+ (1 if cls_token else 0)`."""
    if not (isinstance(node, ast.Constant) and type(node.value) is int and node.value >= 1):
        return False
    for parent in ast.walk(context.instance.node):
        if isinstance(parent, ast.IfExp) and node in (parent.body, parent.orelse):
            return True
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, (ast.Add, ast.Sub)) and \
                node in (parent.left, parent.right):
            return True
    return False


def constant_off_by_one(context: Context, node: ast.AST) -> Iterator[Change]:
    """A constant a count adds, one off: `+ 1` for [CLS] as `+ 2` (DeiT's distillation token
    too) or `+ 0`."""
    if not _counted_constant(context, node):
        return
    for new in (node.value + 1, node.value - 1):
        yield Change(f"{node.value}-as-{new}",
                     f"In {where(context)}, the `{node.value}` a count adds is {new} instead: one "
                     f"{'too many' if new > node.value else 'too few'}.",
                     lambda n, new=new: ast.Constant(new))


def parameter_default(context: Context, node: ast.AST) -> Iterator[Change]:
    """A parameter ignored, its default used whatever is given: `P * P * 3` for `P * P * C`,
    eps fixed at 1e-6, softmax always over the last axis; or an epsilon parameter ignored for
    another of the usual library defaults (EPSILONS: a model config's `layernorm_epsilon =
    1e-5`, Keras' 1e-3) whatever is given."""
    if not is_checked_function(context, node):
        return
    arguments = node.args.args
    defaults = dict(zip([a.arg for a in arguments[len(arguments) - len(node.args.defaults):]],
                        node.args.defaults, strict=True))
    for name, default in defaults.items():
        try:
            value = ast.literal_eval(default)
        except ValueError:
            continue
        if type(value) not in (int, float):
            continue
        fixed = ast.Assign([ast.Name(name, ast.Store())], ast.Constant(value))
        yield Change(f"{name}-as-default",
                     f"In {where(context)}, `{name}` is taken as its default, {value!r}, "
                     f"whatever is given.",
                     lambda n, fixed=fixed: prepended(n, fixed))
        if type(value) is float and 0 < value < 1e-2:  # an epsilon: a library's own instead
            for other in (e for e in EPSILONS if e and e != value):
                fixed = ast.Assign([ast.Name(name, ast.Store())], ast.Constant(other))
                yield Change(f"{name}-as-{other:g}",
                             f"In {where(context)}, `{name}` is fixed at {other:g} (a library's "
                             f"usual default) whatever is given: use the `{name}` the caller "
                             f"passes (its default is {value:g}).",
                             lambda n, fixed=fixed: prepended(n, fixed),
                             holds=functools.partial(_passed, name, [a.arg for a in arguments]))


def _passed(name: str, params: list, function, calls: list, same) -> bool:
    """Whether one of `calls` gives the parameter: "whatever is given" rests on one."""
    return any(name in c.kwargs or len(c.args) > params.index(name) for c in calls)


def axis_for_matrices(context: Context, node: ast.AST) -> Iterator[Change]:
    """An `axis` parameter read as code written for 2-D arrays reads it: axis 0 (the columns,
    often by a transpose) or else the last axis, whatever is given; the last or else axis 0
    (CvT's softmax by `x.T` for any other axis); or the last axis written as 1 (cs231n's score
    matrices). Right on 1-D and 2-D inputs; wrong for a middle axis of a 3-D input."""
    if not is_checked_function(context, node) or "axis" not in [a.arg for a in node.args.args]:
        return
    first = node.args.args[0].arg
    for detail, reading, words in (
            ("axis-0-or-last", "axis if axis == 0 else -1",
             "any axis but 0 is taken as the last (`axis=0` as the columns, any other as the "
             "rows)"),
            ("last-or-0", f"axis if axis in (-1, np.ndim({first}) - 1) else 0",
             "any axis but the last is taken as axis 0 (`x.T`, then `.T` back, reverses every "
             "axis)"),
            ("last-axis-as-1", f"1 if axis == -1 and np.ndim({first}) > 1 else axis",
             "the last axis is taken as axis 1 (the columns of a score matrix)")):
        read = ast.Assign([ast.Name("axis", ast.Store())], ast.parse(reading, mode="eval").body)
        yield Change(detail,
                     f"In {where(context)}, {words}, as code written for 2-D arrays does: right"
                     f" for 1-D and 2-D `{first}`, wrong on a 3-D one (a batch of score "
                     f"matrices). Pass `axis` through as given.",
                     lambda n, read=read: prepended(n, read))


def _default_set(function: ast.FunctionDef, index: int, value) -> ast.FunctionDef:
    new = copy.copy(function)
    new.args = copy.copy(function.args)
    new.args.defaults = [ast.Constant(value) if i == index else d
                         for i, d in enumerate(function.args.defaults)]
    return new


def default_changed(context: Context, node: ast.AST) -> Iterator[Change]:
    """An integer parameter's default written as 1 (`C=1`, a gray image's channel count, where
    the lecture's is 3), or an axis's (-1) as None (scipy's softmax): right whenever it is
    given, wrong where it is left out."""
    if not is_checked_function(context, node):
        return
    arguments = node.args.args
    named = [a.arg for a in arguments[len(arguments) - len(node.args.defaults):]]
    for index, (name, default) in enumerate(zip(named, node.args.defaults, strict=True)):
        value = literal(default)
        if type(value) is int and value < 0:  # an axis from the end: scipy's `axis=None`
            yield Change(f"{name}-default-None",
                         f"In {where(context)}, `{name}` defaults to None (as "
                         f"scipy.special.softmax's does) instead of {value}: right whenever "
                         f"`{name}` is given, wrong where it is left out (the whole array at "
                         "once).", lambda n, index=index: _default_set(n, index, None))
        if type(value) is not int or value <= 1:
            continue

        yield Change(f"{name}-default-1",
                     f"In {where(context)}, `{name}` defaults to 1 instead of {value}: right "
                     f"whenever `{name}` is given, wrong where it is left out.",
                     lambda n, index=index: _default_set(n, index, 1))


def unchained_loop(context: Context, node: ast.AST) -> Iterator[Change]:
    """A loop's update that reads the name as it was before the loop: `x = block(x)` written
    as `out = block(x0)` on every pass, so each block reads the embedded tokens and only the
    last block's output is kept (the blocks not chained; right with one block)."""
    if not (isinstance(node, ast.For) and len(node.body) == 1
            and isinstance(node.body[0], ast.Assign) and len(node.body[0].targets) == 1
            and isinstance(node.body[0].targets[0], ast.Name)
            and isinstance(node.body[0].value, ast.Call) and node.body[0].value.args
            and isinstance(node.body[0].value.args[0], ast.Name)
            and node.body[0].value.args[0].id == node.body[0].targets[0].id):
        return
    name, start = node.body[0].targets[0].id, f"{PREFIX}before_loop"

    def unchained(n: ast.For) -> ast.AST:
        loop = copy.deepcopy(n)
        loop.body[0].value.args[0] = ast.Name(start, ast.Load())
        keep = ast.Assign([ast.Name(start, ast.Store())], ast.Name(name, ast.Load()))
        return ast.If(ast.Constant(True), [keep, loop], [])

    yield Change(f"{name}-not-carried",
                 f"In {where(context)}, every pass of `for {code(node.target)} in "
                 f"{code(node.iter)}` reads `{name}` as it was before the loop: "
                 f"`{code(node.body[0].value)}` is not chained, each pass starts from the same "
                 f"`{name}` and only the last one's output is kept (right with one pass).",
                 unchained)


def step_parameters(context: Context, node: ast.AST) -> Iterator[Change]:
    """A step given the parameters of the same step just before it, all of them: `layer_norm(x,
    p['ln1_g'], p['ln1_b'])` again for the second LayerNorm, `linear(x, p['Wk'], p['bk'])` for
    the values (a line copied and not edited, or one step shared by two: the sentence says
    what is read, not how it came about)."""
    read = step_keys(node)
    if len(read) < 2 or len({code(a.value) for a in node.args if key_of(a) is not None}) != 1:
        return
    steps = steps_like(context, node)
    before = steps[:steps.index(node)]
    if not before:
        return
    copied = step_keys(before[-1])
    position = key_position(read, copied)
    if position is None:
        return
    owner = code(next(a.value for a in node.args if key_of(a) is not None))
    shown = ", ".join(f"{owner}[{k!r}]" for k in copied)
    own = ", ".join(f"{owner}[{k!r}]" for k in read)
    yield Change(f"{read[0]}-as-{copied[0]}-in-{slug(code(node.func))}",  # how it came about
                 f"In {where(context)}, `{code(node)}` is given {shown}: the parameters of the "
                 f"step before it, where the model solution's step has its own ({own}).",  # untold
                 lambda n, position=position, new=copied[0][position]: _given(n, position, new))


def _given(node: ast.Call, position: int, new: str) -> ast.Call:
    call = copy.copy(node)
    call.args = [ast.Subscript(a.value, ast.Constant(key_of(a)[:position] + new
                                                     + key_of(a)[position + 1:]), ast.Load())
                 if key_of(a) is not None else a for a in node.args]
    return call


def _minus_infinity(node: ast.AST) -> bool:
    return (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Attribute) and node.operand.attr == "inf")


def infinity_as_zero(context: Context, node: ast.AST) -> Iterator[Change]:
    """`-np.inf` written as 0: the hidden scores of a mask set to 0 (or multiplied by the mask),
    so that after exp they still weigh 1 instead of nothing."""
    if _minus_infinity(node):
        yield Change("minus-inf-as-0",
                     f"In {where(context)}, `{code(node)}` is 0 instead: a value meant to vanish "
                     "after exp still counts, exp(0) = 1 (hide it with -inf, not 0).",
                     lambda n: ast.Constant(0.0))


def hides_with_minus_infinity(node: ast.AST) -> bool:
    """Whether `node` is `np.where(mask, scores, -np.inf)`: a mask that hides with -inf."""
    return (isinstance(node, ast.Call) and callee(node) == "where" and len(node.args) == 3
            and _minus_infinity(node.args[2]))


def infinity_added(context: Context, node: ast.AST) -> Iterator[Change]:
    """`np.where(mask, scores, -np.inf)` as `scores + np.where(mask, 0.0, -1e9)`: Hugging Face's
    additive mask, a large finite number added. The same while a row keeps a key; a row that
    hides every key is only shifted, so it attends to every key as if unmasked."""
    if not hides_with_minus_infinity(node):
        return
    mask, kept = node.args[0], node.args[1]
    added = ast.parse(f"{ast.unparse(kept)} + np.where({ast.unparse(mask)}, 0.0, -1e9)",
                      mode="eval").body  # the exact source: code() quotes, shortened
    yield Change("minus-inf-as-added-1e9",
                 f"In {where(context)}, the mask is added, `{code(added)}`, where "
                 f"`{code(node)}` belongs: the same while a row keeps a key, but a row that "
                 "hides every key is only shifted by the same -1e9, and so attends to every key "
                 "as if unmasked.",
                 lambda n, added=added: copy.deepcopy(added))


def infinity_filled(context: Context, node: ast.AST) -> Iterator[Change]:
    """`np.where(mask, scores, -np.inf)` with a large finite number in place of -inf (d2l's
    `sequence_mask(..., value=-1e6)`, `np.finfo(x.dtype).min`): the same while a row keeps a
    key; a row that hides every key weighs every key alike, where the lecture's is NaN."""
    if not hides_with_minus_infinity(node):
        return
    filled = ast.Call(node.func, [node.args[0], node.args[1], ast.Constant(-1e9)], [])
    yield Change("minus-inf-as-fill-1e9",
                 f"In {where(context)}, the hidden scores are set to a large finite number, "
                 f"`{code(filled)}` (d2l's -1e6, `np.finfo(x.dtype).min`), where `-np.inf` "
                 "belongs: the same while a row keeps a key, but a row that hides every key "
                 "then weighs all of them alike.",
                 lambda n: ast.Call(n.func, [n.args[0], n.args[1], ast.Constant(-1e9)], []))


def mask_added(context: Context, node: ast.AST) -> Iterator[Change]:
    """`np.where(mask, scores, -np.inf)` as `scores + mask` or `scores + (1 - mask)`: the 0/1
    keep-mask itself added to the scores (an additive-mask habit, a tril buffer added as it
    is), which hides nothing: the kept (or the hidden) scores only gain 1."""
    if not hides_with_minus_infinity(node):
        return
    for detail, inverted in (("mask-added", False), ("inverted-mask-added", True)):
        def added(n: ast.Call, inverted=inverted) -> ast.BinOp:
            mask = ast.BinOp(ast.Constant(1), ast.Sub(), n.args[0]) if inverted else n.args[0]
            return ast.BinOp(n.args[1], ast.Add(), mask)

        yield Change(detail,
                     f"In {where(context)}, the 0/1 mask is added to the scores, "
                     f"`{code(added(node))}`, where `{code(node)}` belongs: adding 0 or 1 hides "
                     "nothing, it only shifts the scores it adds 1 to. Set the hidden scores to "
                     "-inf instead.", added)


def mask_inverted(context: Context, node: ast.AST) -> Iterator[Change]:
    """`np.where(mask, scores, -np.inf)` with its condition inverted, `np.where(~mask, ...)`:
    torch's `masked_fill(mask == 0, -inf)` ported as `np.where(mask == 0, scores, -inf)`
    (masked_fill fills where its condition holds, np.where keeps its second argument there).
    Said as what the student's masking acts as, at their line that sets the hidden scores
    (HIDE_LINE): their code may hold no `~` (a hide-mask kept, blind round 79's b79_12)."""
    if not hides_with_minus_infinity(node):
        return

    def inverted(n: ast.Call) -> ast.Call:
        new = copy.copy(n)
        new.args = [ast.UnaryOp(ast.Invert(), n.args[0]), *n.args[1:]]
        return new

    yield Change("mask-inverted",
                 f"In {where(context)}, your masking{HIDE_LINE} acts as the model solution's "
                 f"`{code(node)}` with its condition inverted, `{code(inverted(node))}`: "
                 "np.where keeps its second argument where its condition holds (torch's "
                 "masked_fill fills where it holds), so the scores to keep are hidden and those "
                 "to hide kept.", inverted)


# tried in this order, after steps.OPERATORS
OPERATORS = {"sibling": sibling_name, "stale": stale_read, "count": count_off_by_one,
             "infinity": infinity_as_zero, "infinity_added": infinity_added,
             "infinity_filled": infinity_filled,
             "mask_added": mask_added, "mask_inverted": mask_inverted,
             "count_constant": constant_off_by_one,
             "default": parameter_default, "default_changed": default_changed,
             "axis_2d": axis_for_matrices,
             "step_parameters": step_parameters, "unchained": unchained_loop}
