"""Operators on the terms of a sum or a ratio, each term right: a residual branch added back
scaled by a constant (`x + 0.5 * mlp(...)`, Macaron's and Conformer's half-step feed-forward),
a shift applied to one side of a ratio only (`exp(x - max) / sum(exp(x))`, a "stable"
softmax typed with the shifted name on top and the unshifted one below), and a term a step
already adds added again by its caller (torchvision's encoder adds the positions that the
embedding, ported with them, has added already; or before each step of the loop that follows,
DETR's positions at every layer), and a bias added before the product, not after
(`(x + b) @ W`), and a step's argument added to its result (`attention(q, k, v) + q`), and the
scores' scale with a base-2 kernel's factor (log2(e), FlashAttention's `exp2`), and a softmax's
denominator with one more logit, 0 (softmax_1). Each is
an operator as in operators.py
(`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
import math
from collections.abc import Iterator

import numpy as np

from .change import (
    Change,
    Context,
    assigned_once,
    called_function,
    callee,
    code,
    parameters_of,
    slug,
    where,
)
from .names import hides_with_minus_infinity
from .tree import PREFIX, own_function, source

# the constants a residual branch is scaled by: Macaron's half step (Conformer's module_factor),
# a keep probability of 0.9 (non-inverted dropout or drop path left at inference).
# LayerScale's small initial values (1e-5, 1e-6) are not offered: within a check's tolerance
# they are the branch left out, and two rewrites that reproduce the same outputs name nothing
SCALES = {0.5: "as Macaron's and Conformer's half-step feed-forward is",
          0.9: "as the old, non-inverted dropout or drop path with p = 0.1 does at inference, "
               "scaling by the keep probability 0.9; today's inverted dropout does nothing at "
               "inference",
          0.1: "as a layer scale fixed at InternViT's initial value, `ls_init_value=0.1`, is; "
               "the lecture's block has no layer scale"}


def _branch(context: Context, node: ast.BinOp, side: str) -> ast.Call | None:
    """The call on `side` of `x + f(..x..)`, a step of the reference that reads the name on the
    other side (a helper, or a student-API function left whole: `self_attention`); None for
    another sum."""
    other = node.right if side == "left" else node.left
    call = getattr(node, side)
    if not (isinstance(other, ast.Name) and isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name) and called_function(context, call)):
        return None
    reads = any(isinstance(n, ast.Name) and n.id == other.id for a in call.args
                for n in ast.walk(a))
    return call if reads else None


def residual_scaled(context: Context, node: ast.AST) -> Iterator[Change]:
    """A residual whose branch is added back scaled by a constant: `x + mlp(norm(x))` as
    `x + 0.5 * mlp(norm(x))`."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)):
        return
    for side in ("right", "left"):
        call = _branch(context, node, side)
        if call is None:
            continue
        child = context.instance.children.get(call.func.id)
        label = child.path.rsplit("/", 1)[-1] if child else callee(call)
        base = (node.left if side == "right" else node.right).id
        for scale, like in SCALES.items():
            def scaled(n: ast.BinOp, side=side, scale=scale) -> ast.BinOp:
                new = copy.copy(n)
                setattr(new, side, ast.BinOp(ast.Constant(scale), ast.Mult(), getattr(n, side)))
                return new

            yield Change(f"{label}-branch-times-{scale:g}",
                         f"In {where(context)}, the branch `{code(call)}` is added back scaled "
                         f"by {scale:g}, `{base} + {scale:g} * {label.split('.')[0]}(...)` "
                         f"({like}): the lecture's residual adds the whole branch, "
                         f"`{code(node)}`.", scaled)


def _shift(value: ast.AST) -> ast.BinOp | None:
    """The one subtraction `a - b` in `value` (the shift of `exp(x - max(x))`), else None."""
    subtractions = [n for n in ast.walk(value) if isinstance(n, ast.BinOp)
                    and isinstance(n.op, ast.Sub)]
    return subtractions[0] if len(subtractions) == 1 else None


