"""Operators on attention's projections, their biases and the product they feed, each a slip
real multi-head attention code makes where it writes the projections by hand:

- the attention's scale applied to a projection's product before its bias is added (Hugging
  Face CLIP's and GIT's `self.q_proj(x) * self.scale` typed `x @ Wq * scale + bq`; the scale
  folded into the input, `(x / sqrt(d_h)) @ Wq + bq`, as flax's `query / sqrt(depth)` moved
  ahead of the projection): the bias left unscaled;
- an output projection's bias added once per head (a loop over the heads that projects each
  head's output through its rows of Wo, "attention from scratch" posts, and adds `bo` inside
  the loop);
- each head's part of a projection's bias sliced with the slip of a head loop: every head
  given head 0's part (`b[:d_h]`, numpy-ml's per-head slices written for the weights only), or
  head h's part started at h (`b[h:h + d_h]`);
- a contraction written as an einsum whose summed letter differs between its operands
  (`'hqk,vhd->qhd'` for `'hqk,khd->qhd'`, aladdinpersson/Machine-Learning-Collection#165):
  each operand summed over its own axis and the sums multiplied;
- a mask's hidden places written through the index arrays of a (T, T) matrix into the
  scores of every head (`scores[np.triu_indices(T, 1)] = -np.inf`, numpy answers' idiom, on a
  (heads, T, T) array): the first two axes indexed, not the last two.

Each is an operator as in operators.py (`f(context, node) -> iterator of Change`); the new code
calls a function of this module, bound in the rewritten function's globals.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, callee, code, slug, where
from .names import hides_with_minus_infinity
from .tree import PREFIX, Instance, nodes


def _params(function: ast.FunctionDef) -> list[str]:
    return [a.arg for a in function.args.args]


def is_affine(instance: Instance) -> bool:
    """Whether the helper returns `x @ W + b` of its first three parameters (`linear`)."""
    params, body = _params(instance.node), instance.node.body
    last = body[-1] if body else None
    if len(params) < 3 or not isinstance(last, ast.Return):
        return False
    value = last.value
    return (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add)
            and isinstance(value.left, ast.BinOp) and isinstance(value.left.op, ast.MatMult)
            and [getattr(n, "id", None) for n in (value.left.left, value.left.right,
                                                  value.right)] == params[:3])


def affine_call(instance: Instance, node: ast.AST) -> bool:
    """Whether `node` calls an affine helper of `instance` with its bias: `linear(x, p['Wq'],
    p['bq'])`."""
    child = (instance.children.get(node.func.id)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else None)
    return child is not None and len(node.args) >= 3 and not node.keywords and is_affine(child)


def _counts(context: Context) -> list[str]:
    """The checked function's parameters it passes on to a helper after its first argument, as
    a name alone (`split_heads(..., heads)`): counts such as the number of heads."""
    function, children = context.instance.node, context.instance.children
    params, found = _params(function), []
    for sub, _, _, _ in nodes(function):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and \
                sub.func.id in children:
            found += [a.id for a in sub.args[1:] if isinstance(a, ast.Name) and a.id in params
                      and a.id not in found]
    return found


def _reads(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _depends(function: ast.FunctionDef, count: str) -> set[str]:
    """The names the function assigns from `count`, directly or through other such names."""
    found = {count}
    for sub, _, _, _ in nodes(function):
        if isinstance(sub, ast.Assign) and _reads(sub.value, found):
            found |= {t.id for t in sub.targets if isinstance(t, ast.Name)}
    return found


def _statement(function: ast.FunctionDef, node: ast.AST) -> ast.Assign | None:
    """The assignment to one name whose value holds `node`."""
    for sub, _, _, _ in nodes(function):
        if isinstance(sub, ast.Assign) and len(sub.targets) == 1 and \
                isinstance(sub.targets[0], ast.Name) and \
                any(n is node for n in ast.walk(sub.value)):
            return sub
    return None


def _operand(side: ast.AST, param: str) -> bool:
    """`q`, or `k.swapaxes(-1, -2)` / `k.T` / `k.transpose(...)`: the parameter, transposed."""
    if isinstance(side, ast.Name):
        return side.id == param
    if isinstance(side, ast.Call):
        side = side.func
    return (isinstance(side, ast.Attribute) and side.attr in ("swapaxes", "T", "transpose")
            and isinstance(side.value, ast.Name) and side.value.id == param)


def _scale(caller: Instance, helper: Instance, param: str) -> tuple[ast.AST, ast.AST, bool] | None:
    """(product, scale, divides) of the helper's `param @ ... / scale` (or `* scale`, either
    operand the parameter), when the scale reads no name but `param` and the module's, the
    caller's too."""
    for sub in ast.walk(helper.node):
        if not (isinstance(sub, ast.BinOp) and isinstance(sub.op, (ast.Div, ast.Mult))
                and isinstance(sub.left, ast.BinOp) and isinstance(sub.left.op, ast.MatMult)
                and any(_operand(s, param) for s in (sub.left.left, sub.left.right))):
            continue
        free = {n.id for n in ast.walk(sub.right) if isinstance(n, ast.Name)} - {param}
        if all(n in helper.function.__globals__ and not n.startswith(PREFIX)
               and caller.function.__globals__.get(n) is helper.function.__globals__[n]
               for n in free):
            return sub.left, sub.right, isinstance(sub.op, ast.Div)
    return None


