"""A hint's code quotes spelled as the student wrote them, where that is clearly the same code.

The error model's sentences quote the reference's code in the reference's names: its parameters
and the locals it binds from them (`T = as_int("num_tokens", num_tokens)`), and each keyword it
passes. A student's code names them its own way (`num_tokens ^ 2` where the sentence says
`T ^ 2`) and leaves out keywords that change nothing where they are left out (`np.max(x)` for a
whole-array `np.max(x, keepdims=True)`); blind round 54 (b54_02, b54_04) found such near-quotes.
So, before `quotes.attributed`, for each part of a hint placed in a student function ("In
`f`, ..."):

- the reference's names are renamed to the student's (its parameters by position, from the
  def in the submission's source; a local the reference binds from one parameter alone as that
  parameter), in every quote of that part (a keyword's name and what strings hold never), but
  only where that turns a quote the source does not hold into one `f`'s code holds: the
  renaming is then the student's spelling, and the part says it throughout ("Write
  `num_tokens ** 2`"); a quote said as the lecture's keeps the lecture's names;
- a quote of a whole-array reduction with `keepdims=True` and no axis, which the source does not
  hold, is said without the keyword where `f`'s code holds that (the same value wherever it is
  broadcast).

Anything else is left to `quotes.attributed` (said as the lecture's, or as it is). Nothing
here runs student code; a source or a reference that cannot be read leaves the hint as it is.
"""
from __future__ import annotations

import ast
import copy
import functools
import inspect
import re
import textwrap
from dataclasses import replace

from grader.checks.results import MISTAKE

from .column_major import ordered
from .constants import theirs
from .discarded import discarded, unassigned_mask
from .fixed_axis import fixed_axis
from .fixed_size import fixed_size
from .held_fixes import unheld_fixes
from .helper_place import helper_placed
from .merge_order import merge_order
from .minimum_fill import minimum_fill
from .moved import moved
from .offsets import respelled
from .own_code import owned
from .quotes import PLACED, Source, attributed, is_fragment, reads_as_theirs
from .steps import placed
from .swapped_arguments import swapped_arguments

_SPAN = re.compile(r"`([^`\n]+)`")
# "the model solution's `...`", "the lecture's step `...`": a quote already said as not theirs
_LECTURES = re.compile(r"(?:lecture|model solution)'s(?: [a-z]+)? $")
_KEEPDIMS = re.compile(r",\s*keepdims\s*=\s*True\b")


def finished(result, source: Source | None, folder: str | None = None,
             spec: str | None = None):
    """An ExerciseResult with each check's hint given a diagonal's offset in the student's call
    (offsets.py), a small constant's range said as the student's number (constants.py),
    `spelled`, `quotes.attributed`, a fix the student already wrote said by its meaning
    (held_fixes.py), an `axis` ignored said as the one its reductions fix (fixed_axis.py),
    then its model solution's steps said in the student's terms
    (steps.py), a column-major order with the line that makes it (column_major.py) and a
    mask's caveat as "enough" where the fill is its dtype's minimum (minimum_fill.py)
    (session.py, before any report is written); but a step missing that the student
    wrote and threw away, said as that line (discarded.py; `spec`: the exercise's spec file, whose
    compiled data says which mistake a known-wrong variant is), as it is: it quotes the student's
    own code only, and is the same with or without the reference."""
    if source is None:
        return result
    named = (fixed_size(c, source) or c for c in result.checks)  # built for a fixed size
    checks = tuple(owned(_finished(c, source, folder, spec) if c.hint else c, source)
                   for c in named)  # a regrade's "own code" with its own helpers too
    return replace(result, checks=checks)