def _unshifted(value: ast.AST) -> ast.AST:
    """A copy of `value` with its one subtraction `a - b` replaced by `a`."""
    class Unshift(ast.NodeTransformer):
        def visit_BinOp(self, n: ast.BinOp) -> ast.AST:
            self.generic_visit(n)
            return n.left if isinstance(n.op, ast.Sub) else n

    return Unshift().visit(copy.deepcopy(value))


class _NthRead(ast.NodeTransformer):
    """The `nth` read (0-based, in pre-order) of the name `name` replaced by a copy of `new`."""

    def __init__(self, name: str, nth: int, new: ast.AST):
        self.name, self.nth, self.new, self.seen = name, nth, new, 0

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id == self.name and isinstance(node.ctx, ast.Load):
            self.seen += 1
            if self.seen - 1 == self.nth:
                return copy.deepcopy(self.new)
        return node


ORDINALS = ("first", "second", "third", "fourth")


def shifted_one_side(context: Context, node: ast.AST) -> Iterator[Change]:
    """A name assigned from a shifted value (`e = np.exp(x - m)`), read two or more times in one
    statement (`e / np.sum(e)`), with one of those reads unshifted: `e / np.sum(np.exp(x))`."""
    if not isinstance(node, (ast.Return, ast.Assign, ast.Expr)):
        return
    function = context.instance.node
    reads = [n for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
    for name in dict.fromkeys(n.id for n in reads):
        count = sum(1 for n in reads if n.id == name)
        assigned = assigned_once(function, name)
        if count < 2 or count > len(ORDINALS) or assigned is None or assigned is node:
            continue
        shift = _shift(assigned.value)
        if shift is None:
            continue
        unshifted = _unshifted(assigned.value)
        for nth in range(count):
            yield Change(f"{name}-{nth + 1}-unshifted",
                         f"In {where(context)}, `{code(node)}` reads `{name}` shifted on one "
                         f"side only: its {ORDINALS[nth]} `{name}` is `{code(unshifted)}`, "
                         f"without the shift `- {code(shift.right)}` that `{code(assigned)}` "
                         "has. The shift cancels in the ratio only when both sides have it.",
                         lambda n, name=name, nth=nth, new=unshifted:
                         _NthRead(name, nth, new).visit(copy.deepcopy(n)))


def _last_term(function: ast.FunctionDef) -> ast.AST | None:
    """`b` of the function's one `return a + b` when `b` reads only parameters the function
    never assigns (`params['pos']`, a bias `b`), and calls nothing; else None."""
    returns = [n for n in ast.walk(function) if isinstance(n, ast.Return)]
    if len(returns) != 1 or not (isinstance(returns[0].value, ast.BinOp)
                                 and isinstance(returns[0].value.op, ast.Add)):
        return None
    return _plain(function, returns[0].value.right)


def _plain(function: ast.FunctionDef, term: ast.AST) -> ast.AST | None:
    """`term` when it reads only parameters `function` never assigns and calls nothing."""
    read = {n.id for n in ast.walk(term) if isinstance(n, ast.Name)}
    assigned = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)
                and isinstance(n.ctx, ast.Store)}
    parameters = [a.arg for a in function.args.args]
    if (not read or not read <= set(parameters) - assigned
            or any(isinstance(n, ast.Call) for n in ast.walk(term))):
        return None
    return term


class _Bound(ast.NodeTransformer):
    """A callee's expression in its caller's words: each parameter read as its argument."""

    def __init__(self, arguments: dict[str, ast.AST]):
        self.arguments = arguments

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return copy.deepcopy(self.arguments.get(node.id, node))


