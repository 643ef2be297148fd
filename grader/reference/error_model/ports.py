"""Operators on a result shaped as the library code a student ports returns it: a tuple of sizes
returned as the keyword arguments of the layer they configure (timm's and Hugging Face's patch
embedding, `nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)`, ported
as `dict(kernel_size=P, stride=P)`), and a convolution's fast path for windows that tile the
image (cs231n's `max_pool_forward_fast`, which takes `max_pool_forward_reshape` when the pools
tile, and im2col otherwise) whose reshape back to the grid has its first two sizes the other way
round, while the general path is right.

The keyword names are the reference's own: the return comment of its function names the parts
of the tuple (`def conv_equivalent(P):  # -> (kernel_size, stride)`); a function that does not
name them is left alone. An operator as in operators.py (`f(context, node) -> iterator of
Change`).
"""
from __future__ import annotations

import ast
import functools
import inspect
import re
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, code, is_result, where
from .evidence import agree
from .windows import returned_through, windows_returned

RETURN_NAMES = re.compile(r"#\s*->\s*\(\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)+)\s*\)")


@functools.lru_cache(maxsize=64)
def part_names(function) -> tuple[str, ...]:
    """The names the return comment of `function`'s `def` line gives its tuple's parts,
    `# -> (kernel_size, stride)`; () where it gives none."""
    try:
        first = inspect.getsource(function).splitlines()[0]
    except (OSError, TypeError, IndexError):
        return ()
    found = RETURN_NAMES.search(first)
    return tuple(re.split(r"\s*,\s*", found[1])) if found else ()


def sizes_as_keywords(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's returned tuple `(P, P)` as the keyword arguments its parts are
    called by, `dict(kernel_size=P, stride=P)` (the nn.Conv2d call of a PatchEmbed ported)."""
    if not (isinstance(node, ast.Tuple) and len(node.elts) > 1 and is_result(context, node)):
        return
    names = part_names(context.instance.function)
    if len(names) != len(node.elts):
        return

    def keywords(n: ast.Tuple) -> ast.Call:
        return ast.Call(ast.Name("dict", ast.Load()), [],
                        [ast.keyword(name, e) for name, e in zip(names, n.elts, strict=True)])

    written = code(keywords(node))
    yield Change("as-keyword-arguments",
                 f"In {where(context)}, the result `{code(node)}` is returned as the keyword "
                 f"arguments of the layer it configures, `{written}`, as timm's and Hugging "
                 f"Face's patch embedding write `nn.Conv2d(..., kernel_size=patch_size, "
                 f"stride=patch_size)`: the lecture's answer is the tuple "
                 f"({', '.join(names)}) itself, `{code(node)}`.",
                 lambda n: keywords(n) if isinstance(n, ast.Tuple) and len(n.elts) == len(names)
                 else None)


def fast_path_sides_swapped(value, image, window, stride):
    """`value` [H', W', d] reshaped to [W', H', d] where the windows tile the image (stride ==
    k on both axes, k dividing H and W: the fast path), as it is everywhere else."""
    if not (isinstance(value, np.ndarray) and value.ndim >= 3):
        return value
    (height, width), (kh, kw) = np.shape(image)[:2], tuple(window)[:2]
    if not (stride == kh == kw and height % kh == 0 and width % kw == 0):
        return value
    return value.reshape(value.shape[1], value.shape[0], *value.shape[2:])


def general_path_shown(rewritten, calls, same) -> bool:
    """Whether one of `calls` is right with an output whose two sides differ (H' != W'): only
    there the general path is seen right where a reshape to (W', H') would not be."""
    return any(np.ndim(c.expected) >= 2 and np.shape(c.expected)[0] != np.shape(c.expected)[1]
               and agree(same, c.expected, c.got) for c in calls)


def fast_path_reshape(context: Context, node: ast.AST) -> Iterator[Change]:
    """Where the windows tile the image (stride == k, k dividing H and W), the output computed
    by a fast path that cuts the image into k x k tiles with a reshape and reshapes the product
    back as (W', H', d) for (H', W', d); every other stride by the general path, right."""
    found = windows_returned(context, node)
    if found is None:
        return
    yield Change(f"{found[0]}-fast-path-sides-swapped",
                 f"In {where(context)}, when the windows tile the image (stride == k, k "
                 f"dividing H and W) the output comes from a fast path, the image cut into "
                 f"k x k tiles by a reshape (as cs231n's max_pool_forward_fast does when the "
                 f"pools tile), and that path reshapes its result to (W', H', d) where (H', W', "
                 f"d) belongs: the same on square images, while every other stride goes the "
                 f"general way and is right. Reshape the fast path's result to (H // k, W // k, "
                 f"d).", *returned_through(found, fast_path_sides_swapped),
                 holds=general_path_shown)


OPERATORS = {"sizes_as_keywords": sizes_as_keywords, "fast_path_reshape": fast_path_reshape}
