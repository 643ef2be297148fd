"""Operators on attention where a port keeps what its source fixed or wrote for one shape:

- the scale's size fixed at a number: `math.sqrt(q.shape[-1])` (the lecture's 1/sqrt(d_h), d_h
  the width of each head, d // heads) as the square root of a head width that does not follow
  the input, 16, 32 or 64 (LeViT's and snap-research/EfficientFormer's `key_dim ** -0.5` with
  `key_dim=16` or 32 a keyword default; lucidrains' vit-pytorch `dim_head=64` ported as a
  constant): right only where d_h is that number. Named only where the calls on which it
  shows (its value not the lecture's) read at least two different sizes there: on one size a
  fixed number and one derived from the size cannot be told apart;
- the attention-times-values product written as an einsum with a repeated subscript
  (`np.einsum("hss,shm->shm", A, v)`, lweitkamp/transformer_parallelisms' numpy attention):
  numpy takes the attention matrix's diagonal, so each token gets its own value scaled by its
  weight on itself, `A[s, s] * v[s]`, where the weighted sum over every token, `A @ v`,
  belongs (right only for a row whose weight is all on itself);
- each token attending only to itself, its own value `v` where `softmax(scores) @ v` belongs:
  what attention code written for a batch, (B, T, d), does on one unbatched (T, d) sequence
  when it reads the batch off the first axis (yipkingster/ml's Flax `split_heads`,
  `x.reshape(batch_size, -1, num_heads, d_k)` with `batch_size = x.shape[0]`: the tokens
  become the batch, each head sees a sequence of one token, its softmax is 1 and a causal
  mask has nothing to hide). Right only for one token;
- a count the checked function reads from its parameters and passes on (`params["heads"]`)
  fixed at a number a library's config hard-codes: 12 heads, ViT-Base's (google_vit's C++ port,
  `TransformerEncoderLayer(..., 12)`; timm's `vit_base_patch16_224`, `num_heads=12`), 3, 6 or
  16 (ViT-Ti, -S, -L/-H), or 8 or 4 as tutorials write (the Transformer's h = 8, the Keras
  ViT example's `num_heads = 4`; one head is another operator's, count_as_one). Named only
  where the calls give at least two other counts (on one, a fixed number and the count read
  cannot be told apart).

Each applies only in the checked function or a helper it calls itself (not inside another
student-API function it calls: that one has its own checks and its callers are graded with it
answered correctly). Each is an operator as in operators.py (`f(context, node) -> iterator of
Change`); the new code calls a function of this module, bound in the rewritten function's
globals.
"""
from __future__ import annotations

import ast
import copy
import math
from collections.abc import Iterator
from contextvars import ContextVar

import numpy as np

from .change import Change, Context, callee, code, near_checked, slug, where, whose
from .evidence import fresh, sizes_shown
from .tree import PREFIX

WIDTHS = {16: "LeViT's `key_dim=16`, `key_dim ** -0.5`",  # head widths public code fixes
          32: "EfficientFormer's `key_dim=32`, `key_dim ** -0.5`",
          64: "lucidrains' `dim_head=64`, `dim_head ** -0.5`"}

# the sizes a fixed scale ignored, while `_sizes_vary` runs: one list per thread (a class's
# submissions may be graded in threads of one process, each searching on its own)
READ: ContextVar[list | None] = ContextVar("fixed_head_width_sizes", default=None)


def fixed_root(size, fixed: int) -> float:
    """sqrt(`fixed`) whatever `size` is (recorded while `_sizes_vary` asks)."""
    read = READ.get()
    if read is not None:
        read.append(size)
    return math.sqrt(fixed)


def _sizes_vary(rewritten, calls, same) -> bool:
    """Whether the calls where the fixed scale shows (the value is not the lecture's) read two
    different sizes: on one size, or where the scale changes nothing (one token), the calls
    cannot tell a fixed number from one derived from the size."""
    return sizes_shown(READ, rewritten, calls, same)


def _size(node: ast.AST) -> bool:
    """`q.shape[-1]`: one size of an array."""
    return (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute)
            and node.value.attr == "shape")


