"""A mask's kept and hidden parts swapped, the hidden ones filled with a large finite number: a
mask of the HIDDEN keys (`np.triu(np.ones((T, T)), 1)`, 1 at the later tokens: PyTorch's
convention, `nn.MultiheadAttention`'s boolean `attn_mask`, True where a key may not be seen)
given to a rule that reads 1 as "keep" and fills where it is 0 (the UvA deep-learning
tutorials' `scaled_dot_product`, `jnp.where(mask == 0, -9e15, attn_logits)` in Flax,
`attn_logits.masked_fill(mask == 0, -9e15)` in PyTorch; a Flax linen MultiHeadAttention built
on it). Each query then sees only the later tokens, never itself or the earlier ones, and the
last query, with every key hidden, weighs them all alike (a finite fill: no NaN, where
`names.py`'s `mask_inverted`, the condition inverted with -inf kept, gives a NaN row). Only at
the reference's `np.where(mask, scores, -np.inf)` (one site).

Also a query whose every key is hidden given no weight at all, its row of weights 0 where the
lecture's softmax gives NaN (`empty_rows_zeroed`: fla-org's `tril_softmax`, `np.where(mask, exp,
0)` over a clipped sum; `np.nan_to_num`): alone it changes nothing where every query keeps a
key, so the search tries it as the quiet part of a pair with a mask that hides a whole row
(`operators.diagonal`'s `np.tri(T, k=-1)`, each token hidden from itself: row 0 then reads only
the output bias). And the hidden scores given -10000, added or as their value (`shallow_fill`:
BERT's extended attention mask, GPT-2's masked_bias), which hides them only while the scores are
small. And the causal triangle turned around (`triangle_turned`: a mask written for (keys,
queries) scores kept for (queries, keys) ones, Flux's `batched_triu!`), each query then seeing
the later tokens: listed as a variant (misconceptions.attention_mask_transposed) that pairs with
no rewrite, here an edit of its own step the search pairs with another step's (blind round 64's
b64_08: with the heads split strided). An operator as in operators.py (`f(context, node) ->
iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, callee, code, where
from .names import hides_with_minus_infinity
from .tree import PREFIX

FILL = -1e9  # any fill this large hides a key as -inf does where a row keeps one


def mask_swapped(context: Context, node: ast.AST) -> Iterator[Change]:
    """`np.where(mask, scores, -np.inf)` as `np.where(mask, -1e9, scores)`: the scores the mask
    keeps are the ones hidden, by a finite number, and the ones it hides are kept."""
    if not hides_with_minus_infinity(node):
        return

    def swapped(n: ast.Call) -> ast.Call:
        new = copy.copy(n)
        new.args = [n.args[0], ast.Constant(FILL), copy.deepcopy(n.args[1])]
        return new

    mask, kept = code(node.args[0]), code(node.args[1])
    yield Change("kept-and-hidden-swapped-finite-fill",
                 f"In {where(context)}, the mask hides the scores it should keep and keeps the "
                 f"ones it should hide, `np.where({mask}, -1e9, {kept})` in effect, where "
                 f"`{code(node)}` belongs, as when a mask that marks the hidden keys (`np.triu("
                 "np.ones((T, T)), 1)`, 1 at the later tokens, PyTorch's convention) meets a "
                 "rule that reads 1 as \"keep\" (`np.where(mask == 0, -9e15, scores)`). Each "
                 "query then sees only the later tokens, never itself or the earlier ones, and "
                 "the last query, with every key hidden, weighs all of them alike. Token i must "
                 "see keys 0..i: with a rule that fills where the mask is 0, that mask is "
                 "`np.tril(np.ones((T, T)))`.",
                 swapped)


def zero_hidden_rows(weights):
    """`weights` with every row that is NaN throughout (a softmax over keys all hidden by -inf)
    made 0: that query reads no value."""
    weights = np.asarray(weights)
    return np.where(np.isnan(weights).all(axis=-1, keepdims=True), 0.0, weights)


def empty_rows_zeroed(context: Context, node: ast.AST) -> Iterator[Change]:
    """`softmax(scores)` in a function that hides scores with -inf, its rows with every key
    hidden made 0 (no weight) where the lecture's are NaN."""
    function = context.instance.node
    if not (isinstance(node, ast.Call) and callee(node) == "softmax" and len(node.args) == 1
            and any(hides_with_minus_infinity(sub) for sub in ast.walk(function))):
        return
    bound = f"{PREFIX}zero_hidden_rows"
    yield Change("hidden-rows-zero-weights",
                 f"In {where(context)}, a query whose every key is hidden gets weights 0 from "
                 f"`{code(node)}` (its row reads no value), where the model solution's softmax "
                 "gives NaN: no query of the model solution's mask is left with no key.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), [n], []),
                 names=((bound, zero_hidden_rows),))