def _in_words(definition: ast.FunctionDef, call: ast.Call, term: ast.AST) -> ast.AST | None:
    """`term`, read in `definition`'s parameters, in the words of `call`'s arguments; None
    when the call does not pass one it reads (a default: not in the caller's words)."""
    if any(isinstance(a, ast.Starred) for a in call.args):
        return None
    parameters = [a.arg for a in definition.args.args]
    arguments = dict(zip(parameters, call.args, strict=False))
    arguments.update({k.arg: k.value for k in call.keywords if k.arg})
    read = {n.id for n in ast.walk(term) if isinstance(n, ast.Name)}
    return _Bound(arguments).visit(copy.deepcopy(term)) if read <= set(arguments) else None


def _returned_term(function, through: bool) -> ast.AST | None:
    """The term `function` adds last, in its parameters' words: that of its `return a + term`,
    or (`through`) of the helper its one `return helper(...)` returns (`linear_patch_embed`
    returns `linear(..., b_e)`, which returns `x @ W + b`: `b_e`)."""
    definition = source(function)
    if definition is None:
        return None
    term = _last_term(definition)
    returns = [n for n in ast.walk(definition) if isinstance(n, ast.Return)]
    if term is not None or not through or len(returns) != 1 or not isinstance(
            returns[0].value, ast.Call) or not isinstance(returns[0].value.func, ast.Name):
        return term
    helper = own_function(function.__globals__.get(returns[0].value.func.id), function.__module__)
    inner = source(helper) if helper is not None else None
    term = _last_term(inner) if inner is not None else None
    term = _in_words(inner, returns[0].value, term) if term is not None else None
    return _plain(definition, term) if term is not None else None


def _term_again(context: Context, node: ast.AST) -> tuple[ast.AST, ast.AST] | None:
    """(term, the term in the caller's words) of the call `node` of a student-API step that
    returns `... + term` (`embed_image(image, params)`: `params['pos']`), else None."""
    from grader.reference import REFERENCE  # the student API's own functions

    function = called_function(context, node)
    if getattr(function, "__name__", None) not in REFERENCE:
        return None
    term = _returned_term(function, "/" not in context.instance.path)  # through: the checked
    again = _in_words(source(function), node, term) if term is not None else None
    return (term, again) if again is not None else None


def term_again(context: Context, node: ast.AST) -> Iterator[Change]:
    """A term that a step of the student API adds last added again by its caller:
    `embed_image(image, params)`, which returns `x + params['pos']`, followed by
    `+ params['pos']` (the positions twice). Not the reference's own small helpers (`linear`'s
    bias twice at each of a block's six projections would crowd out the search)."""
    found = _term_again(context, node)
    if found is None:
        return
    term, again = found
    name = callee(node)
    yield Change(f"{name}-plus-{code(again)}"[:60],
                 f"In {where(context)}, `{code(again)}` is added again after `{code(node)}`: "
                 f"`{name}` already returns `... + {code(term)}`, so it is added twice.",
                 lambda n, again=again: ast.BinOp(n, ast.Add(), copy.deepcopy(again)))


def _added_before(function: ast.FunctionDef, loop: ast.For):
    """(name, call) of `name = call(...)` just before `loop` in `function`'s body, when the
    loop's body starts with `name = step(name, ...)`; else None."""
    body = function.body
    if loop not in body or body.index(loop) == 0 or not loop.body:
        return None
    before, first = body[body.index(loop) - 1], loop.body[0]
    if not (isinstance(before, ast.Assign) and len(before.targets) == 1
            and isinstance(before.targets[0], ast.Name) and isinstance(before.value, ast.Call)
            and isinstance(first, ast.Assign) and isinstance(first.value, ast.Call)
            and first.value.args and isinstance(first.value.args[0], ast.Name)
            and first.value.args[0].id == before.targets[0].id
            and [t.id for t in first.targets if isinstance(t, ast.Name)] == [
                before.targets[0].id]):
        return None
    return before.targets[0].id, before.value