def fixed_head_width(context: Context, node: ast.AST) -> Iterator[Change]:
    """`math.sqrt(q.shape[-1])` as the square root of a fixed head width (EfficientFormer's
    `key_dim ** -0.5`, key_dim = 32; lucidrains' `dim_head ** -0.5`, dim_head = 64): the scale
    does not follow the head width."""
    if not (isinstance(node, ast.Call) and callee(node) == "sqrt" and len(node.args) == 1
            and not node.keywords and _size(node.args[0]) and near_checked(context)):
        return
    bound = f"{PREFIX}fixed_root"
    size = code(node.args[0])
    for width, source in WIDTHS.items():
        yield Change(f"scale-of-width-{width}",
                     f"In {where(context)}, the scores are divided by sqrt({width}) = "
                     f"{math.sqrt(width):.4g} whatever the head width, as code that fixes the "
                     f"head width at {width} does ({source}); {whose(context)} scale is "
                     f"1/sqrt(d_h), `{code(node)}`, with d_h = `{size}` the width of each head "
                     f"(d // heads), so yours is right only where d_h = {width}.",
                     lambda n, width=width: ast.Call(ast.Name(bound, ast.Load()),
                                                     [n.args[0], ast.Constant(width)], []),
                     ((bound, fixed_root),), holds=_sizes_vary)


def diagonal_times(weights, values) -> np.ndarray:
    """`np.einsum('...ss,...sm->...sm', weights, values)`: each row of `values` scaled by the
    weight of its own position, the diagonal of the square `weights` (numpy's ValueError
    where the last two sizes of `weights` differ, as the einsum's)."""
    weights, values = np.asarray(weights), np.asarray(values)
    if weights.ndim < 2 or weights.shape[-1] != weights.shape[-2]:
        raise ValueError("dimensions in operand 0 for collapsing index 's' don't match "
                         f"({weights.shape[-2:]})")
    return np.diagonal(weights, axis1=-2, axis2=-1)[..., None] * values


def kept_diagonal(context: Context, node: ast.AST) -> Iterator[Change]:
    """`softmax(scores) @ v` as `np.einsum('hss,shm->shm', A, v)`: a repeated subscript keeps
    the attention matrix's diagonal (transformer_parallelisms' numpy attention). Only a product
    whose left side is attention weights (a softmax: a square matrix of weights)."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult)
            and isinstance(node.left, ast.Call) and callee(node.left) == "softmax"
            and near_checked(context)):
        return
    bound = f"{PREFIX}diagonal_times"
    weights, values = code(node.left), code(node.right)
    yield Change(f"{values}-times-diagonal",
                 f"In {where(context)}, each token gets only its own value `{values}` scaled "
                 f"by its attention weight on itself, the diagonal of `{weights}` (an einsum "
                 f"that repeats a letter, `np.einsum('hss,shm->shm', A, v)`, takes the "
                 f"diagonal): the model solution's `{code(node)}` is the weighted sum of every "
                 f"token's value, `np.einsum('hst,thm->shm', A, v)`, a new letter for the "
                 f"tokens looked at. Right only for a row whose weight is all on itself.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), [n.left, n.right], []),
                 ((bound, diagonal_times),))


def attends_itself(context: Context, node: ast.AST) -> Iterator[Change]:
    """`softmax(scores) @ v` as `v`: each token's weights all on itself, as when its scores are
    taken over a sequence of one token (batched attention code given one (T, d) sequence, its
    tokens read as the batch: yipkingster/ml's Flax `split_heads`). Only a product whose left
    side is attention weights (a softmax)."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult)
            and isinstance(node.left, ast.Call) and callee(node.left) == "softmax"
            and near_checked(context)):
        return
    values = code(node.right)
    yield Change(f"{values}-alone",
                 f"In {where(context)}, each token attends only to itself: its output is its "
                 f"own value, a row of `{values}`, where the model solution's `{code(node)}` is "
                 "the sum of every token's value weighted by its attention weights. That happens, "
                 f"for one, when each token's scores are taken over a sequence of one token: "
                 f"attention code written for a batch, (B, T, d), given one (T, d) sequence "
                 f"and reading the batch size off its first axis, `x.reshape(x.shape[0], -1, "
                 f"heads, d_h)`, treats every token as a sequence of its own (its softmax is "
                 f"then 1, and a causal mask hides nothing). Each head's scores must be a T x T "
                 f"matrix, every token against every token. Right only for one token.",
                 lambda n: n.right)


def _shape_index(node: ast.AST) -> int | None:
    """-2 or -1 of `x.shape[-2]`: one of an array's last two sizes, else None."""
    if not _size(node):
        return None
    index = node.slice
    if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub) \
            and isinstance(index.operand, ast.Constant):
        return -index.operand.value if index.operand.value in (1, 2) else None
    return None


def _raised_alike(rewritten, calls, same) -> bool:
    """Whether, wherever the cut table raises, the student's code raised numpy's same error, its
    words before the shapes (`operands could not be broadcast together with shapes`): a code
    that refuses long inputs by a guard of its own is no table too small."""
    for call in calls:
        try:
            rewritten(*fresh(call.args), **fresh(call.kwargs))
        except Exception as error:  # noqa: BLE001 - a rewrite may raise anything: it is data
            said = getattr(call.got, "message", None)
            if not isinstance(said, str) or said.split("(")[0] != str(error).split("(")[0]:
                return False
    return True