def bias_unscaled(context: Context, node: ast.AST) -> Iterator[Change]:
    """The attention's scale applied to a projection's product before its bias: `x @ Wq * scale
    + bq` (CLIP's `q_proj(x) * scale` with the bias left out of the product) or `(x * scale) @
    Wq + bq` (flax's scale folded into the input), where the lecture scales the scores, that is
    the whole query, bias included. The same as the bias multiplied by the inverse scale."""
    if not affine_call(context.instance, node):
        return
    function = context.instance.node
    statement = _statement(function, node)
    if statement is None:
        return
    name = statement.targets[0].id
    for sub, _, _, _ in nodes(function):
        helper = (context.instance.children.get(sub.func.id) if isinstance(sub, ast.Call)
                  and isinstance(sub.func, ast.Name) else None)
        if helper is None or is_affine(helper):
            continue
        for i, arg in enumerate(sub.args[:len(_params(helper.node))]):
            param = _params(helper.node)[i]
            found = _scale(context.instance, helper, param) if isinstance(arg, ast.Name) and \
                arg.id == name else None
            if found is None:
                continue
            product, scale, divides = found
            role, roles = ("query", "queries") if _operand(product.left, param) else ("key", "keys")
            value = ast.Call(ast.Lambda(ast.arguments([], [ast.arg(param)], None, [], [], None,
                                                      []), copy.deepcopy(scale)),
                             [copy.deepcopy(statement.value)], [])
            bias, product_code = node.args[2], f"{code(node.args[0])} @ {code(node.args[1])}"
            op = "/" if divides else "*"
            yield Change(f"{name}-bias-unscaled",
                         f"In {where(context)}, your {roles} are scaled before their bias is "
                         f"added: `{product_code}` is scaled (`{op} {code(scale)}`, the scale "
                         f"of `{code(product)}` in `{helper.name}`) and `{code(bias)}` added "
                         f"after it (`x @ W {op} scale + b`, as Hugging Face CLIP's "
                         "`q_proj(x) * scale` typed without its bias, or the scale folded into "
                         f"the input, `(x {op} scale) @ W + b`); the lecture scales the whole "
                         f"{role}, bias included, `({product_code} + {code(bias)}) {op} scale`.",
                         lambda n, value=value, divides=divides: _with_bias(
                             n, ast.BinOp(n.args[2], ast.Mult() if divides else ast.Div(),
                                          copy.deepcopy(value))))
            return


def _with_bias(call: ast.Call, bias: ast.AST) -> ast.Call:
    new = copy.copy(call)
    new.args = [*call.args[:2], bias, *call.args[3:]]
    return new