def term_each_step(context: Context, node: ast.AST) -> Iterator[Change]:
    """A term a step of the student API adds last added again before each step of the loop
    that follows it: `x = embed_image(image, params)` (which returns `x + params['pos']`), then
    `x = encoder_block(x + params['pos'], ...)` at every block, as DETR's encoder adds its
    positions at each layer. The checked function's own loop only."""
    if not (isinstance(node, ast.For) and "/" not in context.instance.path):
        return
    found = _added_before(context.instance.node, node)
    if found is None:
        return
    name, call = found
    found = _term_again(context, call)
    if found is None:
        return
    term, again = found
    step = node.body[0].value

    def replace(n: ast.For) -> ast.For:
        new = copy.deepcopy(n)
        inner = new.body[0].value
        inner.args = [ast.BinOp(inner.args[0], ast.Add(), copy.deepcopy(again)), *inner.args[1:]]
        return new

    yield Change(f"{callee(step)}-input-plus-{slug(code(again))}",  # no '+': it joins a pair
                 f"In {where(context)}, `{code(again)}` is added again to `{name}` before each "
                 f"`{code(step)}` of the loop, `{callee(step)}({name} + {code(again)}, ...)` "
                 f"(as DETR's encoder adds its positions at every layer): `{callee(call)}` "
                 f"already returns `... + {code(term)}`, so it is added once, before the loop.",
                 replace)


def times_sqrt_width(value):
    """`value` [..., d] times sqrt(d), as the Transformer scales its embeddings; a value that is
    no float array is returned as it is."""
    if not (isinstance(value, np.ndarray) and value.ndim >= 1
            and np.issubdtype(value.dtype, np.floating)):
        return value
    return value * np.sqrt(value.shape[-1])


def scaled_by_width(context: Context, node: ast.AST) -> Iterator[Change]:
    """A step of the student API's output multiplied by the square root of its width,
    `x = linear_patch_embed(...)` as `x = linear_patch_embed(...) * math.sqrt(d_model)` (the
    Annotated Transformer's `Embeddings.forward`, Gemma's normaliser), where the lecture scales
    nothing. Not the reference's own small helpers: `q = split_heads(...)` scaled so is the
    attention's scale left out, which says it better."""
    from grader.reference import REFERENCE  # the student API's own functions

    bound = f"{PREFIX}times_sqrt_width"
    yield from _scaled_before_term(context, node, bound)
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call)
            and getattr(called_function(context, node.value), "__name__", None) in REFERENCE):
        return
    name = callee(node.value)

    def scaled(n: ast.Assign) -> ast.Assign:
        new = copy.copy(n)
        new.value = ast.Call(ast.Name(bound, ast.Load()), [n.value], [])
        return new

    yield Change(f"{name}-times-sqrt-d",
                 f"In {where(context)}, the output of `{code(node.value)}` is multiplied by the "
                 f"square root of its width d, `{node.targets[0].id} = {name}(...) * "
                 f"math.sqrt(d)` (as the Transformer scales its embeddings): the lecture scales "
                 "nothing there.", scaled, ((bound, times_sqrt_width),))


def _scaled_before_term(context: Context, node: ast.AST, bound: str) -> Iterator[Change]:
    """The checked function's `return x + term` (a term of its parameters: `params['pos']`) as
    `return x * math.sqrt(d) + term`: the Transformer's embeddings scaled before their positional
    encoding is added (OpenNMT's and fairseq's `emb * math.sqrt(dim)`, then `+ pe`)."""
    if not (isinstance(node, ast.Return) and "/" not in context.instance.path
            and isinstance(node.value, ast.BinOp) and isinstance(node.value.right, ast.Subscript)
            and _last_term(context.instance.node) is not None):  # its one `return x + term`
        return
    x, term = code(node.value.left), code(node.value.right)

    def scaled(n: ast.Return) -> ast.Return:
        total = copy.copy(n.value)
        total.left = ast.Call(ast.Name(bound, ast.Load()), [n.value.left], [])
        return ast.Return(total)

    yield Change(f"{slug(x)}-times-sqrt-d-before-{slug(term)}"[:60],
                 f"In {where(context)}, `{x}` is multiplied by the square root of its width d "
                 f"before `{term}` is added, `{x} * math.sqrt(d) + {term}` (as the Transformer "
                 "scales its embeddings before adding the positional encoding): the lecture "
                 "scales nothing there.", scaled, ((bound, times_sqrt_width),))


