"""Operators on a framework's convention carried into numpy code, where it does not hold:

- rows of tokens computed channels first, (d, N), and reshaped to (N, d) where a transpose
  belongs: torch's patch embedding `self.proj(x).flatten(2)` is (B, d, N), and a port that
  then writes `.reshape(B, N, d)` (or `np.reshape(out, (N, d))`) instead of `.transpose(1, 2)`
  scrambles its tokens (a "Vision Transformer" notebook's PatchTokenizer, Flatten then
  torch.reshape; many "ViT from scratch" posts that flatten a conv's output);
- a learned parameter cast to the input's dtype before it joins the tokens: Keras layers write
  `tf.cast(self.cls_token, inputs.dtype)` (a ClassToken layer), numpy ports
  `cls.astype(x.dtype)`, right for float images while an 8-bit image cuts the parameter to
  integers;
- every pass of a loop over a list given its last element: blocks kept as closures, `[lambda x:
  block(x, p) for p in blocks]` (an MLX ViT's encoder list written as lambdas), look the loop's
  name up when they are called, after the loop ended (Python's late binding).

Each is an operator as in operators.py (`f(context, node) -> iterator of Change`); OPERATORS
lists them in the order tried. Each applies in the checked function itself only, at the one kind
of node its pattern lives at: the result of a linear map it returns, the parameters in an
array it assembles from its first argument's tokens, a loop over a list.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, Renamed, code, is_result, key_of, where
from .dtypes import ASSEMBLED, like_input
from .tree import PREFIX


def channels_first_rows(value):
    """`value` [..., N, d] computed as [..., d, N] and reshaped to [..., N, d] with no transpose
    (the value itself when it is no float array of at least 2 axes)."""
    value = np.asarray(value)
    if value.ndim < 2 or not np.issubdtype(value.dtype, np.floating):
        return value
    return np.swapaxes(value, -1, -2).reshape(value.shape)


def _is_linear_map(context: Context, node: ast.AST) -> bool:
    """Whether `node` calls the reference's linear map (`linear(x, W, b)`)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return False
    instance = context.instance.children.get(node.func.id)
    return instance is not None and instance.function.__name__ == "linear"


def tokens_reshaped(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's rows of tokens `linear(x, W, b)` (N, d) computed channels first,
    (d, N), then reshaped to (N, d): torch's `conv(x).flatten(2)` without `.transpose(1, 2)`."""
    if not (_is_linear_map(context, node) and node.args
            and not (isinstance(node.args[0], ast.Subscript)  # one row (`x[0]`): no rows
                     and isinstance(node.args[0].slice, ast.Constant))
            and is_result(context, node)):
        return
    bound = f"{PREFIX}channels_first_rows"
    yield Change("rows-channels-first-reshaped",
                 f"In {where(context)}, the rows of `{code(node)}` are computed channels first, "
                 "one row per feature, (d, N) for (N, d), and then reshaped to (N, d) with no "
                 "transpose (as torch's `conv(x).flatten(2)` followed by a reshape instead of "
                 "`.transpose(1, 2)`): a reshape keeps the numbers in their order, so each "
                 "returned row mixes features of several tokens. Turn (d, N) into (N, d) with a "
                 "transpose, `.T`, not a reshape.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), [n], []),
                 ((bound, channels_first_rows),))


def parameter_cast(context: Context, node: ast.AST) -> Iterator[Change]:
    """A parameter (`params['cls']`) in an array the checked function assembles (`np.vstack(
    [params['cls'], x])`) cast to its first argument's dtype first: Keras'
    `tf.cast(cls_token, inputs.dtype)`, numpy's `cls.astype(image.dtype)`."""
    function = context.instance.node
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ASSEMBLED and "/" not in context.instance.path
            and function.args.args and function.args.args[0].arg == "image"  # pixels
            and node.args and isinstance(node.args[0], (ast.List, ast.Tuple))):
        return
    parts = node.args[0].elts
    given, bound = function.args.args[0].arg, f"{PREFIX}like_input"
    for index, part in enumerate(parts):
        if key_of(part) is None:
            continue

        def replace(n: ast.Call, index=index) -> ast.Call:
            new = copy.deepcopy(n)
            new.args[0].elts[index] = ast.Call(ast.Name(bound, ast.Load()), [
                new.args[0].elts[index], ast.Name(given, ast.Load())], [])
            return new

        yield Change(f"{key_of(part)}-cast-to-{given}-dtype",
                     f"In {where(context)}, the parameter `{code(part)}` is cast to `{given}`'s "
                     f"dtype before it joins the others in `{code(node)}` (as "
                     f"`{key_of(part)}.astype({given}.dtype)` or Keras' `tf.cast(..., "
                     f"inputs.dtype)` does): right for a float `{given}`, while for integer "
                     "pixels (uint8, as a file gives them) the learned values are cut to "
                     "integers. Keep the parameter's own float values.",
                     replace, ((bound, like_input),))


def last_element(context: Context, node: ast.AST) -> Iterator[Change]:
    """A loop over a list whose every pass uses the list's last element (`blocks[-1]` for every
    block): closures made in the loop and called after it (Python's late binding)."""
    if not (isinstance(node, ast.For) and isinstance(node.target, ast.Name)
            and "/" not in context.instance.path
            and isinstance(node.iter, (ast.Name, ast.Subscript, ast.Attribute))):
        return
    last = ast.Subscript(node.iter, ast.UnaryOp(ast.USub(), ast.Constant(1)), ast.Load())

    def replace(n: ast.For) -> ast.For:
        new = copy.copy(n)
        renamed = Renamed(n.target.id, ast.Subscript(
            n.iter, ast.UnaryOp(ast.USub(), ast.Constant(1)), ast.Load()))
        new.body = [renamed.visit(copy.deepcopy(statement)) for statement in n.body]
        return new

    name = node.target.id
    yield Change(f"{name}-last",
                 f"In {where(context)}, every pass of `for {name} in {code(node.iter)}` uses "
                 f"the last one, `{code(last)}`, instead of `{name}`, as closures made in a "
                 f"loop and called after it do (`[lambda x: f(x, {name}) for {name} in ...]`): "
                 f"Python looks `{name}` up when a closure runs, and by then it holds the loop's "
                 f"last value (late binding). Use `{name}` directly, or bind it when the "
                 f"closure is made (`lambda x, {name}={name}: ...`).", replace)


OPERATORS = {"tokens_channels_first": tokens_reshaped, "parameter_cast": parameter_cast,
             "late_bound": last_element}
