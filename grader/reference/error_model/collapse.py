"""Operators on the patch tokens of the function that takes the image and makes the sequence
(embed_image), as code ported from a convolutional patch embedding makes them (issue 38):

- the tokens collapsed to a patch count made for square images: the (H // P, W // P) grid of
  tokens reshaped to n * n rows with n counted from one side (Flax's VitInputLayer, `num_patch =
  num_patch_row ** 2` from the image's height, then `jax.lax.collapse`; PyTorch ports'
  `x.view(B, (img_size // patch_size) ** 2, -1)`): right for square images, numpy's refusal of
  the reshape for any other (the reshape of the tokens asks for n * n rows of the same width,
  the student's very message);
- the image cut to the patches that fit before it is embedded (a kernel = stride = P
  convolution with no tiling test, VALID padding, floors the grid: timm's
  `strict_img_size=False`, Flax's `nn.Conv(..., strides=patch_size)` ported as the lecture's
  `conv_patch_embed`): the same tokens wherever P tiles the image, the top-left patches' tokens
  where it does not, and ValueError is asked for.

Both apply only in the checked function itself, at its call of a student-API function given
the image and the patch size read from the parameters (`linear_patch_embed(image, ...,
params['P'])`). An operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import STEP, Change, Context, callee, code, key_of, where
from .forward import IMAGE, SIZE
from .tree import PREFIX

SIDES = {0: ("height", "H"), 1: ("width", "W")}


def _embedding(context: Context, node: ast.AST) -> ast.AST | None:
    """The patch size's node where `node` is the checked function's call of a student-API
    function given the image and `params['P']` (the patch tokens, one row each); else None."""
    from grader.reference import REFERENCE  # the student API's own functions

    function = context.instance.node
    if not (isinstance(node, ast.Call) and "/" not in context.instance.path
            and function.args.args and function.args.args[0].arg == IMAGE
            and callee(node) in REFERENCE
            and any(isinstance(a, ast.Name) and a.id == IMAGE for a in node.args)):
        return None
    return next((a for a in node.args if key_of(a) == SIZE), None)


def _at(context: Context, node: ast.Call) -> str:
    """"In `embed_image` (at the model solution's step `linear_patch_embed(image, ...)`)": the
    call placed as the model solution's step, which report/steps.py says as the student's line
    that makes it, or as its call of the student's helper only where the function calls it
    (blind round 68's b68_15 embeds through `conv_patch_embed` and was told of its
    `linear_patch_embed(...)` call)."""
    return f"In {where(context)} ({STEP} `{code(node)}`)"


def square_rows(tokens, image, size, counted):
    """`tokens` [N, d] reshaped to n * n rows, n = the image's side `counted` // size: the same
    tokens for a square image, numpy's ValueError for another (the student's message)."""
    tokens = np.asarray(tokens)
    n = np.shape(image)[counted] // size
    return tokens.reshape(n * n, tokens.shape[-1])


def tiles_only(image, size):
    """`image` cut to the patches that fit, as a kernel = stride = P convolution reads it."""
    image = np.asarray(image)
    if image.ndim < 2 or not isinstance(size, (int, np.integer)) or size <= 0:
        return image
    return image[:image.shape[0] // size * size, :image.shape[1] // size * size]


def square_count(context: Context, node: ast.AST) -> Iterator[Change]:
    """`linear_patch_embed(image, ..., params['P'])` as `square_rows(<it>, image, params['P'],
    side)`: the tokens reshaped to (side // P) ** 2 rows."""
    size = _embedding(context, node)
    if size is None:
        return
    bound = f"{PREFIX}square_rows"
    for counted, (side, letter) in SIDES.items():
        other = SIDES[1 - counted][1]
        yield Change(f"tokens-counted-from-{letter}-squared",
                     f"{_at(context, node)}, the patch tokens are reshaped to "
                     f"({letter} // P) ** 2 rows, a patch count made for square images, as some "
                     f"libraries do (Flax's VitInputLayer `num_patch = num_patch_row ** 2`, the "
                     f"row count taken from the {side} alone): a non-square image's "
                     "(H // P) * (W // P) tokens do not "
                     f"fit, and numpy refuses the reshape. Count the patches from both sides, "
                     f"({letter} // P) * ({other} // P) (right only when H == W).",
                     lambda n, counted=counted: ast.Call(
                         ast.Name(bound, ast.Load()),
                         [n, ast.Name(IMAGE, ast.Load()), copy.deepcopy(size),
                          ast.Constant(counted)], []),
                     ((bound, square_rows),))


def floored(context: Context, node: ast.AST) -> Iterator[Change]:
    """`linear_patch_embed(image, ..., params['P'])` given `tiles_only(image, params['P'])`: no
    size refused, the patches that fit embedded."""
    size = _embedding(context, node)
    if size is None:
        return
    bound = f"{PREFIX}tiles_only"

    def cut(n: ast.Call) -> ast.Call:
        new = copy.copy(n)
        new.args = [ast.Call(ast.Name(bound, ast.Load()), [a, copy.deepcopy(size)], [])
                    if isinstance(a, ast.Name) and a.id == IMAGE else a for a in n.args]
        return new

    yield Change("image-floored-to-tiles",
                 f"{_at(context, node)}, nothing refuses an image that P does not tile: the "
                 f"grid is floored and the last rows and columns left out (as a kernel = stride "
                 f"= P convolution with VALID padding does), so the patch embedding gets the "
                 f"patches that fit and a size P does not tile gets tokens. ViT patches "
                 f"tile the image: raise ValueError when P does not divide H or W (the model "
                 f"solution's `{callee(node)}` does).",
                 cut, ((bound, tiles_only),))


OPERATORS = {"square_count": square_count, "floored": floored}