def first_row_to_the_rest(term) -> np.ndarray:
    """Zeros, then `term[0]` for every other row: what adding `term[0]` to the rest adds."""
    term = np.asarray(term)
    return np.concatenate([np.zeros_like(term[:1]), np.broadcast_to(term[:1], term[1:].shape)])


def first_row_again(term) -> np.ndarray:
    """Row 0 of `term`, then zeros: what adding `term[0]` to row 0 once more adds."""
    term = np.asarray(term)
    return np.concatenate([term[:1], np.zeros_like(term[1:])])


def bias_before_product(context: Context, node: ast.AST) -> Iterator[Change]:
    """A bias added before the product instead of after: `x @ W + b` as `(x + b) @ W` (the
    output projection's bias added to the heads' output, nanoGPT-style code reordered)."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
            and isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.MatMult)):
        return
    product, bias = node.left, node.right
    moved = ast.BinOp(ast.BinOp(product.left, ast.Add(), bias), ast.MatMult(), product.right)
    yield Change(f"{code(bias)}-before-product",
                 f"In {where(context)}, `{code(bias)}` is added before the product, "
                 f"`{code(moved)}`, where the lecture adds it after: `{code(node)}`.",
                 lambda n: ast.BinOp(ast.BinOp(n.left.left, ast.Add(), n.right), ast.MatMult(),
                                     n.left.right))


def argument_added(context: Context, node: ast.AST) -> Iterator[Change]:
    """A step's first argument added to its result, `attention(q, k, v, mask) + q` (MViTv2's
    residual pooling, kept from the source architecture), where the lecture keeps the step's
    result alone. Only a call of the reference's own whose first argument is a name the
    function assigns (a residual on its input is residuals' own operators)."""
    if not (isinstance(node, ast.Call) and called_function(context, node) is not None
            and node.args and isinstance(node.args[0], ast.Name)):
        return
    name = node.args[0].id
    function = context.instance.node
    if name in parameters_of(function) or not any(isinstance(n, ast.Name) and n.id == name
                                      and isinstance(n.ctx, ast.Store) for n in ast.walk(function)):
        return
    if any(isinstance(n, ast.Assign) and n.value is node and any(
            isinstance(t, ast.Name) and t.id == name for t in n.targets)
           for n in ast.walk(function)):
        return  # `x = step(x)` made `x = x + step(x)`: choices.residual_around_step's
    yield Change(f"{name}-added-to-{callee(node)}",
                 f"In {where(context)}, `{name}` is added to the result of `{code(node)}` "
                 f"(`{code(node)} + {name}`: a residual kept from another architecture, as "
                 f"MViTv2's pooling attention adds its queries to each head's output), where "
                 f"the lecture keeps the step's result alone.",
                 lambda n: ast.BinOp(n, ast.Add(), ast.Name(name, ast.Load())))


# a score's extra factor left by a base-2 softmax kernel: (factor, its words)
def extra_zero_logit(context: Context, node: ast.AST) -> Iterator[Change]:
    """A ratio `e / np.sum(e, ...)` of a name assigned once from a shifted exponential
    (`e = np.exp(x - m)`) with `np.exp(-m)` added to its denominator: one more logit, 0, in
    every slice (Evan Miller's softmax_1, "Attention Is Off By One"; an attention sink fixed at
    zero), so each slice sums to less than 1."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
            and isinstance(node.left, ast.Name) and isinstance(node.right, ast.Call)):
        return
    name = node.left.id
    if not any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.right)):
        return
    assigned = assigned_once(context.instance.node, name)
    if assigned is None or not (isinstance(assigned.value, ast.Call)
                                and callee(assigned.value) == "exp"):
        return
    shift = _shift(assigned.value)
    if shift is None:
        return
    extra = ast.Call(copy.deepcopy(assigned.value.func),
                     [ast.UnaryOp(ast.USub(), copy.deepcopy(shift.right))], [])
    yield Change("denominator-plus-exp-minus-shift",
                 f"In {where(context)}, `{code(node)}` has one more term in its denominator, "
                 f"`{code(extra)}`: a logit of 0 added to every slice (softmax_1 of \"Attention "
                 "Is Off By One\", an attention sink fixed at zero), so each slice sums to less "
                 f"than 1. The model solution's softmax divides by the sum of `{name}` alone.",
                 lambda n, extra=extra: ast.BinOp(n.left, ast.Div(),
                                                  ast.BinOp(n.right, ast.Add(), extra)))


BASE_TWO = ((math.log2(math.e), "log2(e) = 1.4427"), (math.log(2), "ln(2) = 0.6931"))


def base_two_factor(context: Context, node: ast.AST) -> Iterator[Change]:
    """The scores' scale `sqrt(q.shape[-1])` with a base-2 kernel's factor too: FlashAttention
    and Triton's fused attention fold log2(e) into the scale for `exp2`; with `np.exp` the
    scores come out times log2(e) (or times ln 2: `exp2` without the factor)."""
    if not (isinstance(node, ast.Call) and callee(node) == "sqrt" and len(node.args) == 1
            and "shape" in code(node.args[0])):
        return
    for factor, said in BASE_TWO:
        yield Change(f"scale-times-{factor:.4f}",
                     f"In {where(context)}, the scores are also multiplied by {said}, where "
                     f"the softmax exponentiates in base e: a base-2 kernel's factor (`exp2` "
                     f"with the scale times log2(e), as FlashAttention and Triton write it) "
                     f"with the other exponential. The model solution's scores are q k^T / "
                     f"`{code(node)}`, with `np.exp`.",
                     lambda n, factor=factor: ast.BinOp(n, ast.Div(), ast.Constant(factor)))


def keep_mask_hiding(context: Context, node: ast.AST) -> Iterator[Change]:
    """`np.where(mask, scores, -np.inf)` as `scores + mask * -1e9`: a keep-mask (True where a
    key may be seen) added with the convention of a mask of the hidden keys (the TensorFlow
    tutorial's `scaled_attention_logits += mask * -1e9`, 1 where a key is hidden), so the keys it
    keeps are pushed down by 1e9 and the ones it hides are seen; a row it keeps whole is only
    shifted, and right."""
    if not hides_with_minus_infinity(node):
        return
    mask, kept = node.args[0], node.args[1]
    added = ast.BinOp(copy.deepcopy(kept), ast.Add(), ast.BinOp(
        copy.deepcopy(mask), ast.Mult(), ast.UnaryOp(ast.USub(), ast.Constant(1e9))))
    said = code(added).replace("1000000000.0", "1e9")
    yield Change("keep-mask-added-as-hidden",
                 f"In {where(context)}, the mask is added as if it marked the hidden keys, "
                 f"`{said}` (the TensorFlow tutorial's `mask * -1e9`, 1 where a key is "
                 f"hidden), where `{code(node)}` belongs: `{code(mask)}` is True where a key may "
                 "be seen, so the keys it keeps are pushed down by 1e9 and the keys it hides are "
                 "the ones attended to. Add -1e9 (or set -inf) where the mask is False.",
                 lambda n, added=added: copy.deepcopy(added))


OPERATORS = {"residual_scaled": residual_scaled, "shift": shifted_one_side,
             "term_again": term_again,
             "scaled_by_width": scaled_by_width,
             "bias_first": bias_before_product,
             "argument_added": argument_added,
             "base_two": base_two_factor,
             "extra_zero_logit": extra_zero_logit,
             "term_each_step": term_each_step,
             "keep_mask_hiding": keep_mask_hiding}  # tried after results.OPERATORS