def bias_per_head(context: Context, node: ast.AST) -> Iterator[Change]:
    """An affine step on what the heads computed (the output projection) with its bias added
    once per head: a loop over the heads that projects each head's output through its rows of
    Wo and adds `bo` inside the loop. The same as the bias multiplied by the count."""
    if not affine_call(context.instance, node):
        return
    function = context.instance.node
    for count in _counts(context):
        if not _reads(node.args[0], _depends(function, count) - {count}):
            continue
        bias = node.args[2]
        yield Change(f"{code(bias)}-per-{count}",
                     f"In {where(context)}, the bias `{code(bias)}` of `{code(node)}` is added "
                     f"once per head, `{count}` times (inside a loop over the heads that "
                     f"projects each head's output through its rows of the weights and adds the "
                     f"bias each time), where the lecture adds it once, after the heads' outputs "
                     f"are put side by side (right only with one head).",
                     lambda n, count=count: _with_bias(n, ast.BinOp(
                         n.args[2], ast.Mult(), ast.Name(count, ast.Load()))))


def head_zero(bias, count) -> np.ndarray:
    """`bias` [d] with every head's part head 0's: `b[:d_h]` in each head of a loop."""
    bias, count = np.asarray(bias), int(count)
    return np.tile(bias[..., :bias.shape[-1] // count], count)


def head_shifted(bias, count) -> np.ndarray:
    """`bias` [d] with head h's part started at h: `b[h:h + d_h]` in each head of a loop."""
    bias, count = np.asarray(bias), int(count)
    size = bias.shape[-1] // count
    return np.concatenate([bias[..., h:h + size] for h in range(count)], axis=-1)


SLICES = {"head-0": (head_zero, "`b[:d_h]`, head 0's part, for every head"),
          "start-at-h": (head_shifted, "`b[h:h + d_h]`, started at h where `b[h * d_h:(h + 1) "
                                       "* d_h]` belongs")}


def _split_biases(context: Context, function: ast.FunctionDef, count: str) -> list[ast.Call]:
    """The affine calls whose result a helper splits by `count`: `split_heads(linear(x, Wq,
    bq), heads)`'s `linear(...)`."""
    return [arg for sub, _, _, _ in nodes(function) if isinstance(sub, ast.Call)
            and any(isinstance(a, ast.Name) and a.id == count for a in sub.args[1:])
            for arg in sub.args[:1] if affine_call(context.instance, arg)]


def _split_projections(context: Context, node: ast.AST):
    """(the head count's name, the affine calls whose result the heads split) in the checked
    instance's own function, for each name a head count goes by."""
    if node is not context.instance.node:
        return
    for count in _counts(context):
        calls = _split_biases(context, node, count)
        if calls:
            yield count, calls


def bias_sliced(context: Context, node: ast.AST) -> Iterator[Change]:
    """Every projection's bias that the heads split, sliced per head with a head loop's slip
    (its weights sliced right): head 0's part for every head, or head h's started at h."""
    for count, calls in _split_projections(context, node):
        biases = ", ".join(f"`{code(c.args[2])}`" for c in calls)
        for detail, (function, said) in SLICES.items():
            bound = f"{PREFIX}{function.__name__}"
            yield Change(f"biases-{detail}",
                         f"In {where(context)}, the biases {biases} are cut into the "
                         f"`{count}` heads' parts with a slip, {said}, while the weights' "
                         f"columns are cut right: each head's bias is its own part, "
                         f"`b[h * d_h:(h + 1) * d_h]` (right only with one head).",
                         lambda n, count=count, bound=bound: _sliced(context, n, count, bound),
                         ((bound, function),))


def _sliced(context: Context, function: ast.FunctionDef, count: str, bound: str,
            argument: int = 2) -> ast.FunctionDef:
    """`function` with the `argument`-th argument (2: the bias, 1: the weight) of each
    projection the heads split passed through `bound(it, count)`."""
    new = copy.deepcopy(function)
    for call in _split_biases(context, new, count):
        call.args[argument] = ast.Call(ast.Name(bound, ast.Load()),
                                       [call.args[argument], ast.Name(count, ast.Load())], [])
    return new


def head_stacked(weight, count) -> np.ndarray:
    """`weight` [d_in, d] whose column block h is `weight.reshape(count, d_in, d // count)[h]`:
    each head's weights read off the matrix by a reshape (d_h consecutive entries of its
    flattened rows), laid out where the split reads head h's columns."""
    weight, count = np.asarray(weight), int(count)
    rows = weight.shape[0]
    return weight.reshape(count, rows, -1).swapaxes(0, 1).reshape(rows, -1)


def weights_reshaped(context: Context, node: ast.AST) -> Iterator[Change]:
    """Every projection whose result the heads split, its weights taken per head by a reshape
    of the whole matrix to (heads, d, d // heads) (a per-head weight tensor, as
    jimmybanta/LLM-from-scratch's `(num_heads, d_model, d_k)` layout, read off a (d, d) matrix),
    instead of the column block `W[:, h * d_h:(h + 1) * d_h]`: right with one head only."""
    for count, calls in _split_projections(context, node):
        weights = ", ".join(f"`{code(c.args[1])}`" for c in calls)
        bound = f"{PREFIX}{head_stacked.__name__}"
        yield Change("weights-reshaped-per-head",
                     f"In {where(context)}, each head's weights are taken from {weights} by a "
                     f"reshape of the whole matrix, `W.reshape({count}, d, d // {count})[h]` "
                     f"(a per-head weight tensor), which cuts the matrix's entries in memory "
                     f"order, row after row, not into head h's columns: head h's weights are "
                     f"the column block `W[:, h * d_h:(h + 1) * d_h]` (the two agree only with "
                     f"one head).",
                     lambda n, count=count, bound=bound: _sliced(context, n, count, bound, 1),
                     ((bound, head_stacked),))


def sums_multiplied(left, right) -> np.ndarray:
    """`left @ right` as an einsum whose summed letter differs between the operands: each summed
    over its own axis, the sums multiplied."""
    return np.sum(left, axis=-1, keepdims=True) * np.sum(right, axis=-2, keepdims=True)


def letters_mismatched(context: Context, node: ast.AST) -> Iterator[Change]:
    """A product of two computed arrays (`softmax(scores) @ v`, `q @ k.swapaxes(-1, -2)`) as an
    einsum with a new letter for one operand's summed axis: no axis is shared, so each is
    summed away on its own."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult)
            and any(isinstance(s, ast.Call) for s in (node.left, node.right))):
        return
    bound = f"{PREFIX}sums_multiplied"
    weights = isinstance(node.left, ast.Call) and callee(node.left) == "softmax"
    yield Change(f"{slug(code(node.right))}-sums-multiplied",
                 f"In {where(context)}, `{code(node)}` sums the products over the axis the "
                 "two share; yours sums each over its own (an einsum with a new letter for one "
                 "side's summed axis, `'hqk,vhd->qhd'` where `'hqk,khd->qhd'` belongs) and "
                 "multiplies the two sums" + (
                     ": with attention weights, whose rows sum to 1, every query gets the sum of "
                     "all values (right only with one token)." if weights else
                     " (right only where the summed axis has one element)."),
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), [n.left, n.right], []),
                 ((bound, sums_multiplied),))


def filled_leading(keep, scores, fill) -> np.ndarray:
    """`np.where(keep, scores, fill)` written `scores[np.nonzero(~keep)] = fill`: the index
    arrays of a (T, T) matrix index `scores`' first two axes (an IndexError out of range)."""
    scores = np.array(scores, dtype=np.result_type(scores, fill))
    scores[np.nonzero(~np.asarray(keep, dtype=bool))] = fill
    return scores


def mask_on_leading_axes(context: Context, node: ast.AST) -> Iterator[Change]:
    """`np.where(mask, scores, -np.inf)` as `scores[np.triu_indices(T, 1)] = -np.inf` on the
    scores of every head: the (T, T) mask's index arrays index the first two axes."""
    if not hides_with_minus_infinity(node):
        return
    bound = f"{PREFIX}filled_leading"
    yield Change("mask-indexes-leading-axes",
                 f"In {where(context)}, `{code(node)}` hides the masked scores of every head; "
                 "yours writes them through the index arrays of the (T, T) mask "
                 "(`scores[np.triu_indices(T, 1)] = -np.inf`, written for one matrix) into "
                 "scores with more axes, (heads, T, T), where they index the first two axes "
                 "(the heads and the queries), not the last two: whole rows hidden, or an "
                 "IndexError when there are fewer heads than tokens.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), list(n.args), []),
                 ((bound, filled_leading),))


OPERATORS = {"bias_unscaled": bias_unscaled, "bias_per_head": bias_per_head,
             "bias_sliced": bias_sliced, "weights_reshaped": weights_reshaped,
             "letters_mismatched": letters_mismatched,
             "mask_leading_axes": mask_on_leading_axes}
