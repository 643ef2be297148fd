"""The attention scores divided by the wrong size: `math.sqrt(q.shape[-1])` (the lecture's
sqrt(d_h), d_h = q.shape[-1] the width of each head, q [..., heads, T, d_h]) as another power of
another size of q. `operators.constant` yields these edits at the reference's square root of a
shape; they are named as its own (`op:constant:...:scale=...`).

- d_h itself, sqrt(d) or d (d = d_h * heads, the model width): the scale read off the whole
  width, or its root left off;
- the square root of a share of a width, d_h // k or d // k with k = 2 or 3: a fused
  projection's width read as one's (blind round 63's b63_15, glide's QKVMultiheadAttention
  ported to separate q, k, v: `attn_ch = width // heads // 3`, a third of d_h, in
  `1 / math.sqrt(math.sqrt(attn_ch))` on q and on k);
- the fourth root of one of these widths: d_h ** -0.25, which belongs on q and on k both
  (whisper's), put on one of them only.

Each edit computes its scale as a number, as `1 / math.sqrt(size)` and `size ** -0.5` do: where
the size is 0 (d_h // 3 for d_h < 3) that raises ZeroDivisionError, and a student's code that
raises it there is reproduced; one that divides an array by 0.0 gets no raise, and is not. What
a formula says beyond the values is named only where the calls that show it (its value not the
lecture's; one token shows no scale) read at least two of its sizes, a share of 0 counted as one
(`varies`): on one size, a constant (no scale, the listed `attention_no_scale`, where the
formula is 1) or another formula of the same value cannot be told from it. The
sentence says the student's line that computes the share or the root where their function holds
one (report/steps.py, quotes.OWN_LINES).

- the head count, heads = q.shape[-3], or its square root; and the lecture's candidates turned
  from divisors into factors, the scores multiplied by sqrt(heads), heads, d_h, sqrt(d) or d
  (blind round 76's b76_04, Junhojuno/vision-transfomer-tf2's Keras ViT: `logits = Q @ K^T *
  (n_heads ** 0.5)`). Where one of these reproduces the values, a rewrite that reads the
  scale's size at another axis (`index`'s `q.shape[0]`: q is (heads, T, d_h), its first size
  the head count) is not said (`formulas_over_reads`): the formula is true of whatever the
  code writes (`n_heads ** 0.5`, `k.shape[0]`), the index names an expression it may not have.

- the square root of the number of tokens, T = q.shape[-2] (blind round 82's b82_01, the LLM
  book's CausalAttention: `softmax(scores / num_tokens ** 0.5)`): said as the scale it is, not
  as `index`'s `q.shape[-2]` (`formulas_over_reads`). Where T equals another size of this
  module on every call that shows it (T == d, T == heads), both formulas reproduce the calls,
  and neither is said (__init__.search: two names that no rule tells apart); where the calls
  show one length only (the others T == d_h, the lecture's values), `varies` keeps it unsaid.

Pieces of other operators say the rest of the scales: no scale (`term`'s division left out),
sqrt(d_h) multiplied (`divided`), a fixed width (`fixed.py`), `** 1/2` (`half_power`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator
from contextvars import ContextVar

from grader.report.quotes import FOURTH_ROOT_LINE, ROOT_LINE, SHARE_LINES  # their line, or none

from .change import Change, Context, code, literal, near_checked, where, with_first
from .evidence import sizes_shown
from .tree import PREFIX, Edit, Instance, span

SHARES = (2, 3)  # a fused k, v width (2 * d_h) or q, k, v width (3 * d_h) read as one's
SCALE = f"{PREFIX}size_root"
# the scales a rewrite computed, while `varies` runs: one list per thread (a class's
# submissions may be graded in threads of one process, each searching on its own)
READ: ContextVar[list | None] = ContextVar("scale_sizes_read", default=None)


def size_root(size, power: float) -> float:
    """`size ** power`, the divisor of the scores, as a scale computed as a number: where `size`
    is 0, ZeroDivisionError, as `1 / math.sqrt(0)` and `0 ** -0.5` raise (recorded while
    `varies` asks)."""
    read = READ.get()
    if read is not None:
        read.append(int(size))
    if size == 0:
        raise ZeroDivisionError("float division by zero")
    return float(size) ** power


def varies(rewritten, calls, same) -> bool:
    """Whether the calls on which the rewrite's scale shows (a ZeroDivisionError included) read
    two different sizes: on one, the calls cannot tell the formula from a constant or from
    another formula of that value."""
    return sizes_shown(READ, rewritten, calls, same, (ZeroDivisionError,))


def other_axis(arg: ast.AST, axis: int) -> ast.AST | None:
    """`q.shape[axis]` for an argument `q.shape[-1]` (q is [..., heads, T, d_h]); None for
    another argument."""
    if (isinstance(arg, ast.Subscript) and isinstance(arg.value, ast.Attribute)
            and arg.value.attr == "shape" and literal(arg.slice) == -1):
        return ast.Subscript(copy.deepcopy(arg.value), ast.Constant(axis), ast.Load())
    return None


def heads_of(arg: ast.AST) -> ast.AST | None:
    """`q.shape[-3]` (the head count) for an argument `q.shape[-1]`; None for another."""
    return other_axis(arg, -3)


def tokens_of(arg: ast.AST) -> ast.AST | None:
    """`q.shape[-2]` (the number of tokens T) for an argument `q.shape[-1]`; None for another."""
    return other_axis(arg, -2)


def width(arg: ast.AST) -> ast.AST | None:
    """`q.shape[-1] * q.shape[-3]` (a head's width times the heads: the model width d) for an
    argument `q.shape[-1]`; None for another argument."""
    heads = heads_of(arg)
    return None if heads is None else ast.BinOp(copy.deepcopy(arg), ast.Mult(), heads)


def lecture_scales(context: Context, node: ast.Call) -> Iterator[Change]:
    """sqrt(d_h) as d_h, sqrt(d) or d: the root left off, the model width read for d_h. sqrt(d)
    is said at the student's one line that takes a square root, where there is one (b79_10's
    `scaler = np.sqrt(d_model)`, passed on to a helper: ROOT_LINE, report/root_line.py)."""
    size = code(node.args[0])
    yield Change("scale=d_h", f"In {where(context)}, the scores are divided by {size} "
                 f"itself (d_h) instead of its square root sqrt(d_h).",
                 lambda n: n.args[0])
    if width(node.args[0]) is not None:
        yield Change("scale=sqrt(d)",
                     f"In {where(context)}, the scores are divided by sqrt(d){ROOT_LINE}, "
                     f"the model width, instead of sqrt(d_h) = `{code(node)}` (d_h = d // heads).",
                     lambda n: with_first(n, width(n.args[0])))
        yield Change("scale=d",
                     f"In {where(context)}, the scores are divided by d, the model width, "
                     f"instead of sqrt(d_h) = `{code(node)}` (d_h = d // heads).",
                     lambda n: width(n.args[0]))


# (name, what it is, how the rewrite reads it from `q.shape[-1]`) of each width a scale may use
WIDTHS: tuple[tuple[str, str, Callable[[ast.AST], ast.AST | None]], ...] = (
    ("d_h", "the head width", copy.deepcopy),
    ("d", "the model width d = d_h * heads", width),
)
SHARE_WORDS = {2: "half", 3: "a third"}


def _sizes() -> Iterator[tuple[str, str, Callable, int | None]]:
    """(formula, words, its reading from `q.shape[-1]`, its k or None) of each size a wrong
    scale may use: d_h and d, and each one's share d_h // k (rounded down)."""
    for name, words, read in WIDTHS:
        yield name, words, read, None
        for k in SHARES:
            yield (f"{name} // {k}", f"{SHARE_WORDS[k]} of {words} (rounded down)",
                   lambda arg, read=read, k=k: ast.BinOp(read(arg), ast.FloorDiv(),
                                                         ast.Constant(k)), k)