SHALLOW = -1e4  # BERT's extended attention mask, `(1.0 - mask) * -10000.0`; GPT-2's masked_bias


def shallow_fill(context: Context, node: ast.AST) -> Iterator[Change]:
    """`np.where(mask, scores, -np.inf)` with -10000 added to the hidden scores or put in their
    place (Hugging Face's BERT `(1.0 - mask) * -10000.0`, GPT-2's `masked_bias = -1e4`): right
    while the scores stay small, but a kept score 10000 below a hidden one no longer outweighs
    it, so with inputs far from zero the hidden keys leak into the softmax (blind round 56)."""
    if not hides_with_minus_infinity(node):
        return
    mask, kept = node.args[0], node.args[1]
    forms = (("added", f"{ast.unparse(kept)} + np.where({ast.unparse(mask)}, 0.0, {SHALLOW!r})",
              "get -10000 added"),
             ("fill", f"np.where({ast.unparse(mask)}, {ast.unparse(kept)}, {SHALLOW!r})",
              "are set to -10000"))
    for form, source, done in forms:
        new = ast.parse(source, mode="eval").body
        yield Change(f"minus-inf-as-{form}-1e4",
                     f"In {where(context)}, the hidden scores {done}, `{code(new)}`, where "
                     f"`{code(node)}` belongs: -10000 is not low enough, scores of size ~10000 "
                     "(inputs far from zero) leak through the mask. Hide them with -np.inf, or "
                     "-1e9.", lambda n, new=new: copy.deepcopy(new))


def triangle_turned(context: Context, node: ast.AST) -> Iterator[Change]:
    """The causal triangle `np.tri(T)` (query i sees keys 0..i) turned around, its transpose: a
    mask written for (keys, queries) scores, Julia's and MATLAB's layout (Flux's
    `batched_triu!(mask, 0)`), kept for (queries, keys) ones (blind round 64's b64_08,
    `np.triu(np.ones((T, T)))`). Each query then sees itself and the later tokens. An edit of its
    own step, so the search pairs it with another step's (the heads split strided)."""
    if not (isinstance(node, ast.Call) and callee(node) == "tri"
            and not any(k.arg == "k" for k in node.keywords)):
        return
    yield Change("tri-turned",
                 f"In {where(context)}, the causal mask is turned around, the upper triangle "
                 "kept where the lower one belongs: each query sees itself and the later "
                 "tokens, never the earlier ones (a mask written for scores laid out (keys, "
                 "queries) kept for scores laid out (queries, keys)). Token i must see keys "
                 "0..i: in the (queries, keys) scores that is the lower triangle, `np.tril`.",
                 lambda n: ast.Attribute(n, "T", ast.Load()))


OPERATORS = {"mask_swapped": mask_swapped,  # tried after sinusoids.OPERATORS
             "triangle_turned": triangle_turned,
             "empty_rows_zeroed": empty_rows_zeroed,
             "shallow_fill": shallow_fill}