def _finished(check, source: Source, folder: str | None, spec: str | None):
    said = (discarded(check.misconception, source, spec, folder)
            if check.hint_kind == MISTAKE else None)
    if said:
        return replace(check, hint=said)

    def renamed(function: str) -> dict[str, str]:
        return _renamed(function, source, folder)

    passes = (  # in this order, each given the hint the one before it gave
        lambda hint: merge_order(hint, source),  # heads merged from another order: its move
        lambda hint: swapped_arguments(hint, source),  # a swap in a step they have no call of
        lambda hint: respelled(hint, source),  # a diagonal's offset in the student's call
        lambda hint: theirs(hint, source, renamed),  # a constant's range as the student's number
        lambda hint: spelled(hint, source, folder),  # quotes as the student's function spells
        lambda hint: attributed(hint, source, folder),  # the others as the model solution's
        lambda hint: unheld_fixes(hint, source),  # a fix they already wrote: its meaning
        lambda hint: fixed_axis(hint, source),  # an axis ignored: the one they fixed
        lambda hint: placed(hint, source),  # the model solution's steps in the student's terms
        lambda hint: moved(hint, source),  # a step left out that a caller makes: that line
        lambda hint: ordered(hint, source),  # a column-major order: the line that flattens so
        lambda hint: helper_placed(hint, source),  # a step a helper of theirs runs: its line
    )
    hint = check.hint
    for step in passes:
        hint = step(hint)
    if check.hint_kind == MISTAKE:  # a mask built and thrown away: the student's own line
        hint = unassigned_mask(hint, source)
        hint = minimum_fill(hint, source)  # a dtype's minimum as the fill: the slip is enough
    return replace(check, hint=hint)


def spelled(hint: str, source: Source | None, folder: str | None = None) -> str:
    """`hint` with the quotes of each part placed in a student function spelled as its code
    spells them (the module's docstring); as it is without a source."""
    if source is None or not hint or "`" not in hint:
        return hint
    starts = [m for m in PLACED.finditer(hint)]
    if not starts:
        return hint
    out = [hint[:starts[0].start()]]
    for number, match in enumerate(starts):
        end = starts[number + 1].start() if number + 1 < len(starts) else len(hint)
        out.append(_part(hint[match.start():end], match.group(1), source, folder))
    return "".join(out)


def _part(text: str, function: str, source: Source, folder: str | None) -> str:
    names = _renamed(function, source, folder)
    head = len(PLACED.match(text).group())  # "In `f`": the function's own name, kept
    spans = [m for m in _SPAN.finditer(text, head)
             if not _LECTURES.search(text[:m.start()])]  # one said as the lecture's: its names
    if names and any(is_fragment(q) and not source.holds(q, function)
                     and source.holds(_rename(q, names), function)
                     for q in (m.group(1) for m in spans)):
        kept = {m.start() for m in spans}
        text = _SPAN.sub(lambda m: f"`{_rename(m.group(1), names)}`" if m.start() in kept
                         else m.group(), text)
    text = _SPAN.sub(lambda m: f"`{_without_keepdims(m.group(1), function, source)}`", text)
    return _SPAN.sub(lambda m: f"`{_own_statement(m.group(1), function, source)}`"
                     if reads_as_theirs(text, m.start(), m.end()) else m.group(), text)


def _shape(node: ast.AST) -> str:
    """`node` as a shape of code: each name (not an attribute) renamed by its first place,
    so `A, b = y.shape` and `N, C = src.shape` read alike."""
    node = copy.deepcopy(node)
    numbered: dict[str, str] = {}
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            sub.id = numbered.setdefault(sub.id, f"n{len(numbered)}")
            sub.ctx = ast.Load()
    return ast.dump(node, annotate_fields=False, include_attributes=False)


def _own_statement(quote: str, function: str, source: Source) -> str:
    """The student's own statement where `quote` is an assignment `function`'s code does not
    hold but writes once with other names (`N, C = src.shape` for the model's `T, d =
    x.shape`, blind round 57's b57_15): the same code, its names theirs; else `quote`."""
    if source.holds(quote, function):
        return quote
    try:
        wanted = ast.parse(quote).body
    except Exception:  # noqa: BLE001 - a fragment that is no statement
        return quote
    if len(wanted) != 1 or not isinstance(wanted[0], ast.Assign) or all(
            isinstance(n, ast.Name | ast.Tuple | ast.Load | ast.Store | ast.Assign)
            for n in ast.walk(wanted[0])):  # names alone (`a = b`) match too much
        return quote
    text = textwrap.dedent(source.function_text(function) or "")
    try:
        tree = ast.parse(text)
    except Exception:  # noqa: BLE001 - a def that does not parse on its own
        return quote
    shape = _shape(wanted[0])
    same = {ast.get_source_segment(text, n): n for n in ast.walk(tree)
            if isinstance(n, ast.Assign) and _shape(n) == shape}
    if len(same) != 1 or None in same:
        return quote
    (statement, node), = same.items()
    return quote if _reordered(wanted[0], node) else statement