def other_sizes(context: Context, node: ast.Call) -> Iterator[Change]:
    """sqrt(d_h) as the square root of a share of a width (d_h // 3: a fused q, k, v width read
    as one head's) or as the fourth root of a width (d_h ** -0.25 put on q only). Not a share's
    fourth root (both slips at once): where the share is 0 or 1 it is the share's square root,
    and the generated inputs' heads are at most 4 wide."""
    if width(node.args[0]) is None or not near_checked(context):
        return
    lecture = code(node)
    for formula, words, read, k in _sizes():
        power = 0.5 if k else 0.25  # sqrt(d_h) is the lecture's, sqrt(d) lecture_scales'
        said = f"sqrt({formula})" if k else f"{formula} ** 0.25"
        what = (f"the square root of {words}; {formula} is 0 where {formula.split()[0]} < {k}"
                if k else f"the fourth root of {words} (a factor d_h ** -0.25 on q and on k "
                "both makes 1/sqrt(d_h); on one of them only, a fourth root)")
        yield Change(f"scale={said.replace(' ', '')}",
                     f"In {where(context)}, the scores are divided by {said}"
                     f"{SHARE_LINES[k] if k else FOURTH_ROOT_LINE} where sqrt(d_h) = `{lecture}` "
                     f"belongs (d_h = d // heads, the width of each head): {what}.",
                     lambda n, read=read, power=power: ast.Call(
                         ast.Name(SCALE, ast.Load()), [read(n.args[0]), ast.Constant(power)], []),
                     ((SCALE, size_root),), holds=varies)


