"""The learned table of positions replaced by the 1-D sine-cosine encoding of "Attention Is All
You Need" (section 3.5: PE(pos, 2k) = sin(pos / 10000 ** (2k / d)), PE(pos, 2k + 1) =
cos(pos / 10000 ** (2k / d))), as numpy ViT-from-scratch scripts and many tutorials write it:
one row per token of the sequence, [CLS] at position 0, sines on the even columns and cosines on
the odd ones, the learned `params['pos']` never read. Three ways public code writes the
exponent, each its own table:

- `paper`: 2k / d for the pair k = j // 2 of column j (the PyTorch tutorial's
  `div_term = torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))`, the TensorFlow
  tutorial's `get_angles`: `1 / np.power(10000, (2 * (i // 2)) / np.float32(d_model))`);
- `doubled`: 2i / d with i the even column itself, `for i in range(0, d, 2): pe[pos, i] =
  sin(pos / 10000 ** ((2 * i) / d))`, the cosine at i + 1 with the same angle (the formula's 2k
  written with the column index k already stepping by 2);
- `per-column`: 2j / d for every column j, the cosine's `10000 ** ((2 * (i + 1)) / d)` (the
  widely copied "How to code The Transformer in PyTorch" `PositionalEncoder`).

The table is made from the tokens' own shape (the student's code reads neither the image nor the
parameters for it), only at the checked function's own `x + params['pos']` in a function that
takes the image (embed_image; forward.positions_added). An operator as in operators.py
(`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, code, key_of, where
from .forward import positions_added
from .tree import PREFIX

EXPONENTS = {  # column j, width d -> the exponent of 10000 its angle divides the position by
    "paper": ("2k / d for the column pair k = j // 2, the paper's `10000 ** (2k / d)`",
              lambda j, d: 2 * (j // 2) / d),
    "doubled": ("2i / d with i the even column itself (`10000 ** ((2 * i) / d)` in a loop "
                "`for i in range(0, d, 2)`)", lambda j, d: 2 * (j - j % 2) / d),
    "per-column": ("2j / d for every column j (the cosine's `10000 ** ((2 * (i + 1)) / d)`)",
                   lambda j, d: 2 * j / d),
}


def sinusoid(tokens, variant: str):
    """The 1-D sine-cosine table of `tokens` [T, d]'s shape: row t, column j is sin (j even) or
    cos (j odd) of t / 10000 ** exponent(j, d); an array of another number of axes as zeros
    (no table: the rewrite then differs from code that makes one)."""
    shape = np.shape(tokens)
    if len(shape) != 2:
        return np.zeros(shape)
    count, width = shape
    columns = np.arange(width)
    exponent = EXPONENTS[variant][1](columns, width)
    angles = np.arange(count)[:, None] / 10000.0 ** exponent[None, :]
    return np.where(columns % 2 == 0, np.sin(angles), np.cos(angles))


def positions_sinusoid(context: Context, node: ast.AST) -> Iterator[Change]:
    """`x + params['pos']` as `x + sinusoid(x, variant)`: the learned table never read, the
    fixed 1-D encoding of the paper added in its place."""
    if positions_added(context, node) is None:
        return
    bound, key, table = f"{PREFIX}sinusoid", key_of(node.right), code(node.right)
    for variant, (words, _) in EXPONENTS.items():
        yield Change(f"{key}-as-sinusoid-{variant}",
                     f"In {where(context)}, `{table}` is never read: the tokens get a "
                     "fixed sine-cosine table of their own in its place (the \"Attention Is All "
                     "You Need\" encoding: for the token at position t, [CLS] at 0, the sine of "
                     "t / 10000 ** e on the even columns and the cosine on the odd ones, with "
                     f"e = {words}). The lecture's positions are learned parameters, one row per "
                     f"token, [CLS] included: add `{table}` itself.",
                     lambda n, variant=variant: ast.BinOp(n.left, ast.Add(), ast.Call(
                         ast.Name(bound, ast.Load()),
                         [copy.deepcopy(n.left), ast.Constant(variant)], [])),
                     ((bound, sinusoid),))


OPERATORS = {"positions_sinusoid": positions_sinusoid}