def _reordered(quote: ast.AST, theirs: ast.AST) -> bool:
    """Whether `theirs` (of `quote`'s shape) gives a name of `quote` to another place of it, case
    and an image side's other spellings aside (_role): `H, W, C = x.shape`, `h, w, c = x.shape`
    or `height, width, c = x.shape` for `W, H, C = image.shape` is other code in the same names
    (the sides in their right order), not that code spelled theirs."""
    mine = [_role(n) for n in dict.fromkeys(
        n.id for n in ast.walk(quote) if isinstance(n, ast.Name))]
    given = [_role(n) for n in dict.fromkeys(
        n.id for n in ast.walk(theirs) if isinstance(n, ast.Name))]
    return any(g != m and g in mine for m, g in zip(mine, given, strict=False))


_SIDES = {"h": re.compile(r"h|height|rows?|n_?rows|(?:\w+_)?h|h_\w+|\w*height\w*"),
          "w": re.compile(r"w|width|cols?|columns?|n_?cols|(?:\w+_)?w|w_\w+|\w*width\w*")}


def _role(name: str) -> str:
    """A name as what it names: an image's height ("h": `H`, `height`, `img_h`, `rows`) or width
    ("w"), else the name in lower case."""
    lower = name.lower()
    return next((side for side, spelled in _SIDES.items() if spelled.fullmatch(lower)), lower)


def _without_keepdims(quote: str, function: str, source: Source) -> str:
    """`quote` without `keepdims=True` where it reduces the whole array (no axis) and `function`'s
    code holds it so, not as it is."""
    if "keepdims" not in quote or "axis" in quote or source.holds(quote, function):
        return quote
    bare = _KEEPDIMS.sub("", quote)
    return bare if bare != quote and source.holds(bare, function) else quote


def _rename(quote: str, names: dict[str, str]) -> str:
    """`quote` with each name of `names` renamed: not an attribute, a keyword's name, or in a
    string."""
    def one(match: re.Match) -> str:
        before, after = quote[:match.start()], quote[match.end():]
        if (before.count("'") % 2 or before.count('"') % 2 or before.endswith(".")
                or re.match(r"\s*=(?!=)", after)):
            return match.group()
        return names.get(match.group(), match.group())
    return re.sub(r"(?<![\w.])[^\W\d]\w*", one, quote)


def _renamed(function: str, source: Source, folder: str | None) -> dict[str, str]:
    """{the reference's name: the student's} for `function`'s parameters (by position) and the
    locals the reference binds from one of them alone; only those that differ."""
    theirs = _params(source.function_text(function))
    mine = _reference_names(function, folder)
    if theirs is None or mine is None or len(theirs) != len(mine[0]):
        return {}
    names = {m: t for m, t in zip(mine[0], theirs, strict=True)}
    names.update({local: names[param] for local, param in mine[1].items() if param in names})
    names = {m: t for m, t in names.items() if m != t}
    return names if len(set(names.values())) == len(names) else {}


def _params(text: str | None) -> tuple[str, ...] | None:
    try:
        tree = ast.parse(textwrap.dedent(text or ""))
    except Exception:  # noqa: BLE001 - a def that does not parse on its own
        return None
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    if not defs:
        return None
    args = defs[0].args
    return tuple(a.arg for a in (*args.posonlyargs, *args.args))


@functools.cache
def _reference_names(function: str, folder: str | None) -> tuple | None:
    """(the reference's parameters, {a local bound from one of them alone: that parameter}):
    `T = as_int("num_tokens", num_tokens)`, `T = num_tokens`; None without a reference."""
    from grader.checks.course import reference_function

    try:
        found = reference_function(function, folder)
        tree = ast.parse(textwrap.dedent(inspect.getsource(found)))
    except Exception:  # noqa: BLE001 - no reference (the student bundle), or no source
        return None
    node = tree.body[0]
    if not isinstance(node, ast.FunctionDef):
        return None
    params = tuple(a.arg for a in (*node.args.posonlyargs, *node.args.args))
    locals_: dict[str, str] = {}
    for statement in node.body:
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)):
            continue
        used = {n.id for n in ast.walk(statement.value) if isinstance(n, ast.Name)} & set(params)
        value = statement.value
        alone = isinstance(value, ast.Name) or (isinstance(value, ast.Call) and all(
            isinstance(a, ast.Constant | ast.Name) for a in value.args) and not value.keywords)
        if len(used) == 1 and alone and statement.targets[0].id not in params:
            locals_[statement.targets[0].id] = used.pop()
    return params, locals_