HEADS = "the number of heads"
TOKENS = "the number of tokens T (the sequence length)"
# (detail, formula, what it is, its reading from `q.shape[-1]`, the power of it the scores are
# divided by: a negative one multiplies them) of each scale no other operator says
FACTORS: tuple[tuple[str, str, str, Callable[[ast.AST], ast.AST | None], float], ...] = (
    ("sqrt(heads)", "sqrt(heads)", f"the square root of {HEADS}", heads_of, 0.5),
    ("heads", "heads", HEADS, heads_of, 1.0),
    ("sqrt(T)", "sqrt(T)", f"the square root of {TOKENS}", tokens_of, 0.5),
    ("times-sqrt(heads)", "sqrt(heads)", f"the square root of {HEADS}", heads_of, -0.5),
    ("times-heads", "heads", HEADS, heads_of, -1.0),
    ("times-d_h", "d_h", "the head width", copy.deepcopy, -1.0),
    ("times-sqrt(d)", "sqrt(d)", "the square root of the model width", width, -0.5),
    ("times-d", "d", "the model width", width, -1.0),
)


def factors(context: Context, node: ast.Call) -> Iterator[Change]:
    """sqrt(d_h) as sqrt(heads), heads or sqrt(T), or the scores multiplied by one of the lecture's
    sizes (FACTORS) where the lecture divides them by sqrt(d_h). The student's line that takes
    a square root is quoted where their function holds one (ROOT_LINE)."""
    if width(node.args[0]) is None or not near_checked(context):
        return
    lecture = code(node)
    for detail, formula, words, read, power in FACTORS:
        line = ROOT_LINE if formula.startswith("sqrt") else ""
        how = (f"divided by {formula}{line}, {words}, where sqrt(d_h) = `{lecture}` belongs"
               if power > 0 else f"multiplied by {formula}{line}, {words}, where the lecture "
               f"divides them by sqrt(d_h) = `{lecture}`")
        yield Change(f"scale={detail}", f"In {where(context)}, the scores are {how} (d_h = "
                     "d // heads, the width of each head).",
                     lambda n, read=read, power=power: ast.Call(
                         ast.Name(SCALE, ast.Load()), [read(n.args[0]), ast.Constant(power)], []),
                     ((SCALE, size_root),), holds=varies)


def _formulas(edits) -> list[Edit]:
    return [edit for edit in edits
            if edit.operator == "constant" and edit.detail.startswith("scale=")]


def _read_inside(root: Instance, edit: Edit, formulas: list[Edit]) -> bool:
    """Whether `edit` reads a size at another axis (`index`) inside one of `formulas`' scales."""
    return edit.operator == "index" and any(
        edit.site.path == f.site.path and edit.site.index in span(root, f.site) for f in formulas)


def formulas_over_reads(root: Instance, found: list[list[Edit]]) -> list[list[Edit]]:
    """The rewrites found, but those that read a size inside a scale at another axis (`index`'s
    `q.shape[0]` for `q.shape[-1]`) where a formula of this module at that scale is found too:
    on these calls the read size is that formula's (the head count), and the formula is true
    of the student's code whatever it writes; the index names an expression it may not have."""
    formulas = _formulas(edit for group in found for edit in group)
    if not formulas:
        return found
    return [group for group in found
            if not any(_read_inside(root, edit, formulas) for edit in group)] or found


def read_of_unshown(root: Instance, group: list[Edit], unheld: list[Edit]) -> bool:
    """Whether the rewrite told, `group`, is a size read at another axis inside a scale where a
    formula of this module reproduced the calls too, but `varies` refused it (they show one
    size): the function's other checks' calls may show two (checks/kinds/mistakes.py)."""
    formulas = _formulas(unheld)
    return len(group) == 1 and bool(formulas) and _read_inside(root, group[0], formulas)