def buffer_cut(context: Context, node: ast.AST) -> Iterator[Change]:
    """A helper that builds a square table for the tokens, `causal_mask(x.shape[-2])`, called
    for the array's other last size and cut to the tokens, `causal_mask(x.shape[-1])[:T, :T]`:
    nanoGPT's `bias` buffer, `torch.tril(torch.ones(block_size, block_size))` cut to
    `[:T, :T]`, ported with the width for block_size. Right while the tokens are no more than
    that size; beyond, the cut table is too small for the scores."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in context.instance.children and len(node.args) == 1
            and not node.keywords and near_checked(context)):
        return
    axis = _shape_index(node.args[0])
    if axis is None:
        return
    size = node.args[0]
    other = copy.deepcopy(size)
    other.slice = ast.UnaryOp(ast.USub(), ast.Constant(1 if axis == -2 else 2))
    name, count = callee(node), code(size)
    built = f"{name}({code(other)})"
    yield Change(f"{name}-of-{slug(code(other))}-cut",
                 f"In {where(context)}, `{name}` is built for `{code(other)}` (another of the "
                 f"input's sizes) and cut to the first `{count}` rows and columns, "
                 f"`{built}[:{count}, :{count}]`, as nanoGPT's mask buffer, "
                 f"`torch.tril(torch.ones(block_size, block_size))[:T, :T]`, is made for a fixed "
                 f"size; the lecture builds it for the tokens themselves, `{code(node)}`. Right "
                 f"only while `{count}` is at most `{code(other)}`: beyond, the cut table is "
                 f"too small.",
                 lambda n, other=other: ast.Subscript(
                     ast.Call(n.func, [copy.deepcopy(other)], []),
                     ast.Tuple([ast.Slice(None, copy.deepcopy(n.args[0])),
                                ast.Slice(None, copy.deepcopy(n.args[0]))], ast.Load()),
                     ast.Load()), holds=_raised_alike)


COUNTS = {"heads": {12: "ViT-Base's", 16: "ViT-Large's and ViT-Huge's", 6: "ViT-Small's",
                    3: "ViT-Tiny's", 8: "the original Transformer's h = 8",
                    4: "the Keras ViT example's `num_heads = 4`"}}


def _passed_on(context: Context, node: ast.AST) -> ast.Call | None:
    """The call of a function by its name that takes `node` as one of its arguments (a helper,
    rewritten or left whole), else None."""
    for parent in ast.walk(context.instance.node):
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and (
                node in parent.args or any(k.value is node for k in parent.keywords)):
            return parent
    return None


def _counts_given(key: str, index: int, name: str, fixed: int):
    """A `holds`: whether the calls give two counts or more other than `fixed` under `key` of
    the checked function's parameter `name` (its `index`-th)."""
    def holds(rewritten, calls, same) -> bool:
        given = set()
        for call in calls:
            table = call.kwargs.get(name, call.args[index] if index < len(call.args) else None)
            if isinstance(table, dict) and type(table.get(key)) is int:
                given.add(table[key])
        return len(given - {fixed}) >= 2
    return holds


def fixed_count(context: Context, node: ast.AST) -> Iterator[Change]:
    """`params["heads"]` passed on as a fixed number a library's config writes (COUNTS): the
    count the caller gives is ignored. Only in the checked function, a key of one of its own
    parameters, passed straight to a helper."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
            and node.slice.value in COUNTS and isinstance(node.value, ast.Name)
            and "/" not in context.instance.path):
        return
    arguments = [a.arg for a in context.instance.node.args.args]
    call = node.value.id in arguments and _passed_on(context, node)
    if not call:
        return
    key, read = node.slice.value, code(node)
    for value, source in COUNTS[key].items():
        yield Change(f"{key}-as-{value}",
                     f"In {where(context)}, `{callee(call)}` is called with {value} {key}, a "
                     f"fixed number ({source}, as code ported from one model's config writes "
                     f"it), instead of `{read}`: the count the caller gives is ignored, so "
                     f"yours is right only for a model with {value} {key}. Pass `{read}` on.",
                     lambda n, value=value: ast.Constant(value),
                     holds=_counts_given(key, arguments.index(node.value.id), node.value.id,
                                         value))


OPERATORS = {"fixed_count": fixed_count, "fixed_head_width": fixed_head_width,
             "kept_diagonal": kept_diagonal, "buffer_cut": buffer_cut,
             "attends_itself": attends_itself}
